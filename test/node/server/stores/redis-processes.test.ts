// RedisCallbackStore across real processes on one real redis-server: three merchant servers share the
// callbacks, a server killed inside onStatus hands its callback on after the lease, and a Redis that
// stops means 503 (never 200 without a stored outcome) until it is back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RedisCallbackStore, type OrderStatus } from '../../../../src/server/index.js';
import { connectedClient, startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { ask } from '../../../support/contracts/attempt-contract.js';
import { callsOf, deliver, deliverOnce, signedBody, startWorker, waitUntilRefused, type Callback, type Worker } from '../../../support/servers/callback-workers.js';

let redis: RedisServer;
const workers: Worker[] = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await redis.stop();
});

async function workersOn(prefix: string, n: number, env: Record<string, string> = {}): Promise<Worker[]> {
  const started = await Promise.all(Array.from({ length: n }, () => startWorker({ REDIS_URL: redis.url, PREFIX: prefix, ...env })));
  workers.push(...started);
  return started;
}

/** Every order's one attempt (docs/service-contract.md, Attempts): a callback for no attempt started settles no order. */
const ATTEMPT = 'a00000000001';
const attemptOf = (order: string) => `${order}~${ATTEMPT}`;
const orderOf = (requestId: string) => requestId.slice(0, -ATTEMPT.length - 1);

/** Starts each order's attempt at 1500 USD (what signedBody pays), as its token request would. */
async function startAttempts(prefix: string, requestIds: string[]): Promise<void> {
  const client = await connectedClient(redis.url);
  try {
    const store = new RedisCallbackStore(client, { prefix });
    await Promise.all([...new Set(requestIds)].map((id) => store.startAttempt(orderOf(id), { ...ask(1500), attempt: ATTEMPT })));
  } finally {
    client.destroy();
  }
}

/** The verified statuses the store holds, read from Redis by another client of the store. */
async function storedStatuses(prefix: string, ids: string[]): Promise<Array<OrderStatus | undefined>> {
  const client = await connectedClient(redis.url);
  try {
    const store = new RedisCallbackStore(client, { prefix });
    return await Promise.all(ids.map((id) => store.status(orderOf(id))));
  } finally {
    client.destroy();
  }
}

const shuffle = <T>(items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
};

const random = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;

