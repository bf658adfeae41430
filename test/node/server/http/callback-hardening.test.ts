// A hung onStatus does not hold its callback forever, and unsigned bad input
// (a number JSON cannot sign, a body nested thousands deep) gets 400 or 401, never a throw or a 500,
// through toNodeHandler on a real loopback server and through the bare Fetch handler.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fuzzRuns } from '../../../support/fuzz.js';
import {
  ConfigError,
  createCallbackHandler,
  createTokenHandler,
  MemoryCallbackStore,
  OnStatusTimeoutError,
  PayFormError,
  PaymentClient,
  sign,
  toNodeHandler,
  type FetchHandler,
} from '../../../../src/server/index.js';
import { SECRET, startServer } from '../../../support/servers/service.js';

const servers: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(servers.map((s) => s.close())));

/** The same handler both ways: over loopback HTTP through toNodeHandler, and called bare. */
async function bothWays(handler: FetchHandler): Promise<(body: string) => Promise<number[]>> {
  const server = await startServer(toNodeHandler(handler));
  servers.push(server);
  return async (body) => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    const overHttp = await fetch(`${server.url}/callback`, { ...init, signal: AbortSignal.timeout(10_000) });
    await overHttp.arrayBuffer();
    const bare = await handler(new Request('http://merchant.test/callback', init));
    return [overHttp.status, bare.status];
  };
}

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('callback handler: unsigned bad input gets 400 or 401, never a throw', () => {
  test('a non-finite number (1e400): 401 both ways, and onError is told', async () => {
    const errors: unknown[] = [];
    const post = await bothWays(createCallbackHandler({ secret: SECRET, onStatus: () => undefined, onError: (e) => errors.push(e) }));
    const statuses = await post('{"invoice_id":"i","status":"success","amount":1e400,"signature":"00"}');
    assert.deepEqual(statuses, [401, 401]);
    assert.equal(errors.length, 2);
    assert.ok(errors.every((e) => e instanceof PayFormError && e.code === 'unsignable'));
  });

  test('an array 20,000 deep, or an object 10,000 deep: 400 (invalid JSON) both ways', async () => {
    const seen: unknown[] = [];
    const post = await bothWays(createCallbackHandler({ secret: SECRET, onStatus: (p) => void seen.push(p) }));
    assert.deepEqual(await post(`{"invoice_id":"i","status":"success","x":${deepArray(20_000)},"signature":"00"}`), [400, 400]);
    assert.deepEqual(await post(`{"invoice_id":"i","status":"success","x":${deepObject(10_000)},"signature":"00"}`), [400, 400]);
    assert.deepEqual(seen, []);
  });

  test('nesting up to 64 deep still verifies and is handed over; 65 deep is refused', async () => {
    const seen: unknown[] = [];
    const post = await bothWays(createCallbackHandler({ secret: SECRET, onStatus: (p) => void seen.push(p) }));
    // The body itself is one level: 63 more inside `x` reach 64.
    const ok = { invoice_id: 'deep', status: 'success', x: JSON.parse(deepArray(63)) as unknown };
    assert.deepEqual(await post(JSON.stringify({ ...ok, signature: await sign(ok, SECRET) })), [200, 200]);
    const tooDeep = { invoice_id: 'deeper', status: 'success', x: JSON.parse(deepArray(64)) as unknown };
    assert.deepEqual(await post(JSON.stringify({ ...tooDeep, signature: await sign(tooDeep, SECRET) })), [400, 400]);
    assert.equal(seen.length, 1);
  });

  test('brackets inside strings do not count as nesting', async () => {
    const post = await bothWays(createCallbackHandler({ secret: SECRET, onStatus: () => undefined }));
    const payload = { invoice_id: '[[[[', status: `${'{'.repeat(100)}\\"[`, note: deepArray(500) };
    assert.deepEqual(await post(JSON.stringify({ ...payload, signature: await sign(payload, SECRET) })), [200, 200]);
  });

  test('a verifier that throws: 401, and onError is told', async () => {
    const errors: unknown[] = [];
    const post = await bothWays(
      createCallbackHandler({ verifier: () => { throw new Error('verifier broke'); }, onStatus: () => undefined, onError: (e) => errors.push(e) }),
    );
    assert.deepEqual(await post('{"invoice_id":"i","status":"success","signature":"00"}'), [401, 401]);
    assert.equal(errors.length, 2);
  });

  test('the token handler: a body 20,000 deep is 400, both ways', async () => {
    const client = new PaymentClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', secret: SECRET });
    const post = await bothWays(createTokenHandler({ client, store: new MemoryCallbackStore(), resolve: () => null }));
    assert.deepEqual(await post(`{"order_ref":"o","x":${deepArray(20_000)}}`), [400, 400]);
  });
});

