// The payout ledger's contract (src/server/payouts/payout-ledger.ts), one test per rule, for any
// ledger: payout-ledger.test.ts runs it on MemoryPayoutLedger and RedisPayoutLedger, and the topology
// tests on RedisPayoutLedger through each Redis client shape. Call it inside a describe().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PayoutLedger } from '../../../src/server/index.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** `make` answers a fresh ledger (its own keys), with `ttlMs` when given. */
export function ledgerContract(make: (options?: { ttlMs?: number }) => PayoutLedger): void {
  test('claim, repeat, finish: only the holder of the claim settles it', async () => {
    const ledger = make();
    const claim = { token: 'a', fingerprint: 'fp', leaseMs: 60_000 };
    assert.equal(await ledger.claim('k', claim), undefined);
    assert.deepEqual(await ledger.claim('k', { ...claim, token: 'b' }), { state: 'in-flight', fingerprint: 'fp' });
    await ledger.finish('k', 'b', { state: 'free' });
    assert.equal((await ledger.get('k'))?.state, 'in-flight');
    await ledger.finish('k', 'a', { state: 'paid', invoice: { invoice_id: 'i-1', amount: 2 ** 53 - 1 } });
    assert.deepEqual(await ledger.get('k'), { state: 'paid', fingerprint: 'fp', invoice: { invoice_id: 'i-1', amount: 2 ** 53 - 1 }, source: 'answer' });
    await ledger.finish('k', 'a', { state: 'free' });
    assert.equal((await ledger.get('k'))?.state, 'paid');
  });

  test('a claim whose lease ran out reads as unknown, never free; its late answer still settles it', async () => {
    const ledger = make();
    assert.equal(await ledger.claim('k', { token: 'a', fingerprint: 'fp', leaseMs: 30 }), undefined);
    await sleep(80);
    assert.deepEqual(await ledger.claim('k', { token: 'b', fingerprint: 'fp', leaseMs: 30 }), { state: 'unknown', fingerprint: 'fp', reason: 'lease-expired' });
    assert.deepEqual(await ledger.get('k'), { state: 'unknown', fingerprint: 'fp', reason: 'lease-expired' });
    await ledger.finish('k', 'a', { state: 'paid', invoice: { invoice_id: 7 } });
    assert.equal((await ledger.get('k'))?.state, 'paid');
  });

  test('resolve: paid settles in-flight and unknown, creates only when asked; not-paid frees all but a live claim', async () => {
    const ledger = make();
    const invoice = { invoice_id: 'i-9' };
    assert.equal(await ledger.resolve('none', { status: 'paid', invoice, source: 'callback', create: false }), undefined);
    assert.deepEqual(await ledger.resolve('new', { status: 'paid', invoice, source: 'merchant', create: true }), { state: 'paid', fingerprint: '', invoice, source: 'merchant' });
    await ledger.claim('k', { token: 't', fingerprint: 'fp', leaseMs: 60_000 });
    assert.equal((await ledger.resolve('k', { status: 'not-paid' }))?.state, 'in-flight');
    await ledger.finish('k', 't', { state: 'unknown', reason: 'timeout' });
    assert.equal(await ledger.resolve('k', { status: 'not-paid' }), undefined);
    await ledger.claim('k', { token: 't', fingerprint: 'fp', leaseMs: 60_000 });
    await ledger.resolve('k', { status: 'paid', invoice, source: 'callback', create: false });
    await ledger.finish('k', 't', { state: 'unknown', reason: 'timeout' });
    assert.deepEqual(await ledger.get('k'), { state: 'paid', fingerprint: 'fp', invoice, source: 'callback' });
    assert.equal((await ledger.resolve('k', { status: 'not-paid', invoiceId: 'other' }))?.state, 'paid');
    assert.equal(await ledger.resolve('k', { status: 'not-paid', invoiceId: 'i-9' }), undefined);
  });

  test('paid entries are forgotten after ttlMs; unknown ones are not', async () => {
    const ledger = make({ ttlMs: 40 });
    await ledger.claim('p', { token: 't', fingerprint: '', leaseMs: 60_000 });
    await ledger.finish('p', 't', { state: 'paid', invoice: { invoice_id: 1 } });
    await ledger.claim('u', { token: 't', fingerprint: '', leaseMs: 60_000 });
    await ledger.finish('u', 't', { state: 'unknown', reason: 'timeout' });
    await sleep(100);
    assert.equal(await ledger.get('p'), undefined);
    assert.equal((await ledger.get('u'))?.state, 'unknown');
  });
}
