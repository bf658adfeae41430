// MemoryPayoutLedger at its bound: the oldest paid entries go first, in the order they were paid, and
// in-flight and unknown ones never go. The ledger keeps a cursor between evictions (OldestFirst,
// shared with MemoryCallbackStore) instead of scanning from the first key each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryPayoutLedger, type PayoutEntry } from '../../../../src/server/index.js';

const LEASE = { fingerprint: 'fp', leaseMs: 60_000 };
const invoice = (id: string) => ({ invoice_id: id });

test('a long mixed run matches the plain rule: past maxEntries the oldest paid entry goes, never another state', async () => {
  // The model: the rule written the obvious way, a scan from the first key each time an entry is paid.
  const model = new Map<string, { state: PayoutEntry['state']; token: string }>();
  const max = 4;
  const paid = (key: string, token: string) => {
    model.delete(key);
    model.set(key, { state: 'paid', token });
    for (const [k, held] of model) {
      if (model.size <= max) break;
      if (held.state === 'paid' && k !== key) model.delete(k);
    }
  };
  const ledger = new MemoryPayoutLedger({ maxEntries: max });
  let seed = 5;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let step = 0; step < 5000; step++) {
    const key = `k${random(12)}`;
    const held = model.get(key);
    const token = `t${step}`;
    switch (random(5)) {
      case 0:
        assert.equal((await ledger.claim(key, { token, ...LEASE }))?.state, held?.state, `step ${step}: claim ${key}`);
        if (!held) model.set(key, { state: 'in-flight', token });
        break;
      case 1:
        if (held?.state === 'in-flight' || held?.state === 'unknown') {
          await ledger.finish(key, held.token, { state: 'paid', invoice: invoice(token) });
          paid(key, held.token);
        }
        break;
      case 2:
        if (held?.state === 'in-flight') {
          await ledger.finish(key, held.token, { state: 'unknown', reason: 'time-out' });
          held.state = 'unknown';
        }
        break;
      case 3:
        await ledger.resolve(key, { status: 'paid', invoice: invoice(token), source: 'merchant', create: true });
        // The merchant's word settles neither a paid entry nor one in flight.
        if (held?.state !== 'paid' && held?.state !== 'in-flight') paid(key, token);
        break;
      default:
        await ledger.resolve(key, { status: 'not-paid' });
        if (held !== undefined && held.state !== 'in-flight') model.delete(key);
    }
    assert.equal(ledger.size, model.size, `step ${step}: size`);
    for (let i = 0; i < 12; i++) {
      assert.equal((await ledger.get(`k${i}`))?.state, model.get(`k${i}`)?.state, `step ${step}: k${i}`);
    }
  }
});

test('evictions behind claims that stay do not walk over those claims again each time', async () => {
  // Every step of every Map iteration in the process is counted while the ledger evicts: a scan from
  // the first key would step over all the unknown entries at the front for each eviction.
  const unknown = 50;
  const payouts = 200;
  const max = 60;
  const ledger = new MemoryPayoutLedger({ maxEntries: max });
  for (let i = 0; i < unknown; i++) {
    await ledger.claim(`u${i}`, { token: `u${i}`, ...LEASE });
    await ledger.finish(`u${i}`, `u${i}`, { state: 'unknown', reason: 'time-out' });
  }
  const mapIterator = Object.getPrototypeOf(new Map().keys()) as { next: (this: Iterator<unknown>) => IteratorResult<unknown> };
  const next = mapIterator.next;
  let steps = 0;
  mapIterator.next = function (this: Iterator<unknown>) {
    steps++;
    return next.call(this);
  };
  try {
    for (let i = 0; i < payouts; i++) {
      await ledger.claim(`p${i}`, { token: `p${i}`, ...LEASE });
      await ledger.finish(`p${i}`, `p${i}`, { state: 'paid', invoice: invoice(`p${i}`) });
    }
  } finally {
    mapIterator.next = next;
  }
  assert.equal(ledger.size, max);
  for (let i = 0; i < unknown; i++) assert.equal((await ledger.get(`u${i}`))?.state, 'unknown');
  for (let i = 0; i < payouts; i++) {
    assert.equal((await ledger.get(`p${i}`))?.state, i < payouts - (max - unknown) ? undefined : 'paid', `p${i}`);
  }
  // Each eviction steps once past what it evicts, plus one walk over the unknown entries (a scan from
  // the start would take about unknown × evictions = 9,500 steps here). At least one step per
  // eviction: the count itself works on this Node.
  const evictions = payouts - (max - unknown);
  assert.ok(steps >= evictions && steps <= 2 * (unknown + payouts), `${steps} iteration steps for ${evictions} evictions`);
});
