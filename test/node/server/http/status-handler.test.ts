// createStatusHandler: the verified status of one order, only to the browser authorize lets see it,
// with a bounded long poll that hears of a callback taken by another server (Redis pub/sub, or the
// re-read when that news is missed). Real loopback servers and a real redis-server.
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  MemoryCallbackStore,
  PaymentClient,
  RedisCallbackStore,
  sign,
  toNodeHandler,
  type AttemptStore,
  type FetchHandler,
  type StatusHandlerOptions,
  type StatusStore,
} from '../../../../src/server/index.js';
import { nativeLogic, type Answer, type Incoming } from '../../../../src/server/http/handler-logic.js';
import { connectedClient, startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { SECRET, startServer } from '../../../support/servers/service.js';

const closers: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function serve(handler: FetchHandler): Promise<string> {
  const server = await startServer(toNodeHandler(handler));
  closers.push(() => server.close());
  return server.url;
}

async function ask(url: string, orderRef: string | undefined, init: RequestInit = {}, attempt?: string) {
  const query = (orderRef === undefined ? '' : `?order_ref=${encodeURIComponent(orderRef)}`) + (attempt === undefined ? '' : `&attempt=${attempt}`);
  const response = await fetch(`${url}/status${query}`, { headers: { accept: 'application/json' }, ...init });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
}

const callbackBody = async (invoice_id: string, request_id: string, status = 'success') => {
  const payload = { invoice_id, request_id, status, amount: 1500, currency: 'USD' };
  return JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
};

/** Starts the order's attempt as its token request would, at what callbackBody pays: the request_id its callbacks carry. */
async function attemptOf(store: AttemptStore, order: string): Promise<string> {
  const attempt = Math.random().toString(36).slice(2, 14).padEnd(12, '0');
  const start = await store.startAttempt(order, { attempt, amount: '1500', currency: 'USD', lifetimeMs: 60_000, obtainMs: 5_000 });
  assert.equal(start.state, 'started');
  return `${order}~${attempt}`;
}

async function postCallback(url: string, body: string): Promise<number> {
  const response = await fetch(`${url}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await response.arrayBuffer();
  return response.status;
}

/** Orders tied to a shopper's cookie, as the demo does. */
const OWNERS: Record<string, string> = { 'order-alice': 'shopper=alice', 'order-bob': 'shopper=bob' };
const byCookie: StatusHandlerOptions['authorize'] = (request, orderRef) => OWNERS[orderRef] === request.headers.get('cookie');

describe('status handler: answers', () => {
  test("authorize refusing: another shopper's order is never answered (404), even once it is paid", async () => {
    const store = new MemoryCallbackStore();
    const status = await serve(createStatusHandler({ store, authorize: byCookie, waitMs: 50 }));
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    assert.equal(await postCallback(callbacks, await callbackBody('inv-a', await attemptOf(store, 'order-alice'))), 200);

    const asBob = await ask(status, 'order-alice', { headers: { cookie: 'shopper=bob' } });
    assert.equal(asBob.status, 404);
    assert.deepEqual(asBob.body, { success: false, message: 'Order not found' });
    assert.deepEqual((await ask(status, 'order-alice')).body, { success: false, message: 'Order not found' }, 'no cookie');
    assert.equal((await ask(status, 'order-unknown', { headers: { cookie: 'shopper=bob' } })).status, 404);
    const asAlice = await ask(status, 'order-alice', { headers: { cookie: 'shopper=alice' } });
    assert.equal(asAlice.status, 200);
    assert.deepEqual(asAlice.body, { status: 'success', invoice_id: 'inv-a' });
    assert.equal(asAlice.headers.get('cache-control'), 'no-store');
  });

  test('no order_ref: 404; not GET or HEAD: 405; HEAD answers at once', async () => {
    const status = await serve(createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true, waitMs: 10_000 }));
    assert.equal((await ask(status, undefined)).status, 404);
    assert.equal((await ask(status, '')).status, 404);
    assert.equal((await ask(status, 'o', { method: 'POST' })).status, 405);
    assert.equal((await ask(status, 'o', { method: 'HEAD' })).status, 204);
  });

  test('TRACE and every other method a handler does not take: 405 with Allow, from each of pay-form\'s handlers', async (t) => {
    const handlers: Array<[FetchHandler, string]> = [
      [createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true }), 'GET, HEAD'],
      [createCallbackHandler({ secret: SECRET, onStatus: () => undefined }), 'POST'],
      [createTokenHandler({ client: new PaymentClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', secret: SECRET }), store: new MemoryCallbackStore(), resolve: () => null }), 'POST'],
    ];
    // fetch() refuses TRACE itself: node:http sends it as a scanner would.
    const send = (url: string, method: string) =>
      new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
        const request = http.request(`${url}/status?order_ref=o`, { method }, (response) => {
          response.resume();
          response.once('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }));
        });
        request.once('error', reject);
        request.end();
      });
    const methods = ['TRACE', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'PROPFIND'];
    let answers = 0;
    for (const [handler, allow] of handlers) {
      const url = await serve(handler);
      for (const method of methods) {
        if (allow.includes(method)) continue;
        assert.deepEqual(await send(url, method), { status: 405, allow }, `${method} ${allow}`);
        answers++;
      }
    }
    t.diagnostic(`${answers} requests with ${methods.length} unsupported methods to the 3 handlers: all 405 with Allow, none 500`);
  });

  test('order_ref variants (NUL, case, spaces) through a lookup that folds them: the found order\'s request_id reads that order only', async (t) => {
    // docs/server.md's authorize: the shop's lookup folds case, spaces and NUL (as an SQL collation
    // may); the store keeps request_ids exactly, and holds another order under 'ORD-1'.
    const store = new MemoryCallbackStore();
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    assert.equal(await postCallback(callbacks, await callbackBody('inv-alice', await attemptOf(store, 'ord-1'))), 200);
    assert.equal(await postCallback(callbacks, await callbackBody('inv-other', await attemptOf(store, 'ORD-1'))), 200);
    const shopOrders = new Map([['ord-1', { requestId: 'ord-1', ownerId: 'alice' }]]);
    const find = (orderRef: string) => shopOrders.get(orderRef.replace(/\0/g, '').trim().toLowerCase());
    const mine = (request: Request, orderRef: string) => find(orderRef)?.ownerId === request.headers.get('cookie');
    const canonical = await serve(createStatusHandler({ store, waitMs: 0, authorize: (request, orderRef) => (mine(request, orderRef) ? find(orderRef)!.requestId : null) }));
    const asIs = await serve(createStatusHandler({ store, waitMs: 0, authorize: mine }));
    const variants = ['ord-1', 'ORD-1', 'Ord-1', ' ord-1', 'ord-1 ', 'ord-1\0', '\0ORD-1'];
    for (const variant of variants) {
      const answer = await ask(canonical, variant, { headers: { cookie: 'alice' } });
      assert.deepEqual(answer.body, { status: 'success', invoice_id: 'inv-alice' }, JSON.stringify(variant));
    }
    // What `true` would do: the store read by the browser's string, here another order's status.
    assert.deepEqual((await ask(asIs, 'ORD-1', { headers: { cookie: 'alice' } })).body, { status: 'success', invoice_id: 'inv-other' });
    t.diagnostic(`${variants.length} order_ref variants with the found order's request_id: all read that order, none another's (with true, 'ORD-1' read another order)`);
  });

  test('authorize answering a request_id: that order is looked up; authorize throwing: 503', async () => {
    const store = new MemoryCallbackStore();
    const attempt = (await attemptOf(store, 'internal-7')).slice(-12);
    await store.finish({ order_ref: 'internal-7', attempt, status: 'fail', invoice_id: 'inv-7', verdict: { verdict: 'attempt' } });
    const errors: unknown[] = [];
    const status = await serve(
      createStatusHandler({
        store,
        waitMs: 10,
        authorize: (_r, orderRef) => {
          if (orderRef === 'boom') throw new Error('sessions unavailable');
          return orderRef === 'public-7' ? 'internal-7' : null;
        },
        onError: (e) => errors.push(e),
      }),
    );
    assert.deepEqual((await ask(status, 'public-7')).body, { status: 'fail', invoice_id: 'inv-7' });
    assert.equal((await ask(status, 'internal-7')).status, 404);
    const failed = await ask(status, 'boom');
    assert.equal(failed.status, 503);
    assert.ok(failed.headers.get('retry-after'));
    assert.equal(errors.length, 1);
  });

  test('no verified status within waitMs: 204 with no body; a callback during the wait: 200 at once', async () => {
    const store = new MemoryCallbackStore();
    const status = await serve(createStatusHandler({ store, authorize: () => true, waitMs: 100 }));
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    const empty = await ask(status, 'order-wait');
    assert.equal(empty.status, 204);
    assert.equal(empty.body, undefined);

    const slow = await serve(createStatusHandler({ store, authorize: () => true, waitMs: 20_000 }));
    const waiting = ask(slow, 'order-wait');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await postCallback(callbacks, await callbackBody('inv-w', await attemptOf(store, 'order-wait'))), 200);
    assert.deepEqual((await waiting).body, { status: 'success', invoice_id: 'inv-w' });
  });

  test('a waiting request is answered whoever reads its answer and whenever: node:http, the Fetch path, an async authorize, a reader that comes after the wait ended', { timeout: 15_000 }, async () => {
    // A wait is its own thenable (status-handler.ts, Waiting), not a promise: each way a handler's
    // answer is read must still get it once, whether it is read before the wait ends or after.
    const store = new MemoryCallbackStore();
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    const asyncAuthorize = createStatusHandler({ store, authorize: async () => (await new Promise((resolve) => setTimeout(resolve, 5)), true), waitMs: 20_000 });
    const handler = createStatusHandler({ store, authorize: () => true, waitMs: 20_000 });
    const url = await serve(handler);
    // Answered at once: by then the handler's first requests no longer wait for the telemetry API to
    // load, so the logic below hands back its wait itself.
    assert.equal((await ask(url, 'order-readers', { method: 'HEAD' })).status, 204);
    const nodePath = ask(url, 'order-readers');
    const fetchPath = handler(new Request('http://shop/status?order_ref=order-readers'));
    const viaAsync = ask(await serve(asyncAuthorize), 'order-readers');
    const logic = nativeLogic(handler)!;
    const incoming: Incoming = {
      method: 'GET',
      header: () => null,
      bytes: async () => new Uint8Array(),
      url: () => new URL('http://shop/status?order_ref=order-readers'),
      request: () => new Request('http://shop/status?order_ref=order-readers'),
      left: () => false,
    };
    const late = logic(incoming);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await postCallback(callbacks, await callbackBody('inv-r', await attemptOf(store, 'order-readers'))), 200);
    const paid = { status: 'success', invoice_id: 'inv-r' };
    assert.deepEqual((await nodePath).body, paid, 'node:http');
    const fetched = await fetchPath;
    assert.deepEqual([fetched.status, await fetched.json()], [200, paid], 'the Fetch path');
    assert.deepEqual((await viaAsync).body, paid, 'an async authorize');
    // Read only now, long after its wait ended: the answer was kept for it, and given once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const told: Answer[] = [];
    await new Promise<void>((resolve, reject) => late.then((answer) => (told.push(answer), resolve()), reject));
    assert.deepEqual(told.map((answer) => [answer.status, JSON.parse(answer.text ?? 'null')]), [[200, paid]], 'a reader after the end');
  });

  test('attempts: each attempt is answered its own outcome, a paid order its payment; a malformed attempt: 404', async () => {
    const store = new MemoryCallbackStore();
    const status = await serve(createStatusHandler({ store, authorize: () => true, waitMs: 30 }));
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    const first = (await attemptOf(store, 'order-att')).slice(-12);
    assert.equal(await postCallback(callbacks, await callbackBody('inv-declined', `order-att~${first}`, 'fail')), 200);
    const second = (await attemptOf(store, 'order-att')).slice(-12);
    assert.deepEqual((await ask(status, 'order-att', {}, first)).body, { status: 'fail', invoice_id: 'inv-declined' });
    assert.equal((await ask(status, 'order-att', {}, second)).status, 204, 'the second attempt has no outcome: the decline is not its answer');
    assert.equal((await ask(status, 'order-att')).status, 204, 'without attempt: the current one, the second');
    assert.equal(await postCallback(callbacks, await callbackBody('inv-paid', `order-att~${second}`)), 200);
    for (const attempt of [first, second, undefined]) {
      assert.deepEqual((await ask(status, 'order-att', {}, attempt)).body, { status: 'success', invoice_id: 'inv-paid' }, `attempt ${attempt}`);
    }
    for (const bad of ['', 'short', 'AAAAAAAAAAA1', 'aaaaaaaaaaa1x']) assert.equal((await ask(status, 'order-att', {}, bad)).status, 404, bad);
  });

  test('maxWaiters bounds the waiting requests (503), and a client that goes away frees its place', async () => {
    const status = await serve(createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true, waitMs: 20_000, maxWaiters: 1 }));
    const gone = new AbortController();
    const first = fetch(`${status}/status?order_ref=a`, { signal: gone.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await ask(status, 'b');
    assert.equal(refused.status, 503);
    // A full process spreads its refused pages over 5 to 10 s.
    assert.ok(['5', '6', '7', '8', '9', '10'].includes(refused.headers.get('retry-after') ?? ''), `Retry-After ${refused.headers.get('retry-after')}`);
    gone.abort();
    assert.equal(await first, 'aborted');
    // Its place is free again: this one waits (and is ended by its own abort) instead of 503.
    const next = fetch(`${status}/status?order_ref=c`, { signal: AbortSignal.timeout(300) }).then((r) => r.status, () => 'waited');
    assert.equal(await next, 'waited');
  });

  test('the observer hears how each wait ended: answered, timed_out, and abandoned when the client goes away, under node:http and on the Fetch path', async () => {
    const store = new MemoryCallbackStore();
    const heard: string[] = [];
    const observer: StatusHandlerOptions['observer'] = (event) => {
      if (event.type === 'status') heard.push(`${event.orderRef} ${event.outcome}${event.waitedMs === undefined ? '' : ' after waiting'}`);
    };
    const handler = createStatusHandler({ store, authorize: () => true, waitMs: 20_000, observer });
    const status = await serve(handler);
    const short = await serve(createStatusHandler({ store, authorize: () => true, waitMs: 100, observer }));
    const callbacks = await serve(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
    const until = async (line: string) => {
      for (let i = 0; i < 100 && !heard.includes(line); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(heard.includes(line), `heard ${JSON.stringify(heard)}, not ${line}`);
    };

    assert.equal((await ask(short, 'order-timed')).status, 204);
    await until('order-timed timed_out after waiting');

    const paid = ask(status, 'order-paid');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await postCallback(callbacks, await callbackBody('inv-o', await attemptOf(store, 'order-paid'))), 200);
    assert.equal((await paid).status, 200);
    await until('order-paid answered after waiting');

    const gone = new AbortController();
    const leaving = fetch(`${status}/status?order_ref=order-left`, { signal: gone.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.abort();
    assert.equal(await leaving, 'aborted');
    await until('order-left abandoned after waiting');

    const fetchGone = new AbortController();
    const fetchPath = handler(new Request('http://shop/status?order_ref=order-left-fetch', { signal: fetchGone.signal }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    fetchGone.abort();
    assert.equal((await fetchPath).status, 204);
    await until('order-left-fetch abandoned after waiting');
    assert.ok(!heard.some((line) => line.includes('failed')), JSON.stringify(heard));
  });

  test('a waiting request keeps no Request: the one authorize was given is collected while the wait goes on', async () => {
    // A wait costs its socket and a small record (docs/performance.md, Open checkouts): the Request made
    // for authorize, its URL and the adapter's view of the request must not live as long as the wait.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const seen: Array<WeakRef<Request>> = [];
    const status = await serve(createStatusHandler({
      store: new MemoryCallbackStore(),
      authorize: (request) => (seen.push(new WeakRef(request)), true),
      waitMs: 20_000,
    }));
    const gone = new AbortController();
    const waiting = fetch(`${status}/status?order_ref=held`, { signal: gone.signal }).catch(() => 'aborted');
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(seen.length, 1, 'authorize was asked');
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      gc();
    }
    assert.equal(seen[0]!.deref(), undefined, "authorize's Request is still held by the waiting request");
    gone.abort();
    assert.equal(await waiting, 'aborted');
  });

  test('options are checked', () => {
    assert.throws(() => createStatusHandler({ store: {} as StatusStore, authorize: () => true }), ConfigError);
    assert.throws(() => createStatusHandler({ store: new MemoryCallbackStore(), authorize: undefined as never }), ConfigError);
    assert.throws(() => createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true, maxWaiters: -1 }), ConfigError);
    // Past 2^31 - 1 ms a timer fires after 1 ms: such a wait would answer 204 at once, in a loop.
    assert.throws(() => createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true, waitMs: 2 ** 31 }), ConfigError);
    assert.equal(typeof createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => true, waitMs: 2 ** 31 - 1 }), 'function');
  });
});

describe('status handler across servers on one Redis', () => {
  let redis: RedisServer;
  before(async () => {
    redis = await startRedis();
    closers.push(() => redis.stop());
  });

  async function redisStore(prefix: string): Promise<RedisCallbackStore> {
    const client = await connectedClient(redis.url, { disableOfflineQueue: true });
    const store = new RedisCallbackStore(client, { prefix });
    closers.push(async () => {
      await store.close();
      client.destroy();
    });
    return store;
  }

  test('waiting on server B, the callback reaching server A: B answers the verified status, told by pub/sub', async () => {
    const storeA = await redisStore('ab:');
    const storeB = await redisStore('ab:');
    let told = 0;
    // The status handler takes only what it reads: status, and watch.
    const spied: StatusStore = {
      status: (order, attempt) => storeB.status(order, attempt),
      watch: (order, listener) => storeB.watch(order, () => { told++; listener(); }),
    };
    const serverA = await serve(createCallbackHandler({ secret: SECRET, store: storeA, onStatus: () => undefined }));
    const serverB = await serve(createStatusHandler({ store: spied, authorize: () => true, waitMs: 20_000 }));
    // Let B's subscriber connect before the callback (else only the re-read would carry the news).
    const warm = storeB.watch('warm-up', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waiting = ask(serverB, 'order-ab');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await postCallback(serverA, await callbackBody('inv-ab', await attemptOf(storeA, 'order-ab'))), 200);
    const answer = await waiting;
    warm();
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 'success', invoice_id: 'inv-ab' });
    assert.equal(told, 1, 'the news came through Redis pub/sub');
  });

  test('a store without watch: each waiting order is read every second, and the wait still answers', async () => {
    const storeA = await redisStore('missed:');
    const storeB = await redisStore('missed:');
    // B hears nothing: a store without watch(), as if every message were lost.
    const deaf: StatusStore = { status: (order, attempt) => storeB.status(order, attempt) };
    const serverA = await serve(createCallbackHandler({ secret: SECRET, store: storeA, onStatus: () => undefined }));
    const serverB = await serve(createStatusHandler({ store: deaf, authorize: () => true, waitMs: 20_000 }));
    const waiting = ask(serverB, 'order-missed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await postCallback(serverA, await callbackBody('inv-m', await attemptOf(storeA, 'order-missed'))), 200);
    assert.deepEqual((await waiting).body, { status: 'success', invoice_id: 'inv-m' });
  });

  test('Redis unreachable: the status handler answers 503 with Retry-After', async () => {
    const own = await startRedis();
    const client = await connectedClient(own.url, { disableOfflineQueue: true, socket: { reconnectStrategy: 50 } });
    const store = new RedisCallbackStore(client);
    // The store's subscriber (made at the first wait) reconnects while Redis is down: closed with the client.
    closers.push(async () => {
      await store.close();
      client.destroy();
    });
    await own.stop();
    const status = await serve(createStatusHandler({ store, authorize: () => true }));
    const answer = await ask(status, 'order-x');
    assert.equal(answer.status, 503);
    assert.ok(['1', '2', '3'].includes(answer.headers.get('retry-after') ?? ''), `Retry-After ${answer.headers.get('retry-after')}`);
  });
});
