// `npm run bench:redis`: what RedisCallbackStore and RedisPayoutLedger cost per operation on each Redis
// topology pay-form takes (one server, a Redis Cluster of 3 primaries and 3 replicas, a Sentinel set of
// a primary and a replica), through node-redis and ioredis, all from REDIS_SERVER on loopback
// (test/support). The store: claim + finish + status of a fresh callback, one callback's store steps
// and its page's read; the ledger: claim + finish(paid) for a fresh request_id, one payout's ledger
// steps. The claims (and the store's finish) are followed by WAIT 1 on the cluster and Sentinel set
// (their default) and not on one server (no replica there); node-redis on the cluster and the Sentinel
// set once more with `replicas: 0`, to show what WAIT costs. Several rounds, the variants in a rotated
// order; each round gives a median per variant, and the table shows the median of those and their spread.
//   npm run bench:redis [-- rounds opsPerRound]
import { RedisCallbackStore, RedisPayoutLedger } from '../../src/server/index.js';
import { startRedis } from '../../test/support/redis/redis-server.js';
import { startRedisCluster } from '../../test/support/redis/redis-cluster.js';
import { startRedisSentinel } from '../../test/support/redis/redis-sentinel.js';
import { connectRedis, LIBRARIES, type ConnectedRedis, type RedisTarget } from '../../test/support/redis/redis-clients.js';
import { machine, median, quantile, report } from '../stats.js';

const rounds = Number(process.argv[2] ?? 5);
const ops = Number(process.argv[3] ?? 1000);

const [solo, cluster, sentinel] = await Promise.all([startRedis(), startRedisCluster(), startRedisSentinel()]);
const connected: ConnectedRedis[] = [];
try {
  const targets: Array<[string, RedisTarget]> = [
    ['one server', { topology: 'standalone', url: solo.url }],
    ['Redis Cluster', { topology: 'cluster', rootNodes: cluster.rootNodes }],
    ['Sentinel set', { topology: 'sentinel', name: sentinel.name, sentinels: sentinel.sentinels }],
  ];
  const variants: Array<{ name: string; ledger: RedisPayoutLedger; store: RedisCallbackStore }> = [];
  for (const [topology, target] of targets) {
    for (const library of LIBRARIES) {
      const redis = await connectRedis({ library, target });
      connected.push(redis);
      const variant = (name: string, options: { replicas?: number }) => {
        const prefix = `bench-${variants.length}:`;
        const ledger = new RedisPayoutLedger(redis.client, { prefix: `${prefix}payout:`, ...options });
        variants.push({ name, ledger, store: new RedisCallbackStore(redis.client, { prefix, ...options }) });
      };
      variant(`${topology}, ${library}`, {});
      if (library === 'node-redis' && target.topology !== 'standalone') variant(`${topology}, ${library}, no WAIT`, { replicas: 0 });
    }
  }

  let n = 0;
  const invoice = { success: true, status: 'pending', invoice_id: 'inv', request_id: 'r', amount: 2500, currency: 'EUR', site_login: 'alice', site_id: 12, signature: 'f'.repeat(64) };
  async function ledgerRound(ledger: RedisPayoutLedger): Promise<number[]> {
    const times: number[] = [];
    for (let i = -50; i < ops; i++) {
      const key = JSON.stringify(['bench', 12, `op-${++n}`]);
      const t = performance.now();
      await ledger.claim(key, { token: 't', fingerprint: '[2500,"EUR","card","alice"]', leaseMs: 100_000 });
      await ledger.finish(key, 't', { state: 'paid', invoice });
      if (i >= 0) times.push(performance.now() - t); // the first 50 warm up
    }
    return times;
  }

  async function storeRound(store: RedisCallbackStore): Promise<number[]> {
    const times: number[] = [];
    for (let i = -50; i < ops; i++) {
      const callback = { order_ref: `order-${++n}`, attempt: '', invoice_id: `inv-${n}`, status: 'success' };
      const t = performance.now();
      await store.claim(callback);
      await store.finish(callback);
      await store.status(callback.order_ref);
      if (i >= 0) times.push(performance.now() - t); // the first 50 warm up
    }
    return times;
  }

  // Per variant and step (store, ledger): each round's median and p99.
  const rows = new Map<string, { medians: number[]; p99s: number[] }>();
  const note = (row: string, times: number[]) => {
    const entry = rows.get(row) ?? { medians: [], p99s: [] };
    entry.medians.push(median(times));
    entry.p99s.push(quantile(times, 0.99));
    rows.set(row, entry);
  };
  for (let r = 0; r < rounds; r++) {
    for (let v = 0; v < variants.length; v++) {
      const { name, ledger, store } = variants[(v + r) % variants.length]!;
      note(`store|${name}`, await storeRound(store));
      note(`ledger|${name}`, await ledgerRound(ledger));
    }
    process.stderr.write(`round ${r + 1}/${rounds} done\n`);
  }

  const us = (ms: number) => (ms * 1000).toFixed(0);
  const cells = (row: string) => {
    const { medians, p99s } = rows.get(row)!;
    return `${us(median(medians))} | ${us(Math.min(...medians))}–${us(Math.max(...medians))} | ${us(median(p99s))}`;
  };
  await report(
    [
      `bench/redis, ${machine()}; ${rounds} rounds of ${ops} operations per variant and step, rotated order.`,
      '',
      '| topology, client | replicas waited for | store: claim + finish + status, median µs | spread µs | p99 µs | ledger: claim + finish, median µs | spread µs | p99 µs |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...variants.map(({ name, ledger }) => `| ${name} | ${ledger.replicas} | ${cells(`store|${name}`)} | ${cells(`ledger|${name}`)} |`),
    ].join('\n'),
  );
} finally {
  await Promise.all(connected.map((c) => c.close()));
  await Promise.all([solo.stop(), cluster.stop(), sentinel.stop()]);
}
