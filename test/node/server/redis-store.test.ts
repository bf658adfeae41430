// RedisCallbackStore on a real redis-server: the claim and its lease, a release that touches only its
// own claim, the recorded status, and a Redis that stops answering (SIGSTOP) failing within
// commandTimeoutMs so the callback handler answers 503.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { ConfigError, createCallbackHandler, RedisCallbackStore, sign } from '../../../src/server/index.js';
import { connectedClient, startRedis, type RedisServer } from '../../support/redis.js';
import { SECRET } from '../../support/service.js';
import { waitUntilRefused } from '../../support/callback-workers.js';

let redis: RedisServer;
const clients: Array<{ destroy(): void }> = [];
before(async () => {
  redis = await startRedis();
});
after(async () => {
  for (const client of clients) client.destroy();
  await redis.stop();
});

async function store(options: ConstructorParameters<typeof RedisCallbackStore>[1] = {}): Promise<RedisCallbackStore> {
  const client = await connectedClient(redis.url, { disableOfflineQueue: true });
  clients.push(client);
  return new RedisCallbackStore(client, options);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisCallbackStore', () => {
  test('begin claims once; done is remembered; fail frees the key', async () => {
    const [a, b] = [await store({ prefix: 't1:' }), await store({ prefix: 't1:' })];
    assert.equal(await a.begin('k'), 'new');
    assert.equal(await b.begin('k'), 'in-flight');
    await a.fail('k');
    assert.equal(await b.begin('k'), 'new');
    await b.complete('k', { request_id: 'order-1', status: 'success', invoice_id: 'inv-1' });
    assert.equal(await a.begin('k'), 'done');
    assert.deepEqual(await a.status('order-1'), { status: 'success', invoice_id: 'inv-1' });
    assert.equal(await a.status('order-2'), undefined);
  });

  test('a claim whose lease ran out is taken again, and the old holder\'s fail leaves the new claim alone', async () => {
    const [a, b, c] = [await store({ prefix: 't2:', leaseMs: 50 }), await store({ prefix: 't2:', leaseMs: 50 }), await store({ prefix: 't2:' })];
    assert.equal(await a.begin('k'), 'new');
    await sleep(120);
    assert.equal(await b.begin('k'), 'new');
    await a.fail('k');
    assert.equal(await c.begin('k'), 'in-flight');
  });

  test('complete tells a watcher on another connection (pub/sub)', async () => {
    const [a, b] = [await store({ prefix: 't3:' }), await store({ prefix: 't3:' })];
    const told = new Promise<void>((resolve) => b.watch('order-3', resolve));
    await sleep(200); // the subscriber connects on the first watch
    await a.complete('k3', { request_id: 'order-3', status: 'fail', invoice_id: 'inv-3' });
    await told;
    await b.close();
  });

  test('a Redis that stops answering: the command fails after commandTimeoutMs and the handler answers 503', async () => {
    const s = await store({ prefix: 't4:', commandTimeoutMs: 200, leaseMs: 500 });
    const errors: unknown[] = [];
    let calls = 0;
    const handler = createCallbackHandler({ secret: SECRET, store: s, onStatusTimeoutMs: 400, onStatus: () => void calls++, onError: (e) => errors.push(e) });
    const payload = { invoice_id: 'inv-4', request_id: 'order-4', status: 'success' };
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }) };
    process.kill(redis.pid, 'SIGSTOP');
    let answer: Response;
    try {
      answer = await handler(new Request('http://merchant.test/callback', init));
    } finally {
      process.kill(redis.pid, 'SIGCONT');
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
    const client = createClient({ url: redis.url });
    assert.throws(() => new RedisCallbackStore(client, { leaseMs: 0 }), ConfigError);
    assert.throws(() => new RedisCallbackStore(client, { ttlMs: 1.5 }), ConfigError);
  });
});

// Type-level: a node-redis client is a RedisClientLike, with no cast (checked by `npm run typecheck`).
export function acceptsNodeRedis(client: ReturnType<typeof createClient>): RedisCallbackStore {
  return new RedisCallbackStore(client);
}

test('Redis lost between onStatus and its record: 503 (never 200 without a stored outcome), and the redelivery here records it without a second call', async () => {
  const own = await startRedis();
  const client = await connectedClient(own.url, { disableOfflineQueue: true, socket: { reconnectStrategy: 50 } });
  try {
    const s = new RedisCallbackStore(client, { commandTimeoutMs: 500 });
    let calls = 0;
    let back: Promise<void> | undefined;
    const handler = createCallbackHandler({
      secret: SECRET,
      store: s,
      onStatus: async () => {
        calls++;
        // Redis goes away (and comes back empty) while the merchant's own work runs.
        back = own.restart(300);
        await waitUntilRefused(own.port);
      },
    });
    const payload = { invoice_id: 'inv-lost', request_id: 'order-lost', status: 'success' };
    const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
    const post = () => handler(new Request('http://merchant.test/callback', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    assert.equal((await post()).status, 503);
    await back;
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
    await own.stop();
  }
});

test('a prefix that holds one of the store\'s key names is refused: two stores on one Redis never share a key', async (t) => {
  // With 'n:' and 'n:order:', the first store's status of order "callback:K" would be the second's claim of K.
  const refused: unknown[] = ['n:order:', 'n:callback:', 'order:', 'shop:callback:x:', 5, ['n:']];
  for (const prefix of refused) {
    await assert.rejects(store({ prefix } as never), (error: Error) => error instanceof ConfigError && /prefix: must/.test(error.message), String(prefix));
  }
  // Prefixes that nest otherwise keep apart: each store reads only what it wrote.
  const [a, b] = [await store({ prefix: 'nest:' }), await store({ prefix: 'nest:x:' })];
  const key = JSON.stringify(['inv-1', 'success']);
  assert.equal(await a.begin(key), 'new');
  assert.equal(await b.begin(key), 'new');
  await a.complete(key, { request_id: 'o-1', status: 'success', invoice_id: 'inv-a' });
  await b.complete(key, { request_id: 'o-1', status: 'fail', invoice_id: 'inv-b' });
  assert.deepEqual([(await a.status('o-1'))?.invoice_id, (await b.status('o-1'))?.invoice_id], ['inv-a', 'inv-b']);
  t.diagnostic(`${refused.length} prefixes refused (a key name inside, or not a string); nested 'nest:' and 'nest:x:' kept apart`);
});