test('property: any unsigned body (JSON of any shape, numbers out of range, deep nesting, bytes) gets 400 or 401 from the bare handler, never a throw', async () => {
  const errors: unknown[] = [];
  const handler = createCallbackHandler({ secret: SECRET, onStatus: () => assert.fail('no unsigned body is handed over'), onError: (e) => errors.push(e) });
  const nasty = fc.oneof(
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify({ invoice_id: 'i', status: 'success', v, signature: '00' })),
    fc.constantFrom('1e400', '-1e400', '1e-400', '[[[[[[]]]]]]').map((n) => `{"invoice_id":"i","status":"success","amount":${n},"signature":"00"}`),
    fc.integer({ min: 60, max: 3000 }).map((d) => `{"invoice_id":"i","status":"success","x":${'['.repeat(d)}${']'.repeat(d)},"signature":"00"}`),
    fc.string(),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  );
  await fc.assert(
    fc.asyncProperty(nasty, async (body) => {
      const answer = await handler(new Request('http://merchant.test/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
      assert.ok(answer.status === 400 || answer.status === 401, `${answer.status} for ${body.slice(0, 80)}`);
    }),
    { numRuns: fuzzRuns() },
  );
});

describe('callback handler: what onStatus returns', () => {
  test('a thenable is awaited like a promise: rejected is 500 and the next delivery calls again; fulfilled is 200; a throw is 500', async () => {
    const outcomes = ['reject', 'fulfil', 'throw', 'fulfil'];
    const seen: string[] = [];
    const handler = createCallbackHandler({
      secret: SECRET,
      onError: () => undefined,
      onStatus: (p) => {
        const outcome = outcomes[seen.length]!;
        seen.push(`${p.invoice_id}:${outcome}`);
        if (outcome === 'throw') throw new Error('merchant bug');
        // Not a Promise: an object with then(), as some libraries return.
        return { then: (ok: () => void, fail: (e: Error) => void) => setTimeout(() => (outcome === 'reject' ? fail(new Error('later')) : ok()), 5) } as never;
      },
    });
    const post = async (invoice: string) => {
      const payload = { invoice_id: invoice, status: 'success' };
      const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
      return (await handler(new Request('http://merchant.test/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))).status;
    };
    assert.deepEqual([await post('a'), await post('a'), await post('b'), await post('b'), await post('b')], [500, 200, 500, 200, 200]);
    assert.deepEqual(seen, ['a:reject', 'a:fulfil', 'b:throw', 'b:fulfil']);
  });
});

describe('callback handler: a hung onStatus', () => {
  test('past onStatusTimeoutMs the delivery is answered 503 and the next delivery calls onStatus again', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const store = new MemoryCallbackStore();
    const post = await bothWays(
      createCallbackHandler({
        secret: SECRET,
        store,
        onStatusTimeoutMs: 100,
        // The first call never settles; the later ones succeed.
        onStatus: () => (++calls === 1 ? new Promise<void>(() => undefined) : undefined),
        onError: (e) => errors.push(e),
      }),
    );
    // The order's attempt, as its token request started it: only its success pays the order.
    await store.startAttempt('order-hung', { attempt: 'hung00000001', amount: '1500', currency: 'USD', lifetimeMs: 60_000, obtainMs: 5_000 });
    const payload = { invoice_id: 'hung', request_id: 'order-hung~hung00000001', status: 'success', amount: 1500, currency: 'USD' };
    const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
    // Over HTTP the first call hangs and times out (503); the bare call is the service's redelivery.
    assert.deepEqual(await post(body), [503, 200]);
    assert.equal(calls, 2);
    assert.ok(errors[0] instanceof OnStatusTimeoutError);
    assert.deepEqual(await store.status('order-hung'), { status: 'success', invoice_id: 'hung' });
    assert.deepEqual(await post(body), [200, 200], 'repeats are quiet');
    assert.equal(calls, 2);
  });

  test("onStatusTimeoutMs must be shorter than the store's lease", () => {
    const store = new MemoryCallbackStore({ leaseMs: 1000 });
    assert.throws(() => createCallbackHandler({ secret: SECRET, store, onStatusTimeoutMs: 1000, onStatus: () => undefined }), ConfigError);
    assert.throws(() => createCallbackHandler({ secret: SECRET, onStatusTimeoutMs: Number.NaN, onStatus: () => undefined }), ConfigError);
  });

  test('an onStatusTimeoutMs longer than a timer can run is refused, not left to fire after 1 ms', () => {
    const store = new MemoryCallbackStore({ leaseMs: 2 ** 40 });
    const make = (ms: number) => createCallbackHandler({ secret: SECRET, store, onStatusTimeoutMs: ms, onStatus: () => undefined });
    assert.throws(
      () => make(2 ** 31),
      (error: unknown) => error instanceof ConfigError && error.message.startsWith('Invalid createCallbackHandler options: onStatusTimeoutMs: must be'),
    );
    assert.equal(typeof make(2 ** 31 - 1), 'function');
  });
});

describe('MemoryCallbackStore: in-flight claims have a lease', () => {
  test('a claim older than leaseMs is taken again, and its waiter hears released', async () => {
    const store = new MemoryCallbackStore({ leaseMs: 30 });
    const k = { invoice_id: 'k', status: 'success', order_ref: '', attempt: '' };
    assert.equal(await store.claim(k), 'claimed');
    assert.equal(await store.claim(k), 'in-flight');
    const waiter = store.waitForClaim(k);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(await store.claim(k), 'claimed');
    assert.equal(await waiter, 'released');
    await store.finish(k);
    assert.equal(await store.claim(k), 'finished');
  });
});

test('a finish the store refuses for longer than the retry pauses (a failover) is tried again until it is taken, within the lease', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const memory = new MemoryCallbackStore({ leaseMs: 60_000 });
  // The fault no real part shows on demand for 20 s without a 20 s test: a store refusing every finish.
  let refusing = true;
  const store = {
    leaseMs: memory.leaseMs,
    claim: memory.claim.bind(memory),
    release: memory.release.bind(memory),
    judge: memory.judge.bind(memory),
    finish: (callback: Parameters<MemoryCallbackStore['finish']>[0]) => (refusing ? Promise.reject(new Error('failover under way')) : memory.finish(callback)),
  };
  let calls = 0;
  const handler = createCallbackHandler({ secret: SECRET, store, onStatus: () => void calls++ });
  const payload = { invoice_id: 'inv-long', request_id: 'order-long', status: 'success' };
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }) };
  assert.equal((await handler(new Request('http://merchant.test/callback', init))).status, 503);
  const pass = async (ms: number) => {
    for (let left = ms; left > 0; left -= 250) {
      t.mock.timers.tick(250);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await pass(20_000);
  refusing = false;
  await pass(10_000);
  const record = { order_ref: 'order-long', attempt: '', invoice_id: 'inv-long', status: 'success' };
  assert.equal(await memory.claim(record), 'finished', 'recorded once the store took it');
  assert.equal((await handler(new Request('http://merchant.test/callback', init))).status, 200);
  assert.equal(calls, 1);
});
