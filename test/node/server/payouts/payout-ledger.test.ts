// The payout ledger's contract, the same for MemoryPayoutLedger and RedisPayoutLedger (a real
// redis-server), and PaymentClient's rules on top of it against real loopback services: which answers
// free a request_id, which leave it unknown, what a repeat gets, resolvePayout and the callback hook.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import {
  ApiError,
  ConfigError,
  DuplicatePayoutError,
  MemoryPayoutLedger,
  NetworkError,
  PaymentClient,
  PayoutLedgerError,
  RedisPayoutLedger,
  TimeoutError,
  ValidationError,
  createCallbackHandler,
  sign,
  type PaymentClientOptions,
  type PayoutLedger,
  type PayoutParams,
} from '../../../../src/server/index.js';
import { connectedClient, startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { ledgerContract } from '../../../support/contracts/ledger-contract.js';
import { answerSigned, happyService, MERCHANT, PAYOUT, refusedUrl, SECRET, startService, type Responder, type Service } from '../../../support/servers/service.js';
import { setTimeout as sleep } from 'node:timers/promises';

let redisServer: RedisServer;
let redis: Awaited<ReturnType<typeof connectedClient>>;
const open: Service[] = [];
before(async () => {
  redisServer = await startRedis();
  redis = await connectedClient(redisServer.url);
});
after(async () => {
  await Promise.all(open.map((s) => s.close()));
  await redis.quit();
  await redisServer.stop();
});

async function service(respond: Responder): Promise<Service> {
  const s = await startService(respond);
  open.push(s);
  return s;
}

let run = 0;
const KINDS: Array<[string, (o?: { ttlMs?: number }) => PayoutLedger]> = [
  ['MemoryPayoutLedger', (o) => new MemoryPayoutLedger(o)],
  ['RedisPayoutLedger', (o) => new RedisPayoutLedger(redis, { prefix: `t${++run}:`, ...o })],
];
const payout = (over: Partial<PayoutParams> = {}) => ({ ...PAYOUT, request_id: `p-${crypto.randomUUID()}`, ...over }) as unknown as PayoutParams;
const keyOf = (p: PayoutParams) => JSON.stringify([MERCHANT, p.site_id, p.request_id]);
const client = (url: string, payoutLedger: PayoutLedger, extra: Partial<PaymentClientOptions> = {}) =>
  new PaymentClient({ baseUrl: url, merchantId: MERCHANT, secret: SECRET, retryBaseMs: 1, retryMaxMs: 5, payoutLedger, ...extra } as PaymentClientOptions);

async function rejects<E extends Error>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
  return error;
}

/** A service that answers one status and body per request, in order (the last one repeats). */
const scripted = (...answers: Array<[number, Record<string, unknown>, boolean?]>): Responder => {
  let n = 0;
  return async (request, res) => {
    const [status, body, unsigned] = answers[Math.min(n++, answers.length - 1)]!;
    if (status === 0) return; // never answers: the client times out
    if (unsigned) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    } else if (status === 200) await happyService(request, res);
    else await answerSigned(res, status, body);
  };
};
const refusal = { success: false, message: 'no' };
// A time-out long enough for the request to reach the service on a busy machine, so that counting
// what the service received counts what the client sent.
const SENT_WITHIN_MS = 1000;