describe('RedisCallbackStore across processes', () => {
  test('three servers, 1,000 concurrent deliveries (500 callbacks, each twice, at random): exactly 500 onStatus calls, none lost', async () => {
    const servers = await workersOn('spread:', 3);
    const callbacks: Callback[] = Array.from({ length: 500 }, (_, i) => ({
      invoice_id: `inv-${i % 250}`,
      request_id: attemptOf(`order-${i % 250}`),
      status: i < 250 ? 'success' : 'fail',
    }));
    await startAttempts('spread:', callbacks.map((c) => c.request_id));
    const bodies = await Promise.all(callbacks.map(signedBody));
    const deliveries = shuffle([...bodies, ...bodies]);
    const answers = await Promise.all(deliveries.map((body) => deliver(() => random(servers).url, body)));

    const unfinished = answers.filter((seen) => seen.at(-1) !== 200);
    assert.deepEqual(unfinished.map((seen) => [...new Set(seen)]), [], 'every delivery ends in 200');
    // 0 is a delivery that got no answer (1,000 connections at once on a starved machine can time out
    // connecting): the service delivers again, as after a 503. Any other status is a fault.
    assert.deepEqual(answers.flat().filter((s) => s !== 200 && s !== 503 && s !== 0), [], 'a concurrent repeat is 503 or no answer, nothing else fails');
    const perServer = await Promise.all(servers.map((w) => w.calls()));
    const calls = perServer.flat();
    console.log(`# onStatus calls per server: ${perServer.map((c) => c.length).join(', ')}; 503 answers: ${answers.flat().filter((s) => s === 503).length}; no answer: ${answers.flat().filter((s) => s === 0).length}`);
    assert.equal(calls.length, 500);
    assert.equal(new Set(calls).size, 500);
    // The last status per order is recorded (success or fail, whichever completed last): none is missing.
    const stored = await storedStatuses('spread:', callbacks.slice(0, 250).map((c) => c.request_id));
    assert.ok(stored.every((s) => s !== undefined));
  });

  test('a server killed (SIGKILL) inside onStatus: after the lease the next delivery calls onStatus, recorded once', async () => {
    const [dying] = await workersOn('kill:', 1, { HANG_FIRST: '1', LEASE_MS: '3000', TIMEOUT_MS: '2000' });
    const [survivor] = await workersOn('kill:', 1, { LEASE_MS: '3000', TIMEOUT_MS: '2000' });
    const callback = { invoice_id: 'inv-killed', request_id: attemptOf('order-killed'), status: 'success' };
    await startAttempts('kill:', [callback.request_id]);
    const body = await signedBody(callback);

    const inside = dying!.nextCall();
    const first = deliverOnce(dying!.url, body);
    await inside;
    await dying!.kill('SIGKILL');
    assert.equal(await first, 0, 'the dying server never answered');

    // The claim is still held: the survivor says 503 until the lease runs out, then handles it.
    assert.equal(await deliverOnce(survivor!.url, body), 503);
    const seen = await deliver(() => survivor!.url, body, { pauseMs: 200 });
    assert.equal(seen.at(-1), 200);
    assert.deepEqual(await survivor!.calls(), [JSON.stringify(['inv-killed', 'success'])]);
    assert.equal(await deliverOnce(survivor!.url, body), 200);
    assert.equal((await survivor!.calls()).length, 1, 'recorded once: a repeat does not call again');
    assert.deepEqual(await storedStatuses('kill:', [callback.request_id]), [{ status: 'success', invoice_id: 'inv-killed' }]);
  });

  test('Redis stopped: 503 and no onStatus call; after it is back the redeliveries complete every callback', async () => {
    const servers = await workersOn('down:', 2);
    const pick = () => random(servers).url;
    const before = await Promise.all(
      Array.from({ length: 50 }, (_, i) => signedBody({ invoice_id: `inv-b${i}`, request_id: `order-b${i}`, status: 'success' })),
    );
    assert.ok((await Promise.all(before.map((body) => deliver(pick, body)))).every((seen) => seen.at(-1) === 200));

    const held: Callback[] = Array.from({ length: 100 }, (_, i) => ({ invoice_id: `inv-d${i}`, request_id: attemptOf(`order-d${i}`), status: 'success' }));
    const bodies = await Promise.all(held.map(signedBody));
    const callsBefore = (await callsOf(servers)).length;
    // Down for 3 s, then started again on the same port, empty.
    const back = redis.restart(3000);
    await waitUntilRefused(redis.port);
    const whileDown = await Promise.all(bodies.map((body) => deliverOnce(pick(), body)));
    assert.deepEqual(new Set(whileDown), new Set([503]), 'every delivery while Redis is down is 503');
    assert.equal((await callsOf(servers)).length, callsBefore, 'no onStatus call without a claim');

    await back;
    // Redis came back empty: the orders' attempts are started again (a lost attempt's callback is foreign, settling nothing).
    await startAttempts('down:', held.map((c) => c.request_id));
    const redelivered = await Promise.all(bodies.map((body) => deliver(pick, body, { pauseMs: 100 })));
    assert.ok(redelivered.every((seen) => seen.at(-1) === 200), 'every callback completes once Redis is back');
    const stored = await storedStatuses('down:', held.map((c) => c.request_id));
    assert.ok(stored.every((s) => s !== undefined), 'every order has its verified status');
    const calls = (await callsOf(servers)).filter((call) => call.includes('"inv-d'));
    assert.equal(calls.length, 100);
    assert.equal(new Set(calls).size, 100);
  });
});
