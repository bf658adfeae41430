// The Redis clients pay-form takes as they are: node-redis's createClient, createCluster and
// createSentinel, ioredis's Redis (standalone or through sentinels) and Cluster. Each is recognised
// without an import of its library, typed without an `any` (the functions at the end are compiled by
// `npm run typecheck`), and a store and a ledger on a standalone ioredis client keep the same contracts
// as on node-redis's. The cluster and Sentinel clients' contracts run in test/node/redis-topologies/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createClient, createCluster, createSentinel } from 'redis';
import { Cluster, Redis } from 'ioredis';
import {
  ConfigError,
  PaymentClient,
  PayoutLedgerError,
  RedisCallbackStore,
  RedisPayoutLedger,
  type PayoutParams,
  type RedisClientLike,
  type RedisCommandClient,
} from '../../../../src/server/index.js';
import { startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { connectRedis, type ConnectedRedis } from '../../../support/redis/redis-clients.js';
import { ledgerContract } from '../../../support/contracts/ledger-contract.js';
import { storeContract } from '../../../support/contracts/store-contract.js';
import { happyService, MERCHANT, PAYOUT, SECRET, startService } from '../../../support/servers/service.js';
import { redisConnection } from '../../../../src/server/stores/redis-connection.js';
import { until } from '../../../support/poll.js';

let redis: RedisServer;
let ioredis: ConnectedRedis;
before(async () => {
  redis = await startRedis();
  ioredis = await connectRedis({ library: 'ioredis', target: { topology: 'standalone', url: redis.url } });
});
after(async () => {
  await ioredis.close();
  await redis.stop();
});

const nowhere = { host: '127.0.0.1', port: 1 };
/** Every shape, made but never connected: recognising one needs no server. */
const unconnected = () => [
  { name: 'node-redis createClient', client: createClient(), replicas: 0 },
  { name: 'node-redis createCluster', client: createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] }), replicas: 1 },
  { name: 'node-redis createSentinel', client: createSentinel({ name: 'pay-form', sentinelRootNodes: [nowhere] }), replicas: 1 },
  { name: 'ioredis Redis', client: new Redis({ lazyConnect: true }), replicas: 0 },
  { name: 'ioredis Redis with sentinels', client: new Redis({ lazyConnect: true, name: 'pay-form', sentinels: [nowhere] }), replicas: 1 },
  { name: 'ioredis Cluster', client: new Cluster([nowhere], { lazyConnect: true }), replicas: 1 },
];

test('each client shape is taken as it is; a cluster or Sentinel client makes a claim wait for one replica by default', () => {
  for (const { name, client, replicas } of unconnected()) {
    assert.equal(new RedisPayoutLedger(client).replicas, replicas, name);
    assert.ok(new RedisCallbackStore(client) instanceof RedisCallbackStore, name);
  }
});

test('anything else, or a prefix with a hash tag brace, is a ConfigError naming it', () => {
  for (const notAClient of [{}, null, { sendCommand: 1 }, { call() {} }]) {
    assert.throws(() => new RedisPayoutLedger(notAClient as never), (e: unknown) => e instanceof ConfigError && /client: must be a connected client of node-redis or ioredis/.test(e.message));
    assert.throws(() => new RedisCallbackStore(notAClient as never), ConfigError);
  }
  const client = createClient();
  assert.throws(() => new RedisPayoutLedger(client, { prefix: 'shop{1}:' }), /prefix: must be a string without \{ or \}/);
  assert.throws(() => new RedisPayoutLedger(client, { replicas: -1, replicaWaitMs: 0 }), /replicas: must be a whole number, 0 or more; replicaWaitMs: must be a whole number of milliseconds, 1 to/);
});

describe('RedisPayoutLedger on an ioredis client', () => {
  let run = 0;
  ledgerContract((o) => new RedisPayoutLedger(ioredis.client, { prefix: `io${++run}:`, ...o }));
});

describe('RedisCallbackStore on an ioredis client', () => {
  const stores: RedisCallbackStore[] = [];
  after(() => Promise.all(stores.map((s) => s.close())));
  storeContract(async (o = {}) => {
    const store = new RedisCallbackStore(ioredis.client, { ...o, prefix: `io-${o.prefix ?? ''}` });
    stores.push(store);
    return store;
  });
});

