// A payout goes out once across real processes sharing a real redis-server,
// against the real sandbox. Each worker is its own Node process with its own PaymentClient and Redis
// connection (test/support/servers/payout-worker.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import {
  createCallbackHandler,
  PaymentClient,
  PayoutLedgerError,
  RedisPayoutLedger,
  toNodeHandler,
  type FetchHandler,
  type PayoutParams,
} from '../../../../src/server/index.js';
import { connectedClient, startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { runWorkers, type WorkerJob, type WorkerResult } from '../../../support/servers/payout-workers.js';
import { startServer } from '../../../support/servers/service.js';
import { until } from '../../../support/poll.js';

const MERCHANT = 'ledger-merchant';
const SECRET = 'ledger-secret';
const LIMIT = { timeout: 120_000 };

let redisServer: RedisServer;
let redis: Awaited<ReturnType<typeof connectedClient>>;
const closers: Array<() => Promise<unknown>> = [];
before(async () => {
  redisServer = await startRedis();
  redis = await connectedClient(redisServer.url);
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await redis.quit().catch(() => undefined);
  await redisServer.stop();
});

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ merchantId: MERCHANT, secret: SECRET, ...options });
  closers.push(() => sb.close());
  return sb;
}

const payout = (request_id: string): PayoutParams => ({
  site_login: 'carol', site_id: 4, request_id, amount: 1200, currency: 'EUR', method: 'card',
  additional_fields: { card_number: '4111111111111111' },
});
const job = (sb: Sandbox, prefix: string, extra: Partial<WorkerJob>): WorkerJob => ({
  redisUrl: redisServer.url, prefix, baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, ...extra,
});
const payoutRequests = (sb: Sandbox) => sb.requests().filter((r) => r.path === '/api/payout/');

test('three processes, 100 concurrent createPayout each over the same 50 request_ids: exactly 50 payouts reach the sandbox', LIMIT, async () => {
  const sb = await sandbox();
  const ids = Array.from({ length: 50 }, (_, i) => `order-${i}`);
  // Each process asks for every request_id twice, starting at a different place in the list.
  const calls = (shift: number) => [...ids, ...ids].map((_, i, all) => payout(all[(i + shift) % all.length]!));
  const results = (await runWorkers([0, 33, 71].map((shift) => job(sb, 'crowd:', { payouts: calls(shift) })))) as WorkerResult[][];

  const sent = payoutRequests(sb);
  assert.equal(sent.length, 50);
  assert.ok(sent.every((r) => r.status === 200));
  const invoices = new Map(sb.invoices().filter((i) => i.kind === 'payout').map((i) => [i.request_id, i.invoice_id]));
  assert.deepEqual([...invoices.keys()].sort(), [...ids].sort());

  const all = results.flat();
  assert.equal(all.length, 300);
  const answered = new Set<string>();
  for (const r of all) {
    if (r.ok) {
      assert.equal(r.invoice_id, invoices.get(r.request_id), `the stored invoice for ${r.request_id}`);
      answered.add(r.request_id);
    } else {
      assert.deepEqual({ name: r.name, code: r.code, state: r.state, mismatch: r.mismatch }, { name: 'DuplicatePayoutError', code: 'duplicate_payout', state: 'in-flight', mismatch: false });
    }
  }
  assert.equal(answered.size, 50, 'every request_id was answered with its invoice at least once');

  // Once they are done, a fourth process asking for all 50 again gets every stored invoice, sending nothing.
  const [later] = (await runWorkers([job(sb, 'crowd:', { payouts: calls(0).slice(0, 50) })])) as WorkerResult[][];
  assert.deepEqual(later?.map((r) => r.ok && r.invoice_id), ids.map((id) => invoices.get(id)));
  assert.equal(payoutRequests(sb).length, 50);
});

/** A callback endpoint with the ledger, answering 503 until opened (so the sandbox keeps retrying). */
async function callbackEndpoint(prefix: string): Promise<{ url: string; open(): void }> {
  let open = false;
  const handler = createCallbackHandler({ secret: SECRET, onStatus: () => undefined, payoutLedger: new RedisPayoutLedger(redis, { prefix }) });
  const gated: FetchHandler = async (request) => (open ? handler(request) : new Response('not yet', { status: 503 }));
  const server = await startServer(toNodeHandler(gated));
  closers.push(() => server.close());
  return { url: `${server.url}/callback`, open: () => (open = true) };
}

