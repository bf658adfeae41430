// The demo's timeline (demo/telemetry.ts): a paid order, through the demo backend on a real sandbox,
// prints its attempt's steps (token, service call, form shown, paid, callback, settled) with durations,
// drawn from pay-form's spans and the page's reported steps (demo/page-steps.ts) by the in-process
// exporter, each request under the demo's SERVER span. The page's reports are sent here as
// demo/checkout.ts sends them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { demoTelemetry } from '../../../demo/telemetry.js';
import { startDemoShop } from '../../support/servers/demo-shop.js';

const printed: string[] = [];
const telemetry = demoTelemetry({}, (line) => printed.push(line));
const shop = await startDemoShop(telemetry);
after(async () => {
  await shop.close();
  await telemetry.close();
});

const step = (name: string) => `${name} \\+\\d+ ms \\(\\d+\\.\\d ms\\)`;

test("a paid order's attempt is printed as one timeline: token, service call, form shown, paid, callback, settled", async () => {
  const order = await shop.newOrder();
  const { order_ref, post } = order;
  const { key, attempt } = await order.token();
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'form_shown', ms: 120 })).status, 204);
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'paid', ms: 2500 })).status, 204);
  assert.equal(printed.length, 0, 'nothing is printed before the order settles');
  assert.equal((await order.pay(key, attempt)).status, 200);

  assert.equal(printed.length, 1);
  const steps = ['token', 'service call', 'form shown', 'paid', 'callback', 'settled'];
  assert.match(printed[0]!, new RegExp(`order ${order_ref} attempt ${attempt}: ${steps.map(step).join(' → ')}$`));
  // The page's steps last what the page measured.
  assert.match(printed[0]!, /form shown \+\d+ ms \(120\.0 ms\) → paid \+\d+ ms \(2500\.0 ms\)/);
});

test('a settled attempt whose page never said it paid (a redirect, a closed tab) is printed without that step', async () => {
  printed.length = 0;
  const order = await shop.newOrder();
  const { key, attempt } = await order.token();
  assert.equal((await order.pay(key, attempt)).status, 200);
  for (let i = 0; i < 500 && printed.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(printed.length, 1);
  assert.match(printed[0]!, new RegExp(`attempt ${attempt}: ${['token', 'service call', 'callback', 'settled'].map(step).join(' → ')}$`));
});

test("the page's step report takes only a known step and a duration, for the shopper's own order once it has an attempt", async () => {
  const order = await shop.newOrder();
  const { order_ref, post } = order;
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'form_shown', ms: 5 })).status, 404, 'no attempt yet');
  await order.token();
  for (const body of [
    { order_ref, step: 'shipped', ms: 5 },
    { order_ref, step: 'constructor', ms: 5 },
    { order_ref, step: 'paid', ms: -1 },
    { order_ref, step: 'paid', ms: '5' },
    { order_ref, step: 'paid', ms: 1e9 },
    { order_ref, step: 'paid' },
  ]) {
    const answer = await post('/api/checkout/page-steps', body);
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(((await answer.json()) as { success: boolean }).success, false);
  }
  const notJson = await fetch(`${shop.url}/api/checkout/page-steps`, { method: 'POST', body: '{' });
  assert.equal(notJson.status, 400);
  const stranger = await fetch(`${shop.url}/api/checkout/page-steps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_ref, step: 'paid', ms: 5 }),
  });
  assert.equal(stranger.status, 404, "another shopper's order is as unknown as one never made");
});
