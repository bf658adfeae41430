// The status answer as the element and the stores read it (src/service/checkout.ts): two non-empty
// strings, and `extra: true` on an extra payment (docs/service-contract.md, Attempts); nothing else goes on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStatusAnswer } from '../../../src/service/checkout.js';

test('parseStatusAnswer: extra: true is passed on, any other extra and any other field dropped; a bad shape is null', () => {
  assert.deepEqual(parseStatusAnswer({ status: 'success', invoice_id: 'inv-1', extra: true }), { status: 'success', invoice_id: 'inv-1', extra: true });
  for (const extra of [false, 'true', 1, null, {}]) {
    assert.deepEqual(parseStatusAnswer({ status: 'success', invoice_id: 'inv-1', extra, note: '<b>' }), { status: 'success', invoice_id: 'inv-1' }, JSON.stringify(extra));
  }
  for (const bad of [null, 'success', [], { status: '', invoice_id: 'i' }, { status: 'success' }, { status: 'success', invoice_id: 5, extra: true }]) {
    assert.equal(parseStatusAnswer(bad), null, JSON.stringify(bad));
  }
});