test('a payout that times out is unknown; another process is refused without a request; the callback settles it', LIMIT, async () => {
  const prefix = 'late-callback:';
  const endpoint = await callbackEndpoint(prefix);
  const sb = await sandbox({ payoutDelayMs: 3000, callbackUrl: endpoint.url, callbackRetry: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 500 } });
  const p = payout('late-1');

  const [first] = (await runWorkers([job(sb, prefix, { timeoutMs: 1000, payouts: [p] })])) as WorkerResult[][];
  assert.deepEqual(first, [{ ok: false, request_id: 'late-1', name: 'TimeoutError', code: 'timeout', outcomeUnknown: true }]);
  // The late answer has gone out and the callback is being refused: everything the sandbox will do is under way.
  await until('the first delivery of the callback', async () => (sb.callbacks()[0]?.attempts.length ?? 0) > 0);

  const [second] = (await runWorkers([job(sb, prefix, { payouts: [p] })])) as WorkerResult[][];
  assert.deepEqual(second, [{ ok: false, request_id: 'late-1', name: 'DuplicatePayoutError', code: 'duplicate_payout', state: 'unknown', outcomeUnknown: true, mismatch: false }]);
  assert.equal(payoutRequests(sb).length, 1);

  endpoint.open();
  await until('the callback delivered', async () => sb.callbacks()[0]?.state === 'delivered');
  const invoiceId = sb.invoices().find((i) => i.request_id === 'late-1')?.invoice_id;
  const held = await new RedisPayoutLedger(redis, { prefix }).get(JSON.stringify([MERCHANT, 4, 'late-1']));
  assert.deepEqual(held?.state === 'paid' && [held.source, held.invoice['invoice_id']], ['callback', invoiceId]);

  const [third] = (await runWorkers([job(sb, prefix, { payouts: [p] })])) as WorkerResult[][];
  assert.deepEqual(third, [{ ok: true, request_id: 'late-1', invoice_id: invoiceId, signature: '' }]);
  assert.equal(payoutRequests(sb).length, 1);
});

test('a payout that times out, reconciled by resolvePayout in one process, is answered from the ledger in another', LIMIT, async () => {
  const prefix = 'late-resolve:';
  const sb = await sandbox({ payoutDelayMs: 3000 });
  const p = payout('late-2');
  const [first] = (await runWorkers([job(sb, prefix, { timeoutMs: 1000, payouts: [p] })])) as WorkerResult[][];
  assert.equal(first?.[0]?.ok === false && first[0].name, 'TimeoutError');
  await until('one payout at the sandbox', async () => payoutRequests(sb).length === 1);

  const [second] = (await runWorkers([job(sb, prefix, { payouts: [p] })])) as WorkerResult[][];
  assert.equal(second?.[0]?.ok === false && second[0].outcomeUnknown, true);

  const invoiceId = sb.invoices().find((i) => i.request_id === 'late-2')?.invoice_id as string;
  const outcome = { status: 'paid' as const, invoice: { invoice_id: invoiceId, status: 'success' } };
  const [resolved] = (await runWorkers([job(sb, prefix, { resolve: { site_id: 4, request_id: 'late-2', outcome } })])) as Array<{ ok: boolean; entry: { state: string } }>;
  assert.equal(resolved?.entry.state, 'paid');

  const [third] = (await runWorkers([job(sb, prefix, { payouts: [p] })])) as WorkerResult[][];
  assert.deepEqual(third, [{ ok: true, request_id: 'late-2', invoice_id: invoiceId, signature: '' }]);
  assert.equal(payoutRequests(sb).length, 1);
});

test('Redis unreachable: createPayout refuses with a PayoutLedgerError and sends nothing', LIMIT, async () => {
  const own = await startRedis();
  const lost = await connectedClient(own.url, { socket: { reconnectStrategy: 50 } });
  const sb = await sandbox();
  const client = new PaymentClient({
    baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET,
    payoutLedger: new RedisPayoutLedger(lost, { prefix: 'down:', commandTimeoutMs: 300 }),
  });
  assert.equal((await client.createPayout(payout('before'))).request_id, 'before');
  await own.stop();
  const error = await client.createPayout(payout('during')).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PayoutLedgerError, String(error));
  assert.equal(error.outcomeUnknown, false);
  assert.deepEqual(payoutRequests(sb).map((r) => r.status), [200]);
  await lost.disconnect().catch(() => undefined);
});
