// Upstream faults against real loopback servers: each gives the documented typed
// error after the documented number of attempts, counted on the server. Timeouts are only limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiError,
  AuthenticationError,
  BadResponseError,
  NetworkError,
  PayFormError,
  PaymentClient,
  SignatureError,
  createTokenHandler,
  MemoryCallbackStore,
  TimeoutError,
  type PayoutParams,
  type TokenParams,
} from '../../../../src/server/index.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { answerSigned, clientFor, fails, PAYOUT, refusedUrl, servicesForFile, TOKEN, type Responder } from '../../../support/servers/service.js';

const service = servicesForFile();

const token = TOKEN as unknown as TokenParams;
const payout = PAYOUT as unknown as PayoutParams;
const LIMIT = { timeout: 20_000 };


const hang: Responder = () => undefined;
const raw =
  (status: number, contentType: string | undefined, body: string | Buffer): Responder =>
  (_req, res) => {
    res.writeHead(status, contentType ? { 'content-type': contentType } : {});
    res.end(body);
  };

describe('connection refused', () => {
  test('obtain_token: 1 + maxRetries attempts, then NetworkError ECONNREFUSED, outcome known', LIMIT, async () => {
    const error = await fails(clientFor(await refusedUrl(), { maxRetries: 2 }).obtainToken(token), NetworkError);
    assert.equal(error.attempts, 3);
    assert.equal(error.systemCode, 'ECONNREFUSED');
    assert.equal(error.outcomeUnknown, false);
  });
  test('payout: retried (it provably never left), then NetworkError with outcomeUnknown false', LIMIT, async () => {
    const error = await fails(clientFor(await refusedUrl(), { maxRetries: 3 }).createPayout(payout), NetworkError);
    assert.equal(error.attempts, 4);
    assert.equal(error.outcomeUnknown, false);
  });
});

describe('a service that hangs', () => {
  test('payout: TimeoutError with outcomeUnknown, sent exactly once', LIMIT, async () => {
    const s = await service(hang);
    const error = await fails(clientFor(s.url, { timeoutMs: 1000, maxRetries: 5 }).createPayout(payout), TimeoutError);
    assert.equal(error.outcomeUnknown, true);
    assert.equal(error.attempts, 1);
    assert.equal(error.timeoutMs, 1000);
    assert.equal(s.requests.length, 1);
  });
  test('payout: a service that stalls mid-body also times out, sent once', LIMIT, async () => {
    const s = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":true,');
    });
    const error = await fails(clientFor(s.url, { timeoutMs: 1000, maxRetries: 5 }).createPayout(payout), TimeoutError);
    assert.equal(error.outcomeUnknown, true);
    assert.equal(s.requests.length, 1);
  });
  test('obtain_token: retried on timeout, 1 + maxRetries attempts', LIMIT, async () => {
    const s = await service(hang);
    const error = await fails(clientFor(s.url, { timeoutMs: 1000, maxRetries: 2 }).obtainToken(token), TimeoutError);
    assert.equal(error.attempts, 3);
    assert.equal(error.timeoutMs, 1000);
    assert.equal(s.requests.length, 3);
  });
});

describe('a connection cut before the answer', () => {
  test('payout: NetworkError with outcomeUnknown true, never resent', LIMIT, async () => {
    const s = await service((_req, res) => void res.socket?.destroy());
    const error = await fails(clientFor(s.url, { maxRetries: 5 }).createPayout(payout), NetworkError);
    assert.equal(error.outcomeUnknown, true);
    assert.equal(s.requests.length, 1);
  });
  test('obtain_token: retried, then succeeds when the service recovers', LIMIT, async () => {
    let calls = 0;
    const s = await service(async (req, res) => {
      if (++calls < 3) return void res.socket?.destroy();
      await answerSigned(res, 200, { success: true, key: 'k-after-retries' });
    });
    const answer = await clientFor(s.url, { maxRetries: 2 }).obtainToken(token);
    assert.equal(answer.key, 'k-after-retries');
    assert.equal(s.requests.length, 3);
  });
});

