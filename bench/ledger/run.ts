// bench/ledger: what the payout ledger costs per payout, next to the payout's own latency.
//   1. createPayout against the sandbox (its own process), one payout at a time, with a no-op ledger
//      (the baseline: no guard at all, not a real option), the MemoryPayoutLedger and a
//      RedisPayoutLedger on a local redis-server;
//   2. the ledger alone: claim + finish(paid) for a fresh request_id, the two steps every payout adds.
// Several rounds, the variants in a rotated order (payout by payout in part 1, block by block in part
// 2); each round gives a median per variant, and the table shows the median of those and their spread
// (lowest to highest round median).
//   npm run bench:ledger [-- rounds payoutsPerRound ledgerOpsPerRound]
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { MemoryPayoutLedger, PaymentClient, RedisPayoutLedger, type PayoutLedger, type PayoutParams } from '../../src/server/index.js';
import { startRedis } from '../../test/support/redis/redis-server.js';
import { MERCHANT, SECRET } from './shared.js';

const rounds = Number(process.argv[2] ?? 5);
const payouts = Number(process.argv[3] ?? 300);
const ledgerOps = Number(process.argv[4] ?? 3000);

const noop: PayoutLedger = {
  claim: async () => undefined,
  finish: async () => undefined,
  resolve: async () => undefined,
  get: async () => undefined,
};

const child = fork(fileURLToPath(new URL('./sandbox.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const redisServer = await startRedis();
try {
  const sandboxUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${String(code)}`)));
  });
  const redis = createClient({ url: redisServer.url });
  redis.on('error', () => undefined);
  await redis.connect();

  const ledgers: Array<[string, () => PayoutLedger]> = [
    ['no ledger (baseline)', () => noop],
    ['MemoryPayoutLedger', () => new MemoryPayoutLedger()],
    ['RedisPayoutLedger', () => new RedisPayoutLedger(redis, { prefix: `bench:${crypto.randomUUID()}:` })],
  ];
  let n = 0;
  const params = (): PayoutParams => ({
    site_login: 'alice', site_id: 12, request_id: `bench-${++n}`, amount: 2500, currency: 'EUR', method: 'card',
    additional_fields: { card_number: '4111111111111111' },
  });

  // One payout per variant in turn, in a rotated order, so a burst of load from elsewhere on the
  // machine falls on every variant alike instead of on whichever block of payouts it hits.
  async function payoutRound(round: number): Promise<Map<string, number[]>> {
    const clients = ledgers.map(([name, make]) => [name, new PaymentClient({ baseUrl: sandboxUrl, merchantId: MERCHANT, secret: SECRET, payoutLedger: make() })] as const);
    const times = new Map(clients.map(([name]) => [name, [] as number[]]));
    for (let i = -20; i < payouts; i++) {
      for (let v = 0; v < clients.length; v++) {
        const [name, client] = clients[(v + i + round + clients.length * 20) % clients.length]!;
        const p = params();
        const t = performance.now();
        await client.createPayout(p);
        if (i >= 0) times.get(name)!.push(performance.now() - t); // the first 20 warm up
      }
    }
    return times;
  }

  async function ledgerRound(make: () => PayoutLedger): Promise<number[]> {
    const ledger = make();
    const invoice = { success: true, status: 'pending', invoice_id: 'inv', request_id: 'r', amount: 2500, currency: 'EUR', site_login: 'alice', site_id: 12, signature: 'f'.repeat(64) };
    const times: number[] = [];
    for (let i = 0; i < ledgerOps + 100; i++) {
      const key = JSON.stringify([MERCHANT, 12, `op-${++n}`]);
      const t = performance.now();
      await ledger.claim(key, { token: 't', fingerprint: '[2500,"EUR","card","alice"]', leaseMs: 100_000 });
      await ledger.finish(key, 't', { state: 'paid', invoice });
      if (i >= 100) times.push(performance.now() - t); // the first 100 warm up
    }
    return times;
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  };
  const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

  const perRound = new Map<string, { med: number[]; p99: number[] }>();
  const note = (name: string, times: number[]) => {
    const row = perRound.get(name) ?? { med: [], p99: [] };
    row.med.push(median(times));
    row.p99.push(p99(times));
    perRound.set(name, row);
  };
  for (let r = 0; r < rounds; r++) {
    for (const [name, times] of await payoutRound(r)) note(`createPayout, ${name}`, times);
    const order = ledgers.slice(1).map((_, i, real) => real[(i + r) % real.length]!);
    for (const [name, make] of order) note(`claim + finish, ${name}`, await ledgerRound(make));
    process.stderr.write(`round ${r + 1}/${rounds} done\n`);
  }

  const f = (ms: number) => (ms * 1000).toFixed(ms < 0.01 ? 1 : 0);
  console.log(`\nbench:ledger: ${rounds} rounds, ${payouts} sequential payouts and ${ledgerOps} claim+finish pairs per variant and round`);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| what | median µs | spread of round medians µs | median p99 µs |');
  console.log('|---|---:|---:|---:|');
  for (const [name, row] of perRound) {
    console.log(`| ${name} | ${f(median(row.med))} | ${f(Math.min(...row.med))}–${f(Math.max(...row.med))} | ${f(median(row.p99))} |`);
  }
  await redis.quit();
} finally {
  child.kill();
  await redisServer.stop();
}
