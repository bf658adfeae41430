// RedisCallbackStore on a real redis-server: the claim and its lease, a release that touches only its
// own claim, the outcomes recorded per order and attempt, every key of an order in one hash slot, and a
// Redis that stops answering (SIGSTOP) failing within commandTimeoutMs so the callback handler answers 503.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { ConfigError, createCallbackHandler, RedisCallbackStore, sign } from '../../../../src/server/index.js';
import { connectedClient, redisPerFile, startRedis } from '../../../support/redis/redis.js';
import { SECRET } from '../../../support/servers/service.js';
import { cb, record, startedAttempt, storeContract } from '../../../support/contracts/store-contract.js';
import { attemptContract } from '../../../support/contracts/attempt-contract.js';
import { setTimeout as sleep } from 'node:timers/promises';

const redis = redisPerFile();

async function store(options: ConstructorParameters<typeof RedisCallbackStore>[1] = {}): Promise<RedisCallbackStore> {
  const client = await redis.client({ disableOfflineQueue: true });
  return new RedisCallbackStore(client, options);
}

describe('RedisCallbackStore', () => {
  storeContract(store);
  describe('attempts', () => attemptContract(() => store({ prefix: 'attempts:' }), ''));

  test("a new callback for an order costs Redis two scripts: the claim with its judgement, and the finish; the verdicts are the store's", async () => {
    const s = await store({ prefix: 't7:' });
    const admin = await redis.client();
    const scripts = async () => {
      const info = String(await admin.sendCommand(['INFO', 'commandstats']));
      return [...info.matchAll(/^cmdstat_(evalsha|eval):calls=(\d+)/gm)].reduce((sum, [, , calls]) => sum + Number(calls), 0);
    };
    const attempt = await startedAttempt(s, 'order-7');
    const paid = cb('inv-7', 'success', 'order-7', attempt);
    await record(s, paid); // the scripts' first run: each is loaded once (EVAL after NOSCRIPT)
    const other = cb('inv-7b', 'success', 'order-7', attempt);
    const before = await scripts();
    assert.equal(await s.claim(other), 'claimed');
    assert.deepEqual(await s.judge(other), { verdict: 'extra', reason: 'order-paid', paidBy: 'inv-7' });
    await s.finish({ ...other, verdict: { verdict: 'extra', reason: 'order-paid', paidBy: 'inv-7' } });
    assert.equal((await scripts()) - before, 2);
    // Judged again without a claim of this process: the store asks Redis, and the verdict stands.
    assert.deepEqual(await s.judge(paid), { verdict: 'payment' });
    assert.equal(await s.claim(paid), 'finished');
  });

  test('every key of one order shares its hash tag, whatever the reference holds', async () => {
    const s = await store({ prefix: 't6:' });
    const admin = await redis.client();
    const order = 'we{ird}:order';
    await record(s, cb('inv-6', 'success', order, await startedAttempt(s, order)));
    const keys = (await admin.sendCommand(['KEYS', 't6:*'])) as string[];
    assert.equal(keys.length, 2, keys.join(', '));
    const tag = `{${encodeURIComponent(order)}}`;
    for (const key of keys) assert.ok(key.startsWith(`t6:${tag}:`), key);
    const slots = await Promise.all(keys.map((key) => admin.sendCommand(['CLUSTER', 'KEYSLOT', key]).catch(() => undefined)));
    if (slots[0] !== undefined) assert.equal(new Set(slots).size, 1, 'one hash slot');
  });

  test('a Redis that stops answering: the command fails after commandTimeoutMs and the handler answers 503', async () => {
    const s = await store({ prefix: 't4:', commandTimeoutMs: 200, leaseMs: 500 });
    const errors: unknown[] = [];
    let calls = 0;
    const handler = createCallbackHandler({ secret: SECRET, store: s, onStatusTimeoutMs: 400, onStatus: () => void calls++, onError: (e) => errors.push(e) });
    const payload = { invoice_id: 'inv-4', request_id: 'order-4', status: 'success' };
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }) };
    process.kill(redis.server.pid, 'SIGSTOP');
    let answer: Response;
    try {
      answer = await handler(new Request('http://merchant.test/callback', init));
    } finally {
      process.kill(redis.server.pid, 'SIGCONT');
    }
    assert.equal(answer.status, 503);
    assert.equal(calls, 0);
    assert.equal(errors.length, 1);
    // The claim sent before the stop may still land once Redis runs again: it holds until its lease
    // ends, and the service's redeliveries then find the key free.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await handler(new Request('http://merchant.test/callback', init))).status;
      if (status !== 200) await sleep(100);
    }
    assert.equal(status, 200, 'once Redis answers again');
    assert.equal(calls, 1);
  });

  test('options are checked, and a non-client is refused', async () => {
    assert.throws(() => new RedisCallbackStore({} as never), /Invalid RedisCallbackStore options: client: must be a connected client of node-redis or ioredis/);
    const client = createClient({ url: redis.server.url });
    assert.throws(() => new RedisCallbackStore(client, { leaseMs: 0 }), ConfigError);
    assert.throws(() => new RedisCallbackStore(client, { ttlMs: 1.5 }), ConfigError);
  });
});

