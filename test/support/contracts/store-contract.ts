// RedisCallbackStore's contract, one test per rule, for a store on any Redis client shape:
// redis-store.test.ts runs it on a node-redis client of one redis-server, the topology tests
// (test/node/redis-topologies/) through each client of a Redis Cluster and a Sentinel set. Call it
// inside a describe(); each store `make` answers is another server on the same Redis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallbackRecord, CallbackStore, RedisCallbackStore, RedisCallbackStoreOptions, StatusNews } from '../../../src/server/index.js';
import { ask } from './attempt-contract.js';
import { within } from '../poll.js';
import { setTimeout as sleep } from 'node:timers/promises';

export const cb = (invoice_id: string, status: string, order_ref = 'order-1', attempt = ''): CallbackRecord => ({ invoice_id, status, order_ref, attempt, amount: '100', currency: 'USD' });

/** An attempt of the order started as the token handler starts one (100 USD): answers its id. */
export async function startedAttempt(s: CallbackStore, order: string): Promise<string> {
  const start = await s.startAttempt(order, ask(100));
  assert.ok(start.state === 'started', `started, not ${start.state}`);
  return start.attempt;
}

/** Claims and finishes one callback, as the callback handler does: a callback with no attempt is
 *  judged foreign and recorded for no order; one with an attempt, as judge says. */
export async function record(s: RedisCallbackStore, callback: CallbackRecord): Promise<void> {
  assert.equal(await s.claim(callback), 'claimed');
  await s.finish({ ...callback, verdict: await s.judge(callback) });
}

export function storeContract(make: (options?: RedisCallbackStoreOptions) => Promise<RedisCallbackStore>): void {
  test('a callback is claimed once; finished is remembered; release frees it', async () => {
    const [a, b] = [await make({ prefix: 't1:' }), await make({ prefix: 't1:' })];
    const k = cb('inv-1', 'success', 'order-1', await startedAttempt(a, 'order-1'));
    assert.equal(await a.claim(k), 'claimed');
    assert.equal(await b.claim(k), 'in-flight');
    await a.release(k);
    assert.equal(await b.claim(k), 'claimed');
    await b.finish({ ...k, verdict: await b.judge(k) });
    assert.equal(await a.claim(k), 'finished');
    assert.deepEqual(await a.status('order-1'), { status: 'success', invoice_id: 'inv-1' });
    assert.equal(await a.status('order-2'), undefined);
  });

  test("a claim whose lease ran out is taken again, and the old holder's release leaves the new claim alone", async () => {
    // Only a's lease is short: b's claim must still be live when c asks, however slow the machine.
    const [a, b, c] = [await make({ prefix: 't2:', leaseMs: 50 }), await make({ prefix: 't2:' }), await make({ prefix: 't2:' })];
    const k = cb('inv-2', 'success');
    assert.equal(await a.claim(k), 'claimed');
    await sleep(120);
    assert.equal(await b.claim(k), 'claimed');
    await a.release(k);
    assert.equal(await c.claim(k), 'in-flight');
  });

  test('finish tells a watcher on another connection (pub/sub) what it recorded', async () => {
    const [a, b] = [await make({ prefix: 't3:' }), await make({ prefix: 't3:' })];
    // The subscriber connects on the first watch; what is published before it has subscribed is not heard.
    // Its first ping heard tells every watcher to read (`undefined`, no news in it): from then on it hears.
    // (A silent heartbeat says the same, but not before HEARTBEAT_MS, 5 s.) Through a Sentinel set on a busy
    // machine the subscriber took over 200 ms, the fixed wait this test had, and the news was never heard.
    let hearing!: () => void;
    const heard = new Promise<void>((resolve) => (hearing = resolve));
    const told = new Promise<StatusNews>((resolve) => b.watch('order-3', (news) => (news === undefined ? hearing() : resolve(news))));
    await within('the watcher to hear its first ping', heard);
    const attempt = await startedAttempt(a, 'order-3');
    await record(a, cb('inv-3', 'fail', 'order-3', attempt));
    assert.deepEqual(await within('the news of the finish', told), { attempt, own: { status: 'fail', invoice_id: 'inv-3' }, paid: undefined });
    await b.close();
  });
}