for (const [name, make] of KINDS) {
  describe(name, () => {
    ledgerContract(make);

    test('concurrent createPayout for one request_id in one process: one request, the rest the invoice or in-flight', async () => {
      const s = await service(happyService);
      const c = client(s.url, make());
      const p = payout();
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => c.createPayout(p)));
      assert.equal(s.requests.length, 1);
      for (const r of results) {
        if (r.status === 'fulfilled') assert.equal(r.value.invoice_id, 'inv-1');
        else assert.ok(r.reason instanceof DuplicatePayoutError && r.reason.state === 'in-flight' && !r.reason.outcomeUnknown);
      }
      const again = await c.createPayout(p);
      assert.equal(again.invoice_id, 'inv-1');
      assert.equal(typeof again.signature, 'string');
      again.invoice_id = 'changed by the caller';
      assert.equal((await c.createPayout(p)).invoice_id, 'inv-1');
      assert.equal(s.requests.length, 1);
    });

    test('a repeat with another amount is refused as a mismatch, without a request', async () => {
      const s = await service(happyService);
      const c = client(s.url, make());
      const p = payout();
      await c.createPayout(p);
      const e = await rejects(c.createPayout({ ...p, amount: p.amount + 1 }), DuplicatePayoutError);
      assert.equal(e.mismatch, true);
      assert.equal(s.requests.length, 1);
    });

    test('a signed 4xx refusal frees the request_id; a 409, a signed 5xx or an unsigned failure leave it unknown', async () => {
      const ledger = make();
      const s = await service(scripted([400, refusal], [200, {}]));
      const c = client(s.url, ledger);
      const p = payout();
      await rejects(c.createPayout(p), ApiError);
      assert.equal(await ledger.get(keyOf(p)), undefined);
      assert.equal((await c.createPayout(p)).invoice_id, 'inv-1');
      assert.equal(s.requests.length, 2);

      for (const answer of [[409, refusal], [502, refusal], [400, refusal, true]] as Array<[number, Record<string, unknown>, boolean?]>) {
        const u = await service(scripted(answer));
        const q = payout();
        const cu = client(u.url, ledger);
        await rejects(cu.createPayout(q), ApiError);
        assert.deepEqual(await ledger.get(keyOf(q)), { state: 'unknown', fingerprint: JSON.stringify([q.amount, q.currency, q.method, q.site_login]), reason: 'api' });
        const again = await rejects(cu.createPayout(q), DuplicatePayoutError);
        assert.equal(again.outcomeUnknown, true);
        assert.equal(u.requests.length, 1, `status ${answer[0]}`);
      }
    });

    test('a refused connection frees the request_id; a signer that throws leaves no claim', async () => {
      const ledger = make();
      const p = payout();
      const e = await rejects(client(await refusedUrl(), ledger).createPayout(p), NetworkError);
      assert.equal(e.outcomeUnknown, false);
      assert.equal(await ledger.get(keyOf(p)), undefined);
      const s = await service(happyService);
      const throwing = client(s.url, ledger, { secret: undefined, signer: () => { throw new Error('hsm down'); } });
      await assert.rejects(throwing.createPayout(p), /hsm down/);
      assert.equal(await ledger.get(keyOf(p)), undefined);
      assert.equal(s.requests.length, 0);
    });

    test('a time-out is unknown until resolvePayout: paid answers repeats, not-paid lets a new payout out', async () => {
      const ledger = make();
      const slow = await service(scripted([0, {}]));
      const c = client(slow.url, ledger, { timeoutMs: SENT_WITHIN_MS });
      const p = payout();
      await rejects(c.createPayout(p), TimeoutError);
      const refused = await rejects(c.createPayout(p), DuplicatePayoutError);
      assert.equal(refused.state, 'unknown');
      assert.equal(slow.requests.length, 1);
      const entry = await c.resolvePayout(p, { status: 'paid', invoice: { invoice_id: 'from-statement', status: 'success' } });
      assert.equal(entry?.state, 'paid');
      const replay = await c.createPayout(p);
      assert.equal(replay.invoice_id, 'from-statement');
      assert.equal(replay.amount, p.amount);
      assert.equal(replay.signature, '');
      assert.equal(slow.requests.length, 1);

      const q = payout();
      await rejects(c.createPayout(q), TimeoutError);
      assert.equal(await c.resolvePayout(q, { status: 'not-paid' }), undefined);
      const s = await service(happyService);
      assert.equal((await client(s.url, ledger).createPayout(q)).invoice_id, 'inv-1');
      assert.equal(s.requests.length, 1);
    });

    test('resolvePayout refuses bad input with a ValidationError, and not-paid while in flight', async () => {
      const ledger = make();
      const c = client('http://127.0.0.1:9', ledger);
      const bad = await rejects(c.resolvePayout({ site_id: 1.5, request_id: '' }, { status: 'paid', invoice: {} as never }), ValidationError);
      assert.deepEqual(bad.issues.map((i) => i.path), ['site_id', 'request_id', 'outcome.invoice.invoice_id']);
      await rejects(c.resolvePayout({ site_id: 1, request_id: 'r' }, { status: 'maybe' } as never), ValidationError);
      await ledger.claim(JSON.stringify([MERCHANT, 1, 'r']), { token: 't', fingerprint: '', leaseMs: 60_000 });
      const busy = await rejects(c.resolvePayout({ site_id: 1, request_id: 'r' }, { status: 'not-paid' }), DuplicatePayoutError);
      assert.equal(busy.state, 'in-flight');
    });

    test('the callback handler settles a payout it holds: success to paid, fail to free; others change nothing', async () => {
      const ledger = make();
      const statuses: string[] = [];
      const handler = createCallbackHandler({ secret: SECRET, payoutLedger: ledger, onStatus: (p) => void statuses.push(p.status) });
      const deliver = async (payload: Record<string, unknown>) => {
        const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
        return (await handler(new Request('http://m/cb', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))).status;
      };
      const slow = await service(scripted([0, {}]));
      const c = client(slow.url, ledger, { timeoutMs: SENT_WITHIN_MS });
      const [p, q] = [payout(), payout()];
      await rejects(c.createPayout(p), TimeoutError);
      await rejects(c.createPayout(q), TimeoutError);
      const base = { merchant_id: MERCHANT, site_id: p.site_id, amount: p.amount, currency: p.currency, site_login: p.site_login };
      assert.equal(await deliver({ ...base, invoice_id: 'inv-p', request_id: p.request_id, status: 'success' }), 200);
      assert.equal(await deliver({ ...base, invoice_id: 'inv-q', request_id: q.request_id, status: 'fail' }), 200);
      assert.equal(await deliver({ ...base, invoice_id: 'inv-x', request_id: 'never-sent', status: 'success' }), 200);
      assert.deepEqual(statuses, ['success', 'fail', 'success']);
      assert.equal((await c.createPayout(p)).invoice_id, 'inv-p');
      assert.equal(await ledger.get(keyOf(q)), undefined);
      assert.equal(await ledger.get(JSON.stringify([MERCHANT, p.site_id, 'never-sent'])), undefined);

      await ledger.claim(JSON.stringify([MERCHANT, 3, 'busy']), { token: 't', fingerprint: '', leaseMs: 60_000 });
      assert.equal(await deliver({ ...base, site_id: 3, invoice_id: 'inv-b', request_id: 'busy', status: 'fail' }), 500);
    });
  });
}

