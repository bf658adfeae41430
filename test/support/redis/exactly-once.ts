// What "sent once" means for a payouts-through-failover run, asserted the same way on every topology
// and client library.
import assert from 'node:assert/strict';
import type { PayoutsRun } from './payouts-through-failover.js';

export function assertExactlyOnce<F>(run: PayoutsRun<F>): void {
  assert.deepEqual(run.sent, run.ids.map(() => 200), 'one request per request_id reached the sandbox, none repeated');
  assert.deepEqual([...run.invoices.keys()].sort(), [...run.ids].sort());
  assert.equal(run.results.length, 300);
  // Every call ends with the payout's invoice: the sender's own answer, or the ledger's for a repeat
  // (the workers call again while another call holds the request_id, or while Redis cannot claim).
  for (const r of run.results) {
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.invoice_id, run.invoices.get(r.request_id), `the stored invoice for ${r.request_id}`);
  }
}