test('Redis refusing the finish after onStatus: 503 (never 200 without a stored outcome); the finish is tried again, and the redelivery finds it finished without a second call', async () => {
  const own = await startRedis();
  const client = await connectedClient(own.url, { disableOfflineQueue: true });
  const admin = await connectedClient(own.url);
  try {
    const s = new RedisCallbackStore(client, { commandTimeoutMs: 500 });
    let calls = 0;
    const handler = createCallbackHandler({
      secret: SECRET,
      store: s,
      onStatus: async () => {
        calls++;
        // While the merchant's own work runs, Redis stops running scripts for a while (its claim stays).
        await admin.sendCommand(['ACL', 'SETUSER', 'default', '-@scripting']);
        setTimeout(() => void admin.sendCommand(['ACL', 'SETUSER', 'default', '+@all']), 300);
      },
    });
    const attempt = await startedAttempt(s, 'order-lost');
    const payload = { invoice_id: 'inv-lost', request_id: `order-lost~${attempt}`, status: 'success', amount: 100, currency: 'USD' };
    const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
    const post = () => handler(new Request('http://merchant.test/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    assert.equal((await post()).status, 503);
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await post()).status;
      if (status !== 200) await sleep(100);
    }
    assert.equal(status, 200);
    assert.equal(calls, 1, 'onStatus ran once');
    assert.deepEqual(await s.status('order-lost'), { status: 'success', invoice_id: 'inv-lost' });
  } finally {
    client.destroy();
    admin.destroy();
    await own.stop();
  }
});

test("a prefix with a brace is refused (the order reference is each key's hash tag); prefixes that nest keep apart, whatever the orders are called", async (t) => {
  const refused: unknown[] = ['n:{x}:', '{shop}:', 'shop}', 5, ['n:']];
  for (const prefix of refused) {
    await assert.rejects(store({ prefix } as never), (error: Error) => error instanceof ConfigError && /prefix: must/.test(error.message), String(prefix));
  }
  // Under the old layout ('n:' and 'n:order:'), one store's status of order "callback:K" was the other's claim of K.
  const stores = [await store({ prefix: 'n:' }), await store({ prefix: 'n:order:' }), await store({ prefix: 'n:callback:' }), await store({ prefix: 'n:order:x:' })];
  const orders = ['o-1', 'callback:o-1', 'order:o-1', '}:order', 'x:{o-1}'];
  for (const [i, s] of stores.entries()) {
    for (const order of orders) await record(s, cb(`inv-${i}-${order}`, 'success', order, await startedAttempt(s, order)));
  }
  for (const [i, s] of stores.entries()) {
    for (const order of orders) assert.equal((await s.status(order))?.invoice_id, `inv-${i}-${order}`, `store ${i}, order ${order}`);
  }
  t.diagnostic(`${refused.length} prefixes refused; ${stores.length} nested prefixes x ${orders.length} awkward order names kept apart`);
});