test('a bad payoutLedger option is a ConfigError for the client and the callback handler', () => {
  const base = { baseUrl: 'http://127.0.0.1:9', merchantId: MERCHANT, secret: SECRET };
  assert.throws(() => new PaymentClient({ ...base, payoutLedger: {} as never }), ConfigError);
  assert.throws(() => createCallbackHandler({ secret: SECRET, onStatus: () => undefined, payoutLedger: 5 as never }), ConfigError);
});

test('a Redis that does not answer within commandTimeoutMs, or a client not connected: PayoutLedgerError, nothing sent', async () => {
  const s = await service(happyService);
  const pauser = await connectedClient(redisServer.url);
  const ledger = new RedisPayoutLedger(redis, { prefix: 'paused:', commandTimeoutMs: 200 });
  const p = payout();
  await pauser.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
  const e = await rejects(client(s.url, ledger).createPayout(p), PayoutLedgerError);
  assert.equal(e.outcomeUnknown, false);
  assert.equal(s.requests.length, 0);
  // The claim was already on its way and runs once Redis wakes up; the release sent after it runs next,
  // so the request_id is not held in flight for the lease.
  await pauser.sendCommand(['CLIENT', 'UNPAUSE']);
  await pauser.quit();
  assert.equal(await ledger.get(keyOf(p)), undefined);

  const never = createClient({ url: redisServer.url });
  await rejects(client(s.url, new RedisPayoutLedger(never)).createPayout(payout()), PayoutLedgerError);
  assert.equal(s.requests.length, 0);
});
