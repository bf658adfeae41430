// The demo's timeline (demo/telemetry.ts): a paid order, through the demo backend on a real sandbox,
// prints its attempt's steps (token, service call, form shown, paid, callback, settled) with durations,
// drawn from pay-form's spans and the page's reported steps (demo/page-steps.ts) by the in-process
// exporter, each request under the demo's SERVER span. The page's reports are sent here as
// demo/checkout.ts sends them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DemoBackend } from '../../../demo/backend.js';
import { demoTelemetry } from '../../../demo/telemetry.js';
import { MERCHANT, press, sandbox, SECRET } from '../sandbox/helpers.js';
import { startServer } from '../../support/servers/loopback.js';

const printed: string[] = [];
const telemetry = demoTelemetry({}, (line) => printed.push(line));
let backend: DemoBackend | undefined;
const server = await startServer((req, res) => telemetry.request(req, res, () => backend?.middleware(req, res, () => res.writeHead(418).end())));
const sb = await sandbox({ callbackUrl: `${server.url}/api/checkout/callback` });
backend = new DemoBackend({ baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: server.url });
after(async () => {
  backend?.close();
  await sb.close();
  await server.close();
  await telemetry.close();
});

/** A shopper's new order: its cookie, its reference and a POST in that shopper's name. */
async function newOrder() {
  const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };
  const first = await fetch(`${server.url}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { order_ref } = (await first.json()) as { order_ref: string };
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
  return { cookie, order_ref, post };
}

const step = (name: string) => `${name} \\+\\d+ ms \\(\\d+\\.\\d ms\\)`;

test("a paid order's attempt is printed as one timeline: token, service call, form shown, paid, callback, settled", async () => {
  const { cookie, order_ref, post } = await newOrder();
  const { key, attempt } = (await (await post('/api/checkout/token', { order_ref })).json()) as { key: string; attempt: string };
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'form_shown', ms: 120 })).status, 204);
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'paid', ms: 2500 })).status, 204);
  assert.equal(printed.length, 0, 'nothing is printed before the order settles');
  assert.equal((await press(sb, key, 'pay')).status, 303);
  await sb.callbacksIdle();
  const status = await fetch(`${server.url}/api/checkout/status?order_ref=${order_ref}&attempt=${attempt}`, { headers: { cookie } });
  assert.equal(status.status, 200);

  assert.equal(printed.length, 1);
  const steps = ['token', 'service call', 'form shown', 'paid', 'callback', 'settled'];
  assert.match(printed[0]!, new RegExp(`order ${order_ref} attempt ${attempt}: ${steps.map(step).join(' → ')}$`));
  // The page's steps last what the page measured.
  assert.match(printed[0]!, /form shown \+\d+ ms \(120\.0 ms\) → paid \+\d+ ms \(2500\.0 ms\)/);
});

test('a settled attempt whose page never said it paid (a redirect, a closed tab) is printed without that step', async () => {
  printed.length = 0;
  const { cookie, order_ref, post } = await newOrder();
  const { key, attempt } = (await (await post('/api/checkout/token', { order_ref })).json()) as { key: string; attempt: string };
  assert.equal((await press(sb, key, 'pay')).status, 303);
  await sb.callbacksIdle();
  assert.equal((await fetch(`${server.url}/api/checkout/status?order_ref=${order_ref}&attempt=${attempt}`, { headers: { cookie } })).status, 200);
  for (let i = 0; i < 500 && printed.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(printed.length, 1);
  assert.match(printed[0]!, new RegExp(`attempt ${attempt}: ${['token', 'service call', 'callback', 'settled'].map(step).join(' → ')}$`));
});

test("the page's step report takes only a known step and a duration, for the shopper's own order once it has an attempt", async () => {
  const { order_ref, post } = await newOrder();
  assert.equal((await post('/api/checkout/page-steps', { order_ref, step: 'form_shown', ms: 5 })).status, 404, 'no attempt yet');
  await post('/api/checkout/token', { order_ref });
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
  const notJson = await fetch(`${server.url}/api/checkout/page-steps`, { method: 'POST', body: '{' });
  assert.equal(notJson.status, 400);
  const stranger = await fetch(`${server.url}/api/checkout/page-steps`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_ref, step: 'paid', ms: 5 }),
  });
  assert.equal(stranger.status, 404, "another shopper's order is as unknown as one never made");
});
