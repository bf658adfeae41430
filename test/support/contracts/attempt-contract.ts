// The attempt rules every CallbackStore keeps (docs/service-contract.md, Attempts), one test per rule:
// at most one payable attempt per order, its key handed out again while it is live, and each success
// judged once as the order's payment or an extra one. Run on MemoryCallbackStore
// (test/node/server/stores/memory-callback-store.test.ts), RedisCallbackStore on one redis-server
// (stores/redis-callback-store.test.ts) and on each topology (support/redis/topology-suite.ts). `make` answers another server on the
// same store each call (for memory: the same store).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttemptRequest, CallbackRecord, CallbackStore } from '../../../src/server/index.js';
import { setTimeout as sleep } from 'node:timers/promises';

let ids = 0;
const newId = () => `t${String(++ids).padStart(11, '0')}`.slice(-12);

/** A token request's ask at `amount` USD: the key lives `lifetimeMs`, obtaining it may take 5 s. */
export const ask = (amount: number, lifetimeMs = 60_000, obtainMs = 5_000): AttemptRequest => ({
  attempt: newId(), amount: String(amount), currency: 'USD', lifetimeMs, obtainMs,
});

/** A verified callback as the callback handler reads it. */
export const paid = (order_ref: string, attempt: string, invoice_id: string, amount = 100, status = 'success'): CallbackRecord => ({
  order_ref, attempt, invoice_id, status, amount: String(amount), currency: 'USD',
});

/** Claims, judges and finishes one callback, as the callback handler does: answers the verdict. */
export async function deliver(store: CallbackStore, callback: CallbackRecord) {
  assert.equal(await store.claim(callback), 'claimed');
  const verdict = await store.judge(callback);
  await store.finish({ ...callback, verdict });
  return verdict;
}

/** Starts an attempt and keeps its key, as the token handler does: answers its id. */
async function started(store: CallbackStore, order: string, amount = 100): Promise<string> {
  const start = await store.startAttempt(order, ask(amount));
  assert.equal(start.state, 'started');
  if (start.state !== 'started') throw new Error('not started');
  assert.equal(await store.keepToken(order, start.attempt, { key: `key-${start.attempt}` }), 'kept');
  return start.attempt;
}

