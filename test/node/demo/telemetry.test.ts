// The demo's timeline (demo/telemetry.ts): a paid order, through the demo backend on a real sandbox,
// prints its attempt's steps (token, service call, callback, settled) with durations, drawn from
// pay-form's spans by the in-process exporter, each request under the demo's SERVER span.
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

test("a paid order's attempt is printed as one timeline: token, service call, callback, settled", async () => {
  const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };
  const first = await fetch(`${server.url}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { order_ref } = (await first.json()) as { order_ref: string };
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
  const { key, attempt } = (await (await post('/api/checkout/token', { order_ref })).json()) as { key: string; attempt: string };
  assert.equal(printed.length, 0, 'nothing is printed before the order settles');
  assert.equal((await press(sb, key, 'pay')).status, 303);
  await sb.callbacksIdle();
  const status = await fetch(`${server.url}/api/checkout/status?order_ref=${order_ref}&attempt=${attempt}`, { headers: { cookie } });
  assert.equal(status.status, 200);

  assert.equal(printed.length, 1);
  const step = (name: string) => `${name} \\+\\d+ ms \\(\\d+\\.\\d ms\\)`;
  assert.match(printed[0]!, new RegExp(`order ${order_ref} attempt ${attempt}: ${['token', 'service call', 'callback', 'settled'].map(step).join(' → ')}$`));
});
