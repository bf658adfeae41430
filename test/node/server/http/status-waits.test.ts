// The status handler's waits (src/server/http/status-waits.ts): waits on one order share one entry and
// one watch of the store; one order holds at most maxWaitsPerOrder of them, so one client cannot take a
// process's waits from the other shoppers; and on RedisCallbackStore a message lost while the
// subscriber was away is made good by the store's reconcile (status-feed.ts). Real loopback servers,
// a real redis-server, and a TCP relay in front of it for the lost connection.
import http from 'node:http';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createCallbackHandler,
  createStatusHandler,
  MemoryCallbackStore,
  RedisCallbackStore,
  sign,
  toNodeHandler,
  type CallbackStore,
  type StatusHandlerOptions,
  type StatusStore,
} from '../../../../src/server/index.js';
import { connectedClient, startRedis } from '../../../support/redis/redis.js';
import { SECRET } from '../../../support/servers/service.js';
import { startServer } from '../../../support/servers/loopback.js';
import { until } from '../../../support/poll.js';
import { ask as terms } from '../../../support/contracts/attempt-contract.js';
import { setTimeout as sleep } from 'node:timers/promises';

const closers: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** One merchant server: the callback handler at /callback, the status handler at /status. */
async function shop(store: CallbackStore, status: Omit<StatusHandlerOptions, 'authorize'> & { store: StatusStore }): Promise<string> {
  const callback = toNodeHandler(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
  const statusHandler = toNodeHandler(createStatusHandler({ authorize: () => true, ...status }));
  const server = await startServer((req, res) => (req.url?.startsWith('/callback') ? callback(req, res) : statusHandler(req, res)));
  closers.push(() => server.close());
  return server.url;
}

const ask = (url: string, orderRef: string, signal?: AbortSignal) =>
  fetch(`${url}/status?order_ref=${encodeURIComponent(orderRef)}`, { signal }).then(async (response) => ({
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    text: await response.text(),
  }));

/** A paid callback for the order's attempt, started through the store as the token handler starts it
 *  (a callback for no attempt pay-form started pays nothing: docs/server.md, Extra payments). */
async function pay(url: string, store: CallbackStore, orderRef: string, invoice_id: string): Promise<void> {
  const start = await store.startAttempt(orderRef, terms(1500));
  const payload = { invoice_id, request_id: `${orderRef}~${start.state === 'paid' ? '' : start.attempt}`, status: 'success', amount: 1500, currency: 'USD' };
  const response = await fetch(`${url}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }),
  });
  assert.equal(response.status, 200, await response.text());
}

// node:http for the flood: on a busy machine fetch opens 1,200 connections far more slowly.
const floodAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
after(() => floodAgent.destroy());
const askRaw = (url: string, orderRef: string, signal: AbortSignal) =>
  new Promise<{ status: number }>((resolve, reject) => {
    http
      .get(`${url}/status?order_ref=${encodeURIComponent(orderRef)}`, { agent: floodAgent, signal }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      })
      .on('error', reject);
  });

/** Counts what the status handler asks of the store. */
function counted(store: CallbackStore) {
  const counts = { watches: 0, reads: 0 };
  const spied: StatusStore = {
    status: (order, attempt) => (counts.reads++, store.status(order, attempt)),
    watch: (order, listener) => (counts.watches++, store.watch!(order, listener)),
  };
  return { counts, spied };
}

describe('status waits', () => {
  test('waits on one order share one entry: one watch, one read at the news, every wait answered', async () => {
    const store = new MemoryCallbackStore();
    const { counts, spied } = counted(store);
    const url = await shop(store, { store: spied, waitMs: 20_000 });
    const waits = [1, 2, 3, 4].map(() => ask(url, 'order-shared'));
    // The first wait watches the order; the others join it (a slow machine takes a while to take all four).
    await until('the order is watched', async () => counts.watches >= 1);
    await sleep(300);
    const before = counts.reads;
    await pay(url, store, 'order-shared', 'inv-shared');
    const answers = await Promise.all(waits);
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200]);
    for (const a of answers) assert.deepEqual(JSON.parse(a.text), { status: 'success', invoice_id: 'inv-shared' });
    assert.equal(counts.reads - before, 1, 'the news is read once for the four waits');
    assert.equal(counts.watches, 1, 'one watch for the order');
  });

  test('one order holds at most maxWaitsPerOrder waits: the next gets 429 with Retry-After; a paid order is still answered', async () => {
    const store = new MemoryCallbackStore();
    const url = await shop(store, { store, waitMs: 20_000, maxWaitsPerOrder: 2 });
    const held = [ask(url, 'order-two'), ask(url, 'order-two')];
    await sleep(150);
    const refused = await ask(url, 'order-two');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.retryAfter) >= 5 && Number(refused.retryAfter) <= 10, `Retry-After ${refused.retryAfter}`);
    await pay(url, store, 'order-two', 'inv-two');
    assert.deepEqual((await Promise.all(held)).map((a) => a.status), [200, 200]);
    // With its places taken again, a status already recorded is answered, never refused.
    const again = [ask(url, 'order-two'), ask(url, 'order-two'), ask(url, 'order-two')];
    assert.deepEqual((await Promise.all(again)).map((a) => a.status), [200, 200, 200]);
  });

  test("one client's 1,200 waits for its own order, on the defaults: another order's shopper waits and is answered", async () => {
    const store = new MemoryCallbackStore();
    const url = await shop(store, { store, waitMs: 20_000 });
    const stop = new AbortController();
    let refused = 0;
    const flood = Array.from({ length: 1200 }, () =>
      askRaw(url, 'order-flood', stop.signal).then(
        (a) => (a.status === 429 && refused++, a.status),
        () => 0,
      ),
    );
    await until('the flood is refused but for its order\'s places', async () => refused >= 1196, 180_000);
    const shopper = ask(url, 'order-other');
    await sleep(100);
    await pay(url, store, 'order-other', 'inv-other');
    const answer = await shopper;
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.text), { status: 'success', invoice_id: 'inv-other' });
    stop.abort();
    const statuses = await Promise.all(flood);
    assert.equal(statuses.filter((s) => s === 429).length, 1196, "all but the order's 4 places refused");
    assert.equal(statuses.filter((s) => s === 0).length, 4, 'the 4 held until their client left');
  });
});

/** A signed callback of `status` for the order's attempt, at `url`. */
async function deliver(url: string, orderRef: string, attempt: string, invoice_id: string, status: 'success' | 'fail'): Promise<void> {
  const payload = { invoice_id, request_id: `${orderRef}~${attempt}`, status, amount: 1500, currency: 'USD' };
  const response = await fetch(`${url}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }),
  });
  assert.equal(response.status, 200, await response.text());
}