describe('5xx and 429', () => {
  test('obtain_token 503: 1 + maxRetries attempts, then ApiError with the service message and status', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 503, { success: false, message: 'maintenance' }));
    const error = await fails(clientFor(s.url, { maxRetries: 2 }).obtainToken(token), ApiError);
    assert.equal(error.status, 503);
    assert.equal(error.serviceMessage, 'maintenance');
    assert.equal(error.verified, true);
    assert.equal(s.requests.length, 3);
  });
  test('obtain_token 500 then 200: the retry succeeds', LIMIT, async () => {
    const s = await service((_req, res) =>
      s.requests.length === 1
        ? answerSigned(res, 500, { success: false, message: 'oops' })
        : answerSigned(res, 200, { success: true, key: 'k2' }),
    );
    assert.equal((await clientFor(s.url).obtainToken(token)).key, 'k2');
    assert.equal(s.requests.length, 2);
  });
  test('payout 500: not retried (it reached the service); ApiError', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 500, { success: false, message: 'internal' }));
    const error = await fails(clientFor(s.url, { maxRetries: 5 }).createPayout(payout), ApiError);
    assert.equal(error.status, 500);
    assert.equal(s.requests.length, 1);
  });
  test('obtain_token 429 with Retry-After: honoured (capped by retryMaxMs), then success', LIMIT, async () => {
    const s = await service((_req, res) => {
      if (s.requests.length === 1) {
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
        return void res.end('{"success":false,"message":"slow down"}');
      }
      return answerSigned(res, 200, { success: true, key: 'k3' });
    });
    // Retry-After says an hour; retryMaxMs caps the wait, so this finishes well inside the limit.
    assert.equal((await clientFor(s.url, { retryMaxMs: 50 }).obtainToken(token)).key, 'k3');
    assert.equal(s.requests.length, 2);
  });
  test('obtain_token 429 every time: 1 + maxRetries attempts, then ApiError 429 (unsigned: verified false)', LIMIT, async () => {
    const s = await service(raw(429, 'application/json', '{"success":false,"message":"rate limited"}'));
    const error = await fails(clientFor(s.url, { maxRetries: 1 }).obtainToken(token), ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.verified, false);
    assert.equal(s.requests.length, 2);
  });
  test('payout 429: not retried', LIMIT, async () => {
    const s = await service(raw(429, 'application/json', '{"success":false,"message":"rate limited"}'));
    await fails(clientFor(s.url).createPayout(payout), ApiError);
    assert.equal(s.requests.length, 1);
  });
});

describe('answers that are not usable JSON: BadResponseError', () => {
  const cases: Array<[string, Responder, string]> = [
    ['HTML instead of JSON', raw(200, 'text/html', '<html><body>Bad gateway</body></html>'), 'content-type'],
    ['HTML labelled as JSON', raw(200, 'application/json', '<html>oops</html>'), 'not-json'],
    ['truncated JSON', raw(200, 'application/json', '{"success":true,"key":"abc'), 'not-json'],
    ['no content type', raw(200, undefined, '{"success":true}'), 'content-type'],
    ['a JSON array', raw(200, 'application/json', '[1,2]'), 'shape'],
    ['a huge body (2 MiB, declared)', raw(200, 'application/json', Buffer.alloc(2 * 1024 * 1024, 0x20)), 'too-large'],
    [
      'a huge body (streamed, no length)',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 40 && res.write(chunk)) sent++;
          if (sent < 40) res.once('drain', pump);
          else res.end();
        };
        pump();
      },
      'too-large',
    ],
  ];
  for (const [name, respond, reason] of cases) {
    test(`${name}: obtain_token -> ${reason} after 1 attempt (a 200 is not retried), outcome known`, LIMIT, async () => {
      const s = await service(respond);
      const error = await fails(clientFor(s.url, { maxRetries: 3 }).obtainToken(token), BadResponseError);
      assert.equal(error.reason, reason);
      assert.equal(error.attempts, 1);
      assert.equal(error.outcomeUnknown, false);
      assert.equal(s.requests.length, 1);
    });
    test(`${name}: payout -> ${reason}, sent once, outcome unknown`, LIMIT, async () => {
      const s = await service(respond);
      const error = await fails(clientFor(s.url, { maxRetries: 3 }).createPayout(payout), BadResponseError);
      assert.equal(error.reason, reason);
      assert.equal(error.outcomeUnknown, true);
      assert.equal(error.status, 200);
      assert.equal(s.requests.length, 1);
    });
  }
  test('HTML 502 from a proxy: obtain_token retried, then BadResponseError content-type', LIMIT, async () => {
    const s = await service(raw(502, 'text/html', '<h1>502</h1>'));
    const error = await fails(clientFor(s.url, { maxRetries: 2 }).obtainToken(token), BadResponseError);
    assert.equal(error.status, 502);
    assert.equal(error.attempts, 3);
    assert.equal(s.requests.length, 3);
  });
  test('a success without a key: BadResponseError shape', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 200, { success: true }));
    assert.equal((await fails(clientFor(s.url).obtainToken(token), BadResponseError)).reason, 'shape');
  });
  test('success not a boolean: BadResponseError shape', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 200, { success: 'yes', key: 'k' }));
    assert.equal((await fails(clientFor(s.url).obtainToken(token), BadResponseError)).reason, 'shape');
  });
});

