// The payout ledger where the merchant, the service and Redis race a payout in flight, on
// MemoryPayoutLedger and RedisPayoutLedger (a real redis-server) against real loopback services: the
// merchant's word never replaces the answer of a payout being sent, an invoice_id is a non-empty
// string, and a claim that reaches Redis after its caller gave up is released.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DuplicatePayoutError,
  MemoryPayoutLedger,
  PayoutLedgerError,
  RedisPayoutLedger,
  ValidationError,
  type PayoutLedger,
  type PayoutParams,
} from '../../../../src/server/index.js';
import { connectedClient, startRedis, type RedisServer } from '../../../support/redis/redis.js';
import { answerSigned, clientFor, fails, happyService, MERCHANT, PAYOUT, servicesForFile, type Responder } from '../../../support/servers/service.js';
import { poll } from '../../../support/poll.js';

let redisServer: RedisServer;
let redis: Awaited<ReturnType<typeof connectedClient>>;
before(async () => {
  redisServer = await startRedis();
  redis = await connectedClient(redisServer.url);
});
after(async () => {
  await redis.quit();
  await redisServer.stop();
});
const service = servicesForFile();

let run = 0;
const KINDS: Array<[string, () => PayoutLedger]> = [
  ['MemoryPayoutLedger', () => new MemoryPayoutLedger()],
  ['RedisPayoutLedger', () => new RedisPayoutLedger(redis, { prefix: `races${++run}:` })],
];
const payout = () => ({ ...PAYOUT, request_id: `p-${crypto.randomUUID()}` }) as unknown as PayoutParams;
const keyOf = (p: PayoutParams) => JSON.stringify([MERCHANT, p.site_id, p.request_id]);

/** A service that holds each payout's answer until `release()`, then answers with `respond`. */
function held(respond: Responder): { responder: Responder; arrived: Promise<void>; release: () => void } {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen = new Promise<void>((resolve) => (arrived = resolve));
  return {
    responder: async (request, res) => {
      arrived();
      await gate;
      await respond(request, res);
    },
    arrived: seen,
    release,
  };
}

for (const [name, make] of KINDS) {
  describe(name, () => {
    test('resolvePayout paid while the payout is in flight is refused; the service\'s signed answer settles it', async (t) => {
      const ledger = make();
      const gate = held(happyService);
      const s = await service(gate.responder);
      const c = clientFor(s.url, { payoutLedger: ledger });
      const p = payout();
      const sending = c.createPayout(p);
      await gate.arrived;
      const made = { status: 'paid', invoice: { invoice_id: 'made-up', status: 'success' } } as const;
      const refused = await fails(c.resolvePayout(p, made), DuplicatePayoutError);
      assert.equal(refused.state, 'in-flight');
      assert.equal((await ledger.get(keyOf(p)))?.state, 'in-flight', 'unchanged');
      gate.release();
      const answer = await sending;
      const repeat = await c.createPayout(p);
      assert.equal(repeat.invoice_id, 'inv-1', "the service's invoice, not the merchant's");
      assert.equal(repeat.signature, answer.signature);
      assert.notEqual(repeat.signature, '');
      assert.equal(s.requests.length, 1);
      t.diagnostic(`${name}: resolvePayout paid while in flight refused (DuplicatePayoutError in-flight); the repeat answers the signed invoice`);
    });

    test('a payout refused by the service (signed 401) while the merchant said paid is free, not paid', async () => {
      const ledger = make();
      const gate = held((_request, res) => answerSigned(res, 401, { success: false, message: 'Invalid signature' }));
      const s = await service(gate.responder);
      const c = clientFor(s.url, { payoutLedger: ledger });
      const p = payout();
      const sending = c.createPayout(p).then(() => undefined, (error: unknown) => error);
      await gate.arrived;
      await fails(c.resolvePayout(p, { status: 'paid', invoice: { invoice_id: 'made-up' } }), DuplicatePayoutError);
      gate.release();
      assert.ok(await sending, 'the service refused it');
      assert.equal(await ledger.get(keyOf(p)), undefined, 'no payout was made: the request_id is free');
    });
  });
}

test('resolvePayout paid needs an invoice_id that is a non-empty string', async (t) => {
  const c = clientFor('http://127.0.0.1:9', { payoutLedger: new MemoryPayoutLedger() });
  const bad = [Number.NaN, 42, '', null, undefined, { id: 1 }];
  for (const invoice_id of bad) {
    const error = await fails(c.resolvePayout({ site_id: 1, request_id: 'r' }, { status: 'paid', invoice: { invoice_id } as never }), ValidationError);
    assert.deepEqual(error.issues, [{ path: 'outcome.invoice.invoice_id', message: 'must be a non-empty string' }]);
  }
  assert.equal((await c.resolvePayout({ site_id: 1, request_id: 'r' }, { status: 'paid', invoice: { invoice_id: 'inv-9' } }))?.state, 'paid');
  t.diagnostic(`${bad.length} invoice_ids that are not a non-empty string refused (NaN, a number, '', null, none, an object)`);
});