test('a claim no replica acknowledges within replicaWaitMs: PayoutLedgerError, nothing sent, and the request_id is free again', async () => {
  const service = await startService(happyService);
  const node = await connectRedis({ library: 'node-redis', target: { topology: 'standalone', url: redis.url } });
  try {
    // This server has no replica, so WAIT 1 answers 0 after its time limit.
    for (const client of [node.client, ioredis.client]) {
      const payoutLedger = new RedisPayoutLedger(client, { prefix: 'lonely:', replicas: 1, replicaWaitMs: 50 });
      const payments = new PaymentClient({ baseUrl: service.url, merchantId: MERCHANT, secret: SECRET, payoutLedger });
      const payout = { ...PAYOUT, request_id: `lonely-${crypto.randomUUID()}` } as unknown as PayoutParams;
      const error = await payments.createPayout(payout).then(() => undefined, (e: unknown) => e);
      assert.ok(error instanceof PayoutLedgerError, String(error));
      assert.match(String((error.cause as Error).message), /the claim reached 0 of 1 replicas within 50 ms/);
      assert.equal(await payoutLedger.get(JSON.stringify([MERCHANT, payout.site_id, payout.request_id])), undefined);
    }
    assert.equal(service.requests.length, 0);
  } finally {
    await node.close();
    await service.close();
  }
});

// Type-level: the libraries' own clients, as a merchant makes them, fit with no cast (checked by `npm run
// typecheck`). Made by the calls rather than named as ReturnType<typeof createCluster>: that names the
// cluster type with every module of node-redis, which alone took 10 s of each type-check to resolve.
export function acceptsEveryShape(ioredisClient: Redis, ioredisCluster: Cluster): Array<RedisCallbackStore | RedisPayoutLedger> {
  const client = createClient({ url: 'redis://127.0.0.1:1' });
  const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
  const sentinel = createSentinel({ name: 'pay-form', sentinelRootNodes: [nowhere] });
  const shapes: RedisClientLike[] = [client, cluster, sentinel, ioredisClient, ioredisCluster];
  const commands: RedisCommandClient[] = shapes;
  return [...shapes.map((c) => new RedisCallbackStore(c)), ...commands.map((c) => new RedisPayoutLedger(c))];
}

export function refusesOtherObjects(): void {
  // @ts-expect-error: an object with none of the clients' methods is not a Redis client
  new RedisPayoutLedger({ get: async () => null });
  // @ts-expect-error: a ledger-only client (no duplicate) cannot serve the store's pub/sub
  new RedisCallbackStore({ sendCommand: async (_args: string[]) => null });
}

describe('node-redis commands with a time limit', () => {
  test('a command still unwritten at its limit is dropped, never run late after the reconnect; no warning for many at once', async () => {
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    // The client reaches Redis through a relay that stops listening while the test needs it away, so
    // its reconnects are refused and it queues commands meanwhile (node-redis's offline queue).
    const relay = net.createServer((socket) => {
      const upstream = net.connect(redis.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    const listen = (port: number) => new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
    await listen(0);
    const port = (relay.address() as net.AddressInfo).port;
    const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => undefined);
    await client.connect();
    const killer = createClient({ url: redis.url });
    await killer.connect();
    try {
      const connection = redisConnection(client)!;
      // 200 commands sharing limits, written at once: fine, and nothing warns of listeners.
      const many = await Promise.all(Array.from({ length: 200 }, (_, i) => connection.send(`k${i}`, ['SET', `k${i}`, 'v'], 500)));
      assert.ok(many.every((reply) => reply === 'OK'));
      relay.close();
      await killer.sendCommand(['CLIENT', 'KILL', 'ID', String(await client.sendCommand(['CLIENT', 'ID']))]);
      await until('the client knows its connection is gone', async () => !client.isReady);
      const late = connection.send('dropped', ['SET', 'dropped', 'late'], 200);
      await assert.rejects(late, /aborted/);
      await listen(port);
      await until('the client is back', async () => client.isReady, 10_000);
      assert.equal(await killer.sendCommand(['GET', 'dropped']), null, 'the dropped command never ran');
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings.map((w) => w.message), []);
    } finally {
      process.off('warning', warned);
      client.destroy();
      killer.destroy();
      relay.close();
    }
  });
});
