// What "sent once" means for a payouts-through-failover run, asserted the same way on every topology
// and client library.
import assert from 'node:assert/strict';
import type { PayoutsRun } from './payouts-through-failover.js';

export function assertExactlyOnce<F>(run: PayoutsRun<F>): void {
  assert.deepEqual(run.sent, run.ids.map(() => 200), 'one request per request_id reached the sandbox, none repeated');
  assert.deepEqual([...run.invoices.keys()].sort(), [...run.ids].sort());
  assert.equal(run.results.length, 300);
  const answered = new Set<string>();
  for (const r of run.results) {
    if (r.ok) {
      assert.equal(r.invoice_id, run.invoices.get(r.request_id), `the stored invoice for ${r.request_id}`);
      answered.add(r.request_id);
    } else {
      // A repeat while the first call is still out, or once its outcome could not be recorded.
      assert.equal(r.name, 'DuplicatePayoutError', JSON.stringify(r));
      assert.equal(r.mismatch, false);
    }
  }
  assert.equal(answered.size, 50, 'every request_id was answered with its invoice at least once');
}