describe('the service refusing the merchant itself', () => {
  test('the sandbox with a wrong secret or merchant_id: an AuthenticationError (an ApiError) naming the secret and merchantId, with the service\'s own message, not a SignatureError blaming the service', LIMIT, async () => {
    const sandbox = await startSandbox({ port: 0, merchantId: 'shop-1', secret: 'the-right-secret' });
    try {
      const cases = [
        [{ merchantId: 'shop-1', secret: 'a-wrong-secret' }, 'Invalid signature'],
        [{ merchantId: 'shop-9', secret: 'the-right-secret' }, 'Unknown merchant_id'],
      ] as const;
      for (const [credentials, serviceMessage] of cases) {
        const client = new PaymentClient({ baseUrl: sandbox.url, ...credentials, maxRetries: 0 });
        const error = await fails(client.obtainToken(token), AuthenticationError);
        assert.ok(error instanceof ApiError && error instanceof PayFormError);
        assert.equal(error.code, 'authentication');
        assert.equal(error.status, 401);
        assert.equal(error.serviceMessage, serviceMessage);
        assert.equal(error.message, `obtain_token was refused (HTTP 401): ${serviceMessage}: check the PaymentClient's secret and merchantId, the likely cause`);
      }
      // A payout refused so: its refusal cannot be verified with the wrong secret, so it is not a sure "not paid".
      const client = new PaymentClient({ baseUrl: sandbox.url, merchantId: 'shop-1', secret: 'a-wrong-secret' });
      const error = await fails(client.createPayout(payout), AuthenticationError);
      assert.equal(error.verified, false);
      assert.equal(error.outcomeUnknown, true);
    } finally {
      await sandbox.close();
    }
  });
});

