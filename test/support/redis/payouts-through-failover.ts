// The payout half of the failover tests (test/node/redis-topologies/): three payout-worker processes,
// each asking for the same 50 request_ids twice (100 createPayout, 5 at a time, shifted so they
// collide), on one Redis topology through one client library, against the real sandbox; once the load
// is under way, `failover` runs. A call refused with PayoutLedgerError (nothing sent) is made again
// until the topology serves, as a merchant's job queue would.
// The sandbox sits behind a door that lets the first payouts through and holds the rest until the new
// primary has taken over: left to the clock, all 50 could go out before a slow failover promoted
// anyone, and the run would prove nothing about payouts claimed on one primary and finished on another.
import { startSandbox } from '../../../src/sandbox/index.js';
import { readText, startServer } from '../servers/loopback.js';
import type { PayoutParams } from '../../../src/server/index.js';
import { runWorkers, type WorkerResult } from '../servers/payout-workers.js';
import type { RedisSpec } from './redis-clients.js';

export const PAYOUT_MERCHANT = 'failover-merchant';
const SECRET = 'failover-secret';
/** Payouts sent before the failover begins; the rest wait at the door for the new primary. */
const UNDER_WAY = 10;

export interface PayoutsRun<F> {
  /** The status of each payout request the sandbox received (a repeated request_id answers 409). */
  sent: number[];
  /** The sandbox's invoice_id per request_id. */
  invoices: Map<string, string | number>;
  results: WorkerResult[];
  ids: string[];
  failover: F;
  /** How many payouts had gone out when the failover began, when the new primary said ROLE master,
   *  and when the failover had ended. */
  sentAt: { start: number; promoted: number; end: number };
}

const payout = (request_id: string): PayoutParams => ({
  site_login: 'carol', site_id: 4, request_id, amount: 1200, currency: 'EUR', method: 'card',
  additional_fields: { card_number: '4111111111111111' },
});

/** A loopback door to `target`: the first `first` requests pass at once, the others once `open()` is called. */
async function door(target: string, first: number) {
  let passed = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const server = await startServer((req, res) => {
    void readText(req)
      .then(async (body) => {
        if (++passed > first) await opened;
        const answer = await fetch(`${target}${req.url ?? '/'}`, {
          method: req.method ?? 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          body,
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.destroy());
  });
  return { url: server.url, open, close: () => server.close() };
}

/** The ledger key of request_id `id` under `prefix`, as RedisPayoutLedger stores it. */
export const ledgerKey = (prefix: string, id: string) => `${prefix}{${JSON.stringify([PAYOUT_MERCHANT, 4, id])}}`;

export async function payoutsThroughFailover<F>(
  redis: RedisSpec,
  prefix: string,
  failover: (onPromoted: () => void) => Promise<F>,
): Promise<PayoutsRun<F>> {
  // Each answer takes 20 ms, so the 300 calls span the failover rather than end before it.
  const sandbox = await startSandbox({ merchantId: PAYOUT_MERCHANT, secret: SECRET, payoutDelayMs: 20 });
  const held = await door(sandbox.url, UNDER_WAY);
  try {
    const ids = Array.from({ length: 50 }, (_, i) => `payout-${i}`);
    const calls = (shift: number) => [...ids, ...ids].map((_, i, all) => payout(all[(i + shift) % all.length] as string));
    const sent = () => sandbox.requests().filter((r) => r.path === '/api/payout/').map((r) => r.status);
    const job = (shift: number) => ({
      // The held payouts wait out the failover: their time-out is longer than any failover here.
      redis, prefix, baseUrl: held.url, merchantId: PAYOUT_MERCHANT, secret: SECRET, timeoutMs: 120_000,
      payouts: calls(shift), concurrency: 5, retryMs: 30_000,
    });
    const running = runWorkers([0, 33, 71].map(job));
    const underWay = (async () => {
      while (sent().length < UNDER_WAY) await new Promise((resolve) => setTimeout(resolve, 5));
    })();
    await Promise.race([underWay, running.then(() => Promise.reject(new Error(`the workers ended before ${UNDER_WAY} payouts went out`)))]);
    const sentAt = { start: sent().length, promoted: 0, end: 0 };
    const promoted = () => {
      sentAt.promoted = sent().length;
      held.open();
    };
    const failing = failover(promoted).finally(() => {
      sentAt.end = sent().length;
      held.open();
    });
    const [done, results] = await Promise.all([failing, running]);
    return {
      sent: sent(),
      invoices: new Map(sandbox.invoices().filter((i) => i.kind === 'payout').map((i) => [i.request_id, i.invoice_id])),
      results: (results as WorkerResult[][]).flat(),
      ids,
      failover: done,
      sentAt,
    };
  } finally {
    // Closing drops whatever the door still holds.
    await held.close();
    await sandbox.close();
  }
}
