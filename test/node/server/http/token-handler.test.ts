// The token endpoint, served by toNodeHandler on a real node:http server, in front of a real loopback
// service: what the browser gets back for good and bad input, what reaches the service (one attempt
// per order while it is live), and a paid order refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConfigError,
  createTokenHandler,
  MemoryCallbackStore,
  parseRequestId,
  toNodeHandler,
  type TokenParams,
  type TokenRequestBody,
} from '../../../../src/server/index.js';
import { answerSigned, clientFor, happyService, SECRET, startServer, startService, TOKEN, type Service } from '../../../support/servers/service.js';

let upstream: Service;
let merchant: { url: string; close(): Promise<void> };
const resolved: TokenRequestBody[] = [];
const errors: unknown[] = [];
let mode: 'ok' | 'null' | 'throw' | 'invalid' = 'ok';

// The merchant's own orders: the amount comes from here, never from the browser.
const ORDERS: Record<string, number> = { 'order-1': 1500, 'order-2': 990 };

before(async () => {
  upstream = await startService(async (req, res) => {
    const rid = parseRequestId(String(req.json?.['request_id'])).orderRef;
    if (rid === 'order-2') return answerSigned(res, 200, { success: true, key: 'kk', redirect_url: 'https://pay.example/r/1' });
    if (rid === 'upstream-fails') {
      return answerSigned(res, 400, { success: false, message: 'internal detail: merchant m-7 blocked, db=payments-3' });
    }
    return happyService(req, res);
  });
  const handler = createTokenHandler({
    client: clientFor(upstream.url, { maxRetries: 0 }),
    store: new MemoryCallbackStore(),
    resolve: (request, body) => {
      assert.ok(request instanceof Request);
      resolved.push(body);
      if (mode === 'throw') throw new Error('db down');
      if (mode === 'null') return null;
      const ref = body.order_ref ?? 'order-1';
      if (ref === 'upstream-fails') return { ...TOKEN, request_id: ref };
      const amount = ORDERS[ref];
      if (amount === undefined) return null;
      return { ...TOKEN, request_id: ref, amount: mode === 'invalid' ? -5 : amount } as TokenParams;
    },
    onError: (e) => errors.push(e),
  });
  merchant = await startServer(toNodeHandler(handler));
});
after(() => Promise.all([upstream.close(), merchant.close()]));

/** A token answer for `orderRef`: the service's key for the attempt's request_id, and that attempt. */
function assertAttempt(json: Record<string, unknown>, orderRef: string): void {
  assert.deepEqual(Object.keys(json).sort(), ['attempt', 'key']);
  assert.match(String(json['attempt']), /^[0-9a-z]{12}$/);
  assert.equal(json['key'], `key-${orderRef}~${String(json['attempt'])}`);
}