describe('signatures on answers', () => {
  test('a wrong signature on a success: SignatureError, not retried', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 200, { success: true, key: 'k' }, 'another-secret'));
    const error = await fails(clientFor(s.url).obtainToken(token), SignatureError);
    assert.equal(s.requests.length, 1);
    assert.equal(error.operation, 'obtain_token');
    assert.equal(error.outcomeUnknown, false);
  });
  test('a tampered field after signing: SignatureError', LIMIT, async () => {
    const s = await service(async (req, res) => {
      const { sign } = await import('../../../../src/service/signature.js');
      const { SECRET } = await import('../../../support/servers/service.js');
      const body: Record<string, unknown> = { success: true, status: 'created', invoice_id: 'inv', amount: 2500 };
      body['signature'] = await sign(body, SECRET);
      body['amount'] = 999_999;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const error = await fails(clientFor(s.url, { maxRetries: 3 }).createPayout(payout), SignatureError);
    assert.equal(error.outcomeUnknown, true, 'the payout may exist: reconcile');
    assert.equal(s.requests.length, 1);
  });
  test('a success without a signature: SignatureError', LIMIT, async () => {
    const s = await service(raw(200, 'application/json', '{"success":true,"key":"k"}'));
    await fails(clientFor(s.url).obtainToken(token), SignatureError);
  });
  test('a failure answer with a wrong signature: SignatureError (its message is not trusted)', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 400, { success: false, message: 'nope' }, 'wrong'));
    await fails(clientFor(s.url).createPayout(payout), SignatureError);
  });
  test('a signed failure: ApiError with the service message, status and body minus signature', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 400, { success: false, message: 'Invalid ContentType or json format' }));
    const error = await fails(clientFor(s.url).createPayout(payout), ApiError);
    assert.equal(error.serviceMessage, 'Invalid ContentType or json format');
    assert.equal(error.status, 400);
    assert.deepEqual(error.body, { success: false, message: 'Invalid ContentType or json format' });
    assert.equal(error.verified, true);
  });
  test('with a signer and no verifier, answers are not verified', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 200, { success: true, key: 'k' }, 'not-ours'));
    const client = clientFor(s.url, { secret: undefined, signer: () => 'custom-sig' } as never);
    assert.equal((await client.obtainToken(token)).key, 'k');
    assert.equal(s.requests.at(-1)!.json!['signature'], 'custom-sig');
  });
  test('a custom async verifier decides (and gets the answer without its signature)', LIMIT, async () => {
    const s = await service((_req, res) => answerSigned(res, 200, { success: true, key: 'k' }));
    const seen: Array<Record<string, unknown>> = [];
    const client = clientFor(s.url, {
      secret: undefined,
      signer: async () => 'sig',
      verifier: async (payload: Record<string, unknown>, signature: string) => {
        seen.push(payload);
        return signature.length === 64;
      },
    } as never);
    assert.equal((await client.obtainToken(token)).key, 'k');
    assert.deepEqual(seen, [{ success: true, key: 'k' }]);
    const refusing = clientFor(s.url, { secret: undefined, signer: () => 'sig', verifier: () => false } as never);
    await fails(refusing.obtainToken(token), SignatureError);
    const throwing = clientFor(s.url, {
      secret: undefined,
      signer: () => 'sig',
      verifier: () => {
        throw new Error('cannot parse');
      },
    } as never);
    await fails(throwing.obtainToken(token), SignatureError);
  });
});

// What the browser sees when the service fails behind the token endpoint: every fault above is one
// 502 with the same fixed words, after the client's documented attempts, and nothing of the upstream.
describe('the token handler in front of each fault', () => {
  const faults: Array<[string, Responder, number]> = [
    ['hangs (timeoutMs 200)', hang, 2],
    ['503 signed', (_req, res) => answerSigned(res, 503, { success: false, message: 'upstream secret detail' }), 2],
    ['429', raw(429, 'application/json', '{"success":false,"message":"upstream secret detail"}'), 2],
    ['HTML 502 (a proxy in front of a service that is down)', raw(502, 'text/html', '<h1>upstream secret detail</h1>'), 2],
    ['truncated JSON', raw(200, 'application/json', '{"success":true,"key":"upstream secret detail'), 1],
    ['wrong signature', (_req, res) => answerSigned(res, 200, { success: true, key: 'upstream secret detail' }, 'other'), 1],
    ['a huge body', raw(200, 'application/json', Buffer.alloc(2 * 1024 * 1024, 0x20)), 1],
  ];
  for (const [name, respond, attempts] of faults) {
    test(`${name}: 502 "Payment service unavailable" after ${attempts} attempt(s), no upstream detail`, LIMIT, async () => {
      const s = await service(respond);
      const seen: unknown[] = [];
      const handler = createTokenHandler({
        // The short limit is for the hanging service; the others must answer within it even on a busy machine.
        client: clientFor(s.url, { timeoutMs: respond === hang ? 200 : 5000, maxRetries: 1 }),
        store: new MemoryCallbackStore(),
        resolve: () => ({ ...TOKEN }) as TokenParams,
        onError: (error) => seen.push(error),
      });
      const response = await handler(
        new Request('http://merchant.test/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      );
      const text = await response.text();
      assert.equal(response.status, 502);
      assert.deepEqual(JSON.parse(text), { success: false, message: 'Payment service unavailable' });
      assert.ok(!text.includes('upstream secret detail'));
      assert.equal(s.requests.length, attempts);
      assert.equal(seen.length, 1);
      assert.ok(seen[0] instanceof PayFormError, 'onError gets the typed error');
    });
  }
});
