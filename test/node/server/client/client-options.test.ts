// PaymentClient options are checked when the client is made; errors never carry a secret or a signature.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  ApiError,
  BadResponseError,
  ConfigError,
  NetworkError,
  PayFormError,
  PaymentClient,
  SignatureError,
  TimeoutError,
  ValidationError,
  type PayoutParams,
  type TokenParams,
} from '../../../../src/server/index.js';
import { answerSigned, clientFor, PAYOUT, refusedUrl, SECRET, startService, TOKEN } from '../../../support/servers/service.js';

const good = { baseUrl: 'https://pay.example', merchantId: 'm1', secret: 's3cret' };

function configIssues(options: unknown): string[] {
  try {
    new PaymentClient(options as never);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(error instanceof PayFormError);
    assert.equal(error.code, 'config');
    assert.ok(!error.message.includes('s3cret'), 'the secret is not echoed');
    return error.issues.map((i) => i.path);
  }
  assert.fail('the client was made');
}

describe('PaymentClient options', () => {
  test('good options make a client; signer-only too', () => {
    assert.ok(new PaymentClient(good));
    assert.ok(new PaymentClient({ baseUrl: 'http://127.0.0.1:1/', merchantId: 'm', signer: () => 'x', verifier: () => true }));
  });
  test('missing or empty merchantId', () => {
    assert.deepEqual(configIssues({ ...good, merchantId: undefined }), ['merchantId']);
    assert.deepEqual(configIssues({ ...good, merchantId: '' }), ['merchantId']);
  });
  test('baseUrl must be absolute http(s)', () => {
    for (const baseUrl of ['/api', 'pay.example', 'ftp://pay.example', 'javascript:alert(1)', 'https://u:p@pay.example', 42, undefined]) {
      assert.deepEqual(configIssues({ ...good, baseUrl }), ['baseUrl'], String(baseUrl));
    }
  });
  test('unknown options are refused (a typo is not silently ignored)', () => {
    assert.deepEqual(configIssues({ ...good, timeout: 5 }), ['timeout']);
  });
  test('negative, NaN or fractional numbers are refused', () => {
    assert.deepEqual(
      configIssues({ ...good, timeoutMs: -1, maxRetries: 1.5, retryBaseMs: Number.NaN, retryMaxMs: Infinity }),
      ['timeoutMs', 'maxRetries', 'retryBaseMs', 'retryMaxMs'],
    );
    assert.deepEqual(configIssues({ ...good, timeoutMs: 0 }), ['timeoutMs']);
  });
  test('time limits longer than a timer can run are refused, not left to fire after 1 ms', () => {
    const tooLong = 2 ** 31;
    assert.deepEqual(configIssues({ ...good, timeoutMs: tooLong, retryBaseMs: tooLong, retryMaxMs: tooLong }), ['timeoutMs', 'retryBaseMs', 'retryMaxMs']);
    assert.ok(new PaymentClient({ ...good, timeoutMs: tooLong - 1, retryBaseMs: 0, retryMaxMs: tooLong - 1 }));
  });
  test('exactly one of secret or signer; a verifier goes with a signer', () => {
    assert.deepEqual(configIssues({ baseUrl: good.baseUrl, merchantId: 'm' }), ['secret']);
    assert.deepEqual(configIssues({ ...good, signer: () => 'x' }), ['secret']);
    assert.deepEqual(configIssues({ ...good, verifier: () => true }), ['verifier']);
    assert.deepEqual(configIssues({ ...good, secret: '' }), ['secret']);
    assert.deepEqual(configIssues({ ...good, fetch: 'nope', onWarning: 1 }), ['fetch', 'onWarning']);
  });
  test('not an object at all', () => {
    assert.deepEqual(configIssues(null), ['options']);
  });
  test('an injected fetch is used, and sees JSON with the content type', async () => {
    const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
    const client = new PaymentClient({
      ...good,
      fetch: async (url, init) => {
        seen.push({ url: String(url), init });
        return new Response('{"success":false,"message":"stub"}', { status: 400, headers: { 'content-type': 'application/json' } });
      },
    });
    await assert.rejects(client.obtainToken(TOKEN as unknown as TokenParams), ApiError);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.url, 'https://pay.example/api/jsapi/obtain_token/');
    assert.equal((seen[0]!.init?.headers as Record<string, string>)['content-type'], 'application/json');
  });
});

describe('errors never show a secret or a signature', () => {
  test('every error class, as message, toString, JSON and inspect', async () => {
    let lastSignature = '';
    const s = await startService(async (req, res) => {
      lastSignature = String(req.json?.['signature']);
      const mode = req.json?.['request_id'];
      if (mode === 'api') return answerSigned(res, 400, { success: false, message: 'refused' });
      if (mode === 'sig') return answerSigned(res, 200, { success: true, key: 'k' }, 'other');
      if (mode === 'bad') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
      if (mode === 'hang') return;
    });
    try {
      // Only the hanging request has a short limit: on a busy machine an answer can take longer than it.
      const client = clientFor(s.url, { timeoutMs: 10_000, maxRetries: 0 });
      const hasty = clientFor(s.url, { timeoutMs: 200, maxRetries: 0 });
      const errors: unknown[] = [];
      for (const request_id of ['api', 'sig', 'bad', 'hang']) {
        await (request_id === 'hang' ? hasty : client).obtainToken({ ...TOKEN, request_id } as TokenParams).catch((e: unknown) => errors.push(e));
      }
      await clientFor(await refusedUrl(), { maxRetries: 0 }).createPayout(PAYOUT as unknown as PayoutParams).catch((e: unknown) => errors.push(e));
      await client.createPayout({ ...PAYOUT, request_id: 'api', additional_fields: { card_number: SECRET } } as unknown as PayoutParams).catch((e: unknown) => errors.push(e));
      await client.obtainToken({ ...TOKEN, amount: -1 } as TokenParams).catch((e: unknown) => errors.push(e));
      const classes = [ApiError, SignatureError, BadResponseError, TimeoutError, NetworkError, ApiError, ValidationError];
      assert.equal(errors.length, classes.length);
      errors.forEach((e, i) => {
        assert.ok(e instanceof classes[i]!, `${i}: ${String(e)}`);
        assert.ok(e instanceof PayFormError);
        const shown = [String(e), (e as Error).message, JSON.stringify(e), inspect(e, { depth: 10 })].join('\n');
        assert.ok(!shown.includes(SECRET), `${(e as Error).name} shows the secret`);
        assert.ok(lastSignature.length === 64 && !shown.includes(lastSignature), `${(e as Error).name} shows a signature`);
        assert.ok(!/[0-9a-f]{64}/.test(shown), `${(e as Error).name} shows something like a signature`);
      });
      // JSON keeps the useful fields for logs.
      const json = errors.map((e) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>);
      assert.deepEqual([json[0]!['status'], json[0]!['serviceMessage'], json[0]!['code']], [400, 'refused', 'api']);
      assert.deepEqual([json[3]!['outcomeUnknown'], json[3]!['attempts']], [true, 1]);
      assert.deepEqual([json[4]!['outcomeUnknown'], json[4]!['systemCode']], [false, 'ECONNREFUSED']);
      assert.ok(!('stack' in json[4]!) && !('cause' in json[4]!));
      const codes = errors.map((e) => (e as PayFormError).code);
      assert.deepEqual(codes, ['api', 'signature', 'bad_response', 'timeout', 'network', 'api', 'validation']);
    } finally {
      await s.close();
    }
  });
});
