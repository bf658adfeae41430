// A separate merchant process for the payout ledger tests: its own PaymentClient on a shared
// RedisPayoutLedger. It reads one job as JSON from argv, connects, prints `ready`, waits for a line on
// stdin (so several workers fire at the same moment), runs the job, prints one JSON line of results and
// exits. Run with `node --import tsx test/support/payout-worker.ts '<job>'`.
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { PaymentClient, RedisPayoutLedger, type PayoutOutcome, type PayoutParams } from '../../src/server/index.js';

export interface WorkerJob {
  redisUrl: string;
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
const redis = createClient({ url: job.redisUrl });
redis.on('error', () => undefined);
await redis.connect();
const client = new PaymentClient({
  baseUrl: job.baseUrl,
  merchantId: job.merchantId,
  secret: job.secret,
  timeoutMs: job.timeoutMs ?? 10_000,
  payoutLedger: new RedisPayoutLedger(redis, { prefix: job.prefix }),
});

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
  results = await Promise.all(
    (job.payouts ?? []).map((p) =>
      client.createPayout(p).then(
        (invoice): WorkerResult => ({ ok: true, request_id: p.request_id, invoice_id: invoice.invoice_id, signature: invoice.signature }),
        (error: unknown) => describe(p.request_id, error),
      ),
    ),
  );
}
process.stdout.write(`${JSON.stringify(results)}\n`);
await redis.quit();
