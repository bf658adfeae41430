// A separate merchant process for the payout ledger tests: its own PaymentClient on a shared
// RedisPayoutLedger. It reads one job as JSON from argv, connects, prints `ready`, waits for a line on
// stdin (so several workers fire at the same moment), runs the job, prints one JSON line of results and
// exits. Run with `node --import tsx test/support/servers/payout-worker.ts '<job>'`.
import { createInterface } from 'node:readline';
import { DuplicatePayoutError, PaymentClient, PayoutLedgerError, RedisPayoutLedger, type PayoutOutcome, type PayoutParams } from '../../../src/server/index.js';
import { connectRedis, type RedisSpec } from '../redis/redis-clients.js';

export interface WorkerJob {
  /** A node-redis client on this standalone server, unless `redis` names another client and topology. */
  redisUrl?: string;
  redis?: RedisSpec;
  /** At most this many createPayout at once (default: all at once). */
  concurrency?: number;
  /** A call refused with PayoutLedgerError (nothing sent), or as in flight in another call, is made
   *  again (50 ms later, then up to 500 ms apart) for this long, as a merchant's job queue would. */
  retryMs?: number;
  prefix: string;
  baseUrl: string;
  merchantId: string;
  secret: string;
  timeoutMs?: number;
  /** createPayout for each, all at once. */
  payouts?: PayoutParams[];
  /** or: resolvePayout once. */
  resolve?: { site_id: number; request_id: string; outcome: PayoutOutcome };
}

/** One call's result, in a form the parent can compare. */
export type WorkerResult =
  | { ok: true; request_id: string; invoice_id: string | number; signature: string }
  | { ok: false; request_id: string; name: string; code: string; state?: string; outcomeUnknown?: boolean; mismatch?: boolean };

function describe(request_id: string, error: unknown): WorkerResult {
  const e = error as { name?: string; code?: string; state?: string; outcomeUnknown?: boolean; mismatch?: boolean };
  return { ok: false, request_id, name: String(e.name), code: String(e.code), state: e.state, outcomeUnknown: e.outcomeUnknown, mismatch: e.mismatch };
}

const job = JSON.parse(process.argv[2] ?? '{}') as WorkerJob;
const redis = await connectRedis(job.redis ?? { library: 'node-redis', target: { topology: 'standalone', url: job.redisUrl ?? '' } });
const client = new PaymentClient({
  baseUrl: job.baseUrl,
  merchantId: job.merchantId,
  secret: job.secret,
  timeoutMs: job.timeoutMs ?? 10_000,
  payoutLedger: new RedisPayoutLedger(redis.client, { prefix: job.prefix }),
});
const retryUntil = Date.now() + (job.retryMs ?? 0);

const later = (error: unknown) =>
  error instanceof PayoutLedgerError || (error instanceof DuplicatePayoutError && error.state === 'in-flight' && !error.mismatch);

async function payout(p: PayoutParams): Promise<WorkerResult> {
  for (let pause = 50; ; pause = Math.min(pause * 2, 500)) {
    try {
      const invoice = await client.createPayout(p);
      return { ok: true, request_id: p.request_id, invoice_id: invoice.invoice_id, signature: invoice.signature };
    } catch (error) {
      if (!later(error) || Date.now() > retryUntil) return describe(p.request_id, error);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Runs `calls` in order, at most `limit` at once; answers their results in order. */
async function limited<T>(calls: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const lane = async () => {
    while (next < calls.length) {
      const i = next++;
      results[i] = await (calls[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, lane));
  return results;
}

process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

let results: unknown;
if (job.resolve) {
  const { site_id, request_id, outcome } = job.resolve;
  results = await client.resolvePayout({ site_id, request_id }, outcome).then(
    (entry) => ({ ok: true, entry }),
    (error: unknown) => describe(request_id, error),
  );
} else {
  const payouts = job.payouts ?? [];
  results = await limited(payouts.map((p) => () => payout(p)), job.concurrency ?? payouts.length);
}
process.stdout.write(`${JSON.stringify(results)}\n`);
await redis.close();
