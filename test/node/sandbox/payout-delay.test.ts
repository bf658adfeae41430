// payoutDelayMs: the sandbox makes the payout at once and answers late, so a client with a shorter
// time-out gets a TimeoutError for a payout that exists (and whose callback still follows).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PaymentClient, TimeoutError, type PayoutParams } from '../../../src/server/index.js';
import { SandboxOptionsError } from '../../../src/sandbox/index.js';
import { MERCHANT, payoutFields, sandbox, SECRET, startReceiver } from './helpers.js';

const { merchant_id: _m, ...params } = payoutFields();
const payout = params as unknown as PayoutParams;
// Long enough for the request to reach the sandbox on a busy machine (a client that gives up before
// its request is read has paid nothing), short of the sandbox's late answer.
const SENT_WITHIN_MS = 1000;

test('a late payout answer times the client out, yet the payout exists and its callback is delivered', async () => {
  const receiver = await startReceiver();
  const sb = await sandbox({ payoutDelayMs: 3000, callbackUrl: receiver.url });
  try {
    const client = new PaymentClient({ baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, timeoutMs: SENT_WITHIN_MS });
    const error = await client.createPayout(payout).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof TimeoutError && error.outcomeUnknown);
    const made = sb.invoices().filter((i) => i.kind === 'payout');
    assert.deepEqual(made.map((i) => i.request_id), [payout.request_id]);
    await receiver.received(1);
    assert.equal(receiver.bodies[0]?.['request_id'], payout.request_id);
    assert.deepEqual(sb.requests().map((r) => [r.path, r.status]), [['/api/payout/', 200]]);
  } finally {
    await sb.close();
    await receiver.close();
  }
});

test('without payoutDelayMs the same client gets its invoice; a negative delay is refused', async () => {
  const sb = await sandbox();
  try {
    const client = new PaymentClient({ baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET });
    assert.equal((await client.createPayout(payout)).request_id, payout.request_id);
  } finally {
    await sb.close();
  }
  await assert.rejects(sandbox({ payoutDelayMs: -1 }), SandboxOptionsError);
});