export function attemptContract(make: () => Promise<CallbackStore>, prefix: string): void {
  const order = (name: string) => `${prefix}${name}`;

  test('attempts: 20 asks on two servers at once start one attempt; the others wait, then get its key', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-twenty');
    const starts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).startAttempt(o, ask(2000))));
    const first = starts.filter((s) => s.state === 'started');
    assert.equal(first.length, 1, 'one ask starts the attempt');
    const attempt = first[0]!.state === 'started' ? first[0]!.attempt : '';
    assert.deepEqual(new Set(starts.map((s) => s.state)), new Set(['started', 'obtaining']));
    assert.ok(starts.every((s) => s.state !== 'paid' && s.attempt === attempt), 'every ask names the one attempt');
    assert.equal(await a.keepToken(o, attempt, { key: 'the-key' }), 'kept');
    assert.deepEqual(await b.startAttempt(o, ask(2000)), { state: 'live', attempt, token: { key: 'the-key' } });
  });

  test('attempts: a fail ends the attempt, a new ask starts another; a success pays and every ask then answers paid', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-fail');
    const first = await started(a, o);
    assert.deepEqual(await deliver(b, paid(o, first, 'inv-f1', 100, 'fail')), { verdict: 'attempt' });
    const second = await started(a, o);
    assert.notEqual(second, first);
    assert.equal(await a.status(o), undefined, "the new attempt has no outcome: the earlier fail is not its answer");
    assert.deepEqual(await deliver(b, paid(o, second, 'inv-f2')), { verdict: 'payment' });
    assert.deepEqual(await a.status(o, first), { status: 'success', invoice_id: 'inv-f2' });
    assert.deepEqual(await a.startAttempt(o, ask(100)), { state: 'paid' });
  });

  test('attempts: a second invoice paid on a paid order is an extra payment, naming the invoice that paid', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-twice');
    const attempt = await started(a, o);
    assert.deepEqual(await deliver(a, paid(o, attempt, 'inv-t1')), { verdict: 'payment' });
    assert.deepEqual(await deliver(b, paid(o, attempt, 'inv-t2')), { verdict: 'extra', reason: 'order-paid', paidBy: 'inv-t1' });
    assert.deepEqual(await a.status(o, attempt), { status: 'success', invoice_id: 'inv-t1' }, 'the attempt answers the payment');
    // Judged again (a redelivery after onStatus failed): the same answers.
    assert.deepEqual(await b.judge(paid(o, attempt, 'inv-t1')), { verdict: 'payment' });
    assert.deepEqual(await a.judge(paid(o, attempt, 'inv-t2')), { verdict: 'extra', reason: 'order-paid', paidBy: 'inv-t1' });
  });

  test('attempts: another amount supersedes the live attempt; paying the old key is extra and the new attempt stays pending', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-amount');
    const old = await started(a, o, 100);
    const now = await started(b, o, 99_900);
    assert.notEqual(now, old);
    assert.deepEqual(await deliver(a, paid(o, old, 'inv-a1', 100)), { verdict: 'extra', reason: 'superseded', paidBy: undefined });
    assert.deepEqual(await a.status(o, old), { status: 'success', invoice_id: 'inv-a1', extra: true });
    assert.equal(await a.status(o, now), undefined, 'the new attempt is still pending');
    assert.equal(await a.status(o), undefined, 'the order is unpaid');
    assert.deepEqual(await b.startAttempt(o, ask(99_900)), { state: 'live', attempt: now, token: { key: `key-${now}` } });
  });

  test('attempts: a success at another amount or currency than its attempt is extra, not the payment', async () => {
    const [a] = [await make()];
    const o = order('o-terms');
    const attempt = await started(a, o, 100);
    assert.deepEqual(await deliver(a, { ...paid(o, attempt, 'inv-c1'), currency: 'EUR' }), { verdict: 'extra', reason: 'other-terms', paidBy: undefined });
    assert.deepEqual(await a.status(o, attempt), { status: 'success', invoice_id: 'inv-c1', extra: true });
    assert.equal((await a.startAttempt(o, ask(100))).state, 'started', 'the order is unpaid: a new attempt starts');
  });

  test('attempts: a callback naming no attempt started (a payout, a forged suffix) is foreign and pays nothing', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-foreign');
    const attempt = await started(a, o);
    assert.deepEqual(await deliver(b, paid(o, '', 'inv-p1')), { verdict: 'foreign' });
    assert.deepEqual(await deliver(b, paid(o, 'zzzzzzzzzzzz', 'inv-p2')), { verdict: 'foreign' });
    assert.equal(await a.status(o), undefined);
    assert.deepEqual(await a.startAttempt(o, ask(100)), { state: 'live', attempt, token: { key: `key-${attempt}` } });
  });

  test('attempts: a key past its lifetime is not handed out; the next ask starts a new attempt and the old one is superseded', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-expired');
    const first = await a.startAttempt(o, ask(100, 150));
    assert.equal(first.state, 'started');
    const old = first.state === 'started' ? first.attempt : '';
    assert.equal(await a.keepToken(o, old, { key: 'old-key' }), 'kept');
    assert.equal((await b.startAttempt(o, ask(100, 150))).state, 'live');
    await sleep(250);
    const next = await b.startAttempt(o, ask(100, 150));
    assert.equal(next.state, 'started');
    assert.equal(await a.keepToken(o, old, { key: 'late' }), 'gone');
    assert.deepEqual(await deliver(a, paid(o, old, 'inv-e1')), { verdict: 'extra', reason: 'superseded', paidBy: undefined });
  });

  test('attempts: a decline ends the attempt when it is judged, before onStatus is done: a retry gets a new attempt', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-declined');
    const attempt = await started(a, o);
    const declined = paid(o, attempt, 'inv-d1', 100, 'fail');
    assert.equal(await b.claim(declined), 'claimed');
    assert.deepEqual(await b.judge(declined), { verdict: 'attempt' });
    // onStatus still runs on b: nothing is finished yet.
    const retry = await a.startAttempt(o, ask(100));
    assert.equal(retry.state, 'started');
    assert.notEqual(retry.state === 'started' ? retry.attempt : '', attempt);
  });

  test('attempts: a key obtained while the order got paid is not kept; a dropped attempt lets the next ask start at once', async () => {
    const [a, b] = [await make(), await make()];
    const o = order('o-inflight');
    const attempt = await started(a, o);
    const late = paid(o, attempt, 'inv-i1');
    assert.equal(await b.claim(late), 'claimed');
    assert.deepEqual(await b.judge(late), { verdict: 'payment' });
    assert.equal(await a.keepToken(o, attempt, { key: 'again' }), 'paid');
    assert.deepEqual(await a.startAttempt(o, ask(100)), { state: 'paid' });
    const o2 = order('o-dropped');
    const start = await a.startAttempt(o2, ask(100));
    assert.equal(start.state, 'started');
    await a.dropAttempt(o2, start.state === 'started' ? start.attempt : '');
    assert.equal((await b.startAttempt(o2, ask(100))).state, 'started');
  });
}