async function post(body: string, contentType = 'application/json', method = 'POST') {
  const response = await fetch(`${merchant.url}/token`, {
    method,
    headers: { 'content-type': contentType },
    ...(method === 'GET' ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as Record<string, unknown>, text, response };
}

describe('token handler', () => {
  test('{"order_ref"} answers exactly { key, attempt }: no signature, no secret; the service gets the attempt as request_id', async () => {
    mode = 'ok';
    const before = upstream.requests.length;
    const { status, json, text, response } = await post('{"order_ref":"order-1"}');
    assert.equal(status, 200);
    assertAttempt(json, 'order-1');
    assert.equal(upstream.requests[before]!.json!['request_id'], `order-1~${String(json['attempt'])}`);
    assert.ok(!text.includes(SECRET) && !text.includes('signature'));
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });
  test('{} is allowed (resolve sees an empty body)', async () => {
    const before = resolved.length;
    assertAttempt((await post('{}')).json, 'order-1');
    assert.deepEqual(resolved[before], {});
  });
  test('redirect_url from the service answers exactly { redirect_url, attempt }', async () => {
    const { json } = await post('{"order_ref":"order-2"}');
    assert.deepEqual(json, { redirect_url: 'https://pay.example/r/1', attempt: json['attempt'] });
    assert.match(String(json['attempt']), /^[0-9a-z]{12}$/);
  });
  test("a second token request for an order with a live attempt gets that attempt's key: the service is asked once", async () => {
    ORDERS['order-again'] = 700;
    const before = upstream.requests.length;
    const [a, b] = [(await post('{"order_ref":"order-again"}')).json, (await post('{"order_ref":"order-again"}')).json];
    assert.deepEqual(b, a);
    assertAttempt(a, 'order-again');
    const sent = upstream.requests.slice(before).map((r) => r.json!['request_id']);
    assert.deepEqual(sent, [`order-again~${String(a['attempt'])}`]);
  });
  test('the browser cannot choose the amount: extra fields never reach resolve or the service', async () => {
    ORDERS['order-cheap'] = 990;
    const before = upstream.requests.length;
    const { status } = await post('{"order_ref":"order-cheap","amount":1,"currency":"XXX","request_id":"evil"}');
    assert.equal(status, 200);
    assert.deepEqual(resolved.at(-1), { order_ref: 'order-cheap' });
    const sent = upstream.requests[before]!.json!;
    assert.equal(sent['amount'], 990);
    assert.equal(sent['currency'], 'USD');
    assert.equal(parseRequestId(String(sent['request_id'])).orderRef, 'order-cheap');
  });
  test('non-POST answers 405 with Allow: POST', async () => {
    const { status, response } = await post('', 'application/json', 'GET');
    assert.equal(status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
  });
  test("bad JSON, a wrong content type, a non-object: 400 with the service's failure shape", async () => {
    for (const [body, type] of [
      ['{"order_ref":', 'application/json'],
      ['{"order_ref":"order-1"}', 'text/plain'],
      ['order_ref=order-1', 'application/x-www-form-urlencoded'],
      ['["order-1"]', 'application/json'],
      ['null', 'application/json'],
      ['', 'application/json'],
    ] as const) {
      const { status, json } = await post(body, type);
      assert.equal(status, 400, `${type} ${body}`);
      assert.deepEqual(json, { success: false, message: 'Invalid ContentType or json format' });
    }
  });
  test('order_ref not a string: 400', async () => {
    const { status, json } = await post('{"order_ref":5}');
    assert.equal(status, 400);
    assert.equal(json['success'], false);
  });
  test('an unknown order (resolve returns null): 404', async () => {
    assert.equal((await post('{"order_ref":"nope"}')).status, 404);
    mode = 'null';
    assert.equal((await post('{"order_ref":"order-1"}')).status, 404);
    mode = 'ok';
  });
  test('resolve throws: 400, its message not shown, told to onError', async () => {
    mode = 'throw';
    const { status, text } = await post('{"order_ref":"order-1"}');
    mode = 'ok';
    assert.equal(status, 400);
    assert.ok(!text.includes('db down'));
    assert.equal((errors.at(-1) as Error).message, 'db down');
  });
  test("resolve's params break the field rules (a merchant bug): 500, nothing sent upstream", async () => {
    mode = 'invalid';
    const before = upstream.requests.length;
    const { status, json } = await post('{"order_ref":"order-1"}');
    mode = 'ok';
    assert.equal(status, 500);
    assert.deepEqual(json, { success: false, message: 'Payment could not be started' });
    assert.equal(upstream.requests.length, before);
  });
  test('the service refuses: 502 with a generic message, no upstream internals', async () => {
    const { status, json, text } = await post('{"order_ref":"upstream-fails"}');
    assert.equal(status, 502);
    assert.deepEqual(json, { success: false, message: 'Payment service unavailable' });
    assert.ok(!text.includes('internal detail'));
  });
  test('the service is down: 502', async () => {
    const closed = await startService(() => undefined);
    await closed.close();
    const handler = createTokenHandler({ client: clientFor(closed.url, { maxRetries: 0 }), store: new MemoryCallbackStore(), resolve: () => ({ ...TOKEN }) as TokenParams });
    const response = await handler(new Request('http://m.test/t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    assert.equal(response.status, 502);
  });
  test('200 concurrent requests: every one answered with its own key', { timeout: 60_000 }, async () => {
    const orders = Array.from({ length: 200 }, (_, i) => `bulk-${i}`);
    for (const o of orders) ORDERS[o] = 100;
    const answers = await Promise.all(orders.map((o) => post(JSON.stringify({ order_ref: o }))));
    assert.equal(answers.length, 200);
    answers.forEach((a, i) => {
      assert.equal(a.status, 200);
      assertAttempt(a.json, `bulk-${i}`);
    });
  });
  test('made with bad options: ConfigError', () => {
    assert.throws(() => createTokenHandler({ client: {} as never, resolve: 1 as never } as never), ConfigError);
    assert.throws(() => createTokenHandler({ client: clientFor(upstream.url), resolve: () => null, store: {} as never }), ConfigError);
    // Without the store an order could be paid twice: refused, naming why.
    assert.throws(() => createTokenHandler({ client: clientFor(upstream.url), resolve: () => null } as never), /store: must be the store the callback and status handlers share/);
    assert.throws(() => createTokenHandler({ client: clientFor(upstream.url), store: new MemoryCallbackStore(), resolve: () => null, keyLifetimeMs: 0 }), ConfigError);
  });
});

describe('token handler: a paid order', () => {
  const ask = (handler: (request: Request) => Promise<Response>) =>
    handler(new Request('http://m.test/t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order_ref":"order-1"}' }));

  test('the store knows it paid: 409 { paid: true }, and the service is not asked', async () => {
    const store = new MemoryCallbackStore();
    const handler = createTokenHandler({ client: clientFor(upstream.url), store, resolve: () => ({ ...TOKEN, request_id: 'order-1' }) as TokenParams });
    const first = await ask(handler);
    const { attempt } = (await first.json()) as { attempt: string };
    const paid = { order_ref: 'order-1', attempt, invoice_id: 'inv-paid', status: 'success', amount: '1500', currency: 'USD' };
    await store.finish({ ...paid, verdict: await store.judge(paid) });
    const before = upstream.requests.length;
    const second = await ask(handler);
    assert.equal(second.status, 409);
    assert.deepEqual(await second.json(), { success: false, message: 'Order already paid', paid: true });
    assert.equal(upstream.requests.length, before, 'no token request for a paid order');
  });
  test('a declined attempt does not make the order paid: the next checkout gets a token', async () => {
    const store = new MemoryCallbackStore();
    const handler = createTokenHandler({ client: clientFor(upstream.url), store, resolve: () => ({ ...TOKEN, request_id: 'order-1' }) as TokenParams });
    const { attempt } = (await (await ask(handler)).json()) as { attempt: string };
    const declined = { order_ref: 'order-1', attempt, invoice_id: 'inv-declined', status: 'fail', amount: '1500', currency: 'USD' };
    await store.finish({ ...declined, verdict: await store.judge(declined) });
    const next = await ask(handler);
    assert.equal(next.status, 200);
    assert.notEqual(((await next.json()) as { attempt: string }).attempt, attempt, 'a new attempt');
  });
  test("resolve says 'paid': 409, the service is not asked", async () => {
    const before = upstream.requests.length;
    const response = await ask(createTokenHandler({ client: clientFor(upstream.url), store: new MemoryCallbackStore(), resolve: () => 'paid' }));
    assert.equal(response.status, 409);
    assert.equal(((await response.json()) as { paid?: unknown }).paid, true);
    assert.equal(upstream.requests.length, before);
  });
  test('the store failing: 503 with Retry-After, the service is not asked', async () => {
    const errors: unknown[] = [];
    const down = () => Promise.reject(new Error('redis down'));
    const store = { startAttempt: down, keepToken: down, dropAttempt: down };
    const before = upstream.requests.length;
    const response = await ask(createTokenHandler({ client: clientFor(upstream.url), store, resolve: () => ({ ...TOKEN }) as TokenParams, onError: (e) => errors.push(e) }));
    assert.equal(response.status, 503);
    assert.ok(response.headers.get('retry-after'));
    assert.equal(upstream.requests.length, before);
    assert.equal((errors[0] as Error).message, 'redis down');
  });
});

describe('token handler: the service refuses the merchant (a wrong secret)', () => {
  test('500 "Payment service refused the shop", told to onError as an AuthenticationError naming the secret and merchant_id with the service\'s message', async () => {
    // The service signs its refusal with the real secret, which the client does not have.
    const refusing = await startService(async (_req, res) => answerSigned(res, 401, { success: false, message: 'Invalid signature' }));
    try {
      const errors: unknown[] = [];
      const handler = createTokenHandler({
        client: clientFor(refusing.url, { maxRetries: 0, secret: 'a-wrong-secret' }),
        store: new MemoryCallbackStore(),
        resolve: () => ({ ...TOKEN }) as TokenParams,
        onError: (e) => errors.push(e),
      });
      const response = await handler(new Request('http://m.test/t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
      assert.equal(response.status, 500);
      assert.deepEqual(await response.json(), { success: false, message: 'Payment service refused the shop' });
      const error = errors[0] as AuthenticationError;
      assert.ok(error instanceof AuthenticationError, String(error));
      assert.equal(error.code, 'authentication');
      assert.equal(error.serviceMessage, 'Invalid signature');
      assert.equal(error.verified, false);
      assert.match(error.message, /HTTP 401\): Invalid signature: check the PaymentClient's secret and merchantId/);
    } finally {
      await refusing.close();
    }
  });
});

describe('handlers in a Fetch runtime (no node adapter)', () => {
  test('a body over 64 KiB answers 413 from the handler itself, before resolve runs', async () => {
    let resolved = 0;
    const handler = createTokenHandler({ client: clientFor('http://127.0.0.1:9'), store: new MemoryCallbackStore(), resolve: () => (resolved++, null) });
    const big = JSON.stringify({ order_ref: 'x'.repeat(70 * 1024) });
    const response = await handler(new Request('http://m.test/t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }));
    assert.equal(response.status, 413);
    assert.equal(resolved, 0);
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
    });
    const endless = await handler(
      new Request('http://m.test/t', { method: 'POST', headers: { 'content-type': 'application/json' }, body: streamed, duplex: 'half' } as RequestInit),
    );
    assert.equal(endless.status, 413, 'an endless stream is cut off at the cap');
  });
});