const askAttempt = (url: string, orderRef: string, attempt: string) =>
  fetch(`${url}/status?order_ref=${encodeURIComponent(orderRef)}&attempt=${attempt}`).then(async (r) => ({ status: r.status, body: await r.text() }));

/** Three waits on each of two orders' attempts at server B; a `fail` for one and a `success` for the
 *  other delivered at server A: every wait answered its own attempt's outcome, and B read nothing for it. */
async function newsAnswersWithoutReads(storeA: CallbackStore, storeB: CallbackStore, urlA: string): Promise<void> {
  const { counts, spied } = counted(storeB);
  const urlB = await shop(storeB, { store: spied, waitMs: 20_000 });
  const failed = await storeA.startAttempt('order-news-fail', terms(1500));
  const paid = await storeA.startAttempt('order-news-paid', terms(1500));
  assert.ok(failed.state === 'started' && paid.state === 'started');
  const waits = [failed, failed, failed, paid, paid, paid].map((start, i) => askAttempt(urlB, i < 3 ? 'order-news-fail' : 'order-news-paid', start.attempt));
  await until('both orders are watched and read once', async () => counts.watches >= 2 && counts.reads >= 2);
  await sleep(300);
  const before = counts.reads;
  await deliver(urlA, 'order-news-fail', failed.attempt, 'inv-news-fail', 'fail');
  await deliver(urlA, 'order-news-paid', paid.attempt, 'inv-news-paid', 'success');
  const answers = await Promise.all(waits);
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200, 200]);
  for (const a of answers.slice(0, 3)) assert.deepEqual(JSON.parse(a.body), { status: 'fail', invoice_id: 'inv-news-fail' });
  for (const a of answers.slice(3)) assert.deepEqual(JSON.parse(a.body), { status: 'success', invoice_id: 'inv-news-paid' });
  assert.equal(counts.reads - before, 0, 'the news carried the outcomes: no read');
}