test('claims that reach Redis after their callers gave up are released: the next call with each request_id is sent', async (t) => {
  const ledger = new RedisPayoutLedger(redis, { prefix: 'late:', commandTimeoutMs: 200 });
  const s = await service(happyService);
  const c = clientFor(s.url, { payoutLedger: ledger });
  const payouts = Array.from({ length: 10 }, payout);
  // Redis stops answering, as under DEBUG SLEEP or a long fork: every claim times out, then lands.
  process.kill(redisServer.pid, 'SIGSTOP');
  let first: PromiseSettledResult<unknown>[];
  try {
    first = await Promise.allSettled(payouts.map((p) => c.createPayout(p)));
  } finally {
    process.kill(redisServer.pid, 'SIGCONT');
  }
  assert.ok(first.every((r) => r.status === 'rejected' && r.reason instanceof PayoutLedgerError));
  assert.equal(s.requests.length, 0, 'nothing sent');
  await redis.ping(); // after the claims and their releases, on the same connection
  const left = await Promise.all(payouts.map((p) => ledger.get(keyOf(p))));
  assert.deepEqual(left, Array(10).fill(undefined), 'no claim left in flight');
  const again = await Promise.all(payouts.map((p) => c.createPayout(p)));
  assert.ok(again.every((a) => a.invoice_id === 'inv-1'));
  assert.equal(s.requests.length, 10, 'each sent once');
  t.diagnostic(`10 payouts while Redis was stopped: 10 PayoutLedgerError, 0 sent; once it answered, ${left.filter((e) => e === undefined).length} of 10 request_ids free and 10 retries sent once each`);
});

/** `real`, but its next `lost` finish calls fail: the fault no real part shows on demand, a connection
 *  lost in a failover right after the claim ran. */
function losing(real: PayoutLedger, lost: { count: number }): PayoutLedger {
  return {
    claim: (key, claim) => real.claim(key, claim),
    finish: (key, token, outcome) => (lost.count-- > 0 ? Promise.reject(new Error('connection lost')) : real.finish(key, token, outcome)),
    resolve: (key, resolution) => real.resolve(key, resolution),
    get: (key) => real.get(key),
  };
}

test('a release, or an outcome, that cannot reach the ledger (a failover under way) is sent again until it does', async () => {
  const s = await service(happyService);
  // A real claim that lands and is refused: this Redis has no replica, so WAIT 1 answers 0.
  const refusing = new RedisPayoutLedger(redis, { prefix: 'release-again:', replicas: 1, replicaWaitMs: 20 });
  const lost = { count: 2 };
  const p = payout();
  await fails(clientFor(s.url, { payoutLedger: losing(refusing, lost) }).createPayout(p), PayoutLedgerError);
  assert.equal((await refusing.get(keyOf(p)))?.state, 'in-flight', 'the claim landed, and the first release was lost');
  assert.equal(await poll(async () => ((await refusing.get(keyOf(p))) === undefined ? 'released' : null), 'the claim released by a later attempt'), 'released');
  assert.equal(lost.count, -1, 'two attempts lost, the third taken');
  assert.equal(s.requests.length, 0);

  const real = new RedisPayoutLedger(redis, { prefix: 'record-again:' });
  const paid = payout();
  lost.count = 2;
  const invoice = await clientFor(s.url, { payoutLedger: losing(real, lost) }).createPayout(paid);
  assert.equal((await real.get(keyOf(paid)))?.state, 'in-flight', 'sent, and its first record lost');
  const recorded = await poll(async () => { const e = await real.get(keyOf(paid)); return e?.state === 'paid' ? e : null; }, 'the outcome recorded as paid');
  assert.equal(recorded?.state === 'paid' && recorded.invoice['invoice_id'], invoice.invoice_id, 'recorded by a later attempt');
  assert.equal(s.requests.length, 1);
});

test('RedisPayoutLedger: a claim that arrives after its own release (a client that resends commands after reconnecting) takes nothing', async () => {
  const ledger = new RedisPayoutLedger(redis, { prefix: 'resent:' });
  const key = keyOf(payout());
  await ledger.finish(key, 'gave-up', { state: 'free' });
  assert.deepEqual(await ledger.claim(key, { token: 'gave-up', fingerprint: 'fp', leaseMs: 60_000 }), { state: 'unknown', fingerprint: 'fp', reason: 'released' });
  assert.equal(await ledger.get(key), undefined, 'the request_id stays free');
  assert.equal(await ledger.claim(key, { token: 'next-call', fingerprint: 'fp', leaseMs: 60_000 }), undefined, 'and the next call claims it');
});