test('an order whose wait was answered with its status is let go (its watch ended) while one read as nothing still lingers for its re-ask', async () => {
  const store = new MemoryCallbackStore();
  const unwatched: string[] = [];
  const spied: StatusStore = {
    status: (order, attempt) => store.status(order, attempt),
    watch: (order, listener) => {
      const unwatch = store.watch(order, listener);
      return () => (unwatched.push(order), unwatch());
    },
  };
  const url = await shop(store, { store: spied, waitMs: 300 });
  await pay(url, store, 'order-let-go', 'inv-let-go');
  // Read as nothing until its wait runs out: the entry remembers that, for the page's next ask.
  assert.equal((await ask(url, 'order-lingers')).status, 204);
  assert.equal((await ask(url, 'order-let-go')).status, 200);
  await until('the paid order is let go', async () => unwatched.includes('order-let-go'));
  assert.deepEqual(unwatched, ['order-let-go'], 'the order read as nothing still lingers');
});

describe('status waits: news with the outcome', () => {
  test('memory store: waits on an attempt are answered from the news, with no read', async () => {
    const store = new MemoryCallbackStore();
    await newsAnswersWithoutReads(store, store, await shop(store, { store }));
  });

  test('Redis, news published by another server: waits on an attempt are answered from the message, with no read', async () => {
    const redis = await startRedis();
    closers.push(() => redis.stop());
    const [clientA, clientB] = [await connectedClient(redis.url), await connectedClient(redis.url)];
    const storeA = new RedisCallbackStore(clientA, { prefix: 'news:' });
    const storeB = new RedisCallbackStore(clientB, { prefix: 'news:' });
    closers.push(async () => {
      await storeB.close();
      await storeA.close();
      clientB.destroy();
      clientA.destroy();
    });
    await newsAnswersWithoutReads(storeA, storeB, await shop(storeA, { store: storeA }));
  });
});

describe('status waits on Redis: the reconcile', () => {
  test('a message lost while the subscriber was away: the waiting request is answered once the subscription is back', async () => {
    const redis = await startRedis();
    closers.push(() => redis.stop());
    // Server B reaches Redis through a relay that can refuse new connections, as a network fault would.
    let open = true;
    const relay = net.createServer((socket) => {
      if (!open) return socket.destroy();
      const upstream = net.connect(redis.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => relay.close(resolve)));
    const relayUrl = `redis://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;

    const clientA = await connectedClient(redis.url, { disableOfflineQueue: true });
    const clientB = await connectedClient(relayUrl, { disableOfflineQueue: true, socket: { reconnectStrategy: 50 } });
    const storeA = new RedisCallbackStore(clientA, { prefix: 'lost:' });
    const storeB = new RedisCallbackStore(clientB, { prefix: 'lost:', onError: () => undefined });
    closers.push(async () => {
      await storeB.close();
      await storeA.close();
      clientB.destroy();
      clientA.destroy();
    });
    const serverA = await shop(storeA, { store: storeA });
    const serverB = await shop(storeB, { store: storeB, waitMs: 20_000 });

    const waiting = ask(serverB, 'order-lost');
    await sleep(300); // B's subscriber is up and heard its first ping
    open = false;
    const killer = await connectedClient(redis.url);
    closers.push(() => killer.destroy());
    await killer.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await pay(serverA, storeA, 'order-lost', 'inv-lost'); // published to nobody: B's subscriber is away
    await sleep(200);
    open = true; // B subscribes again; its ping is heard; every waiting order reads again
    const answer = await waiting;
    assert.equal(answer.status, 200, 'answered well before waitMs, not by the 204 at its end');
    assert.deepEqual(JSON.parse(answer.text), { status: 'success', invoice_id: 'inv-lost' });
  });
});
