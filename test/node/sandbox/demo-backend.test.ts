// The demo shop's backend routes on a real node:http server, against a real sandbox: the browser
// names orders, never amounts; unknown orders and forged callbacks are refused; the log is live.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sign } from '../../../src/service/signature.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { DemoBackend } from '../../../demo/backend.js';
import { serviceFromEnv, shopOriginFromEnv } from '../../../demo/backend-plugin.js';
import { MERCHANT, press, sandbox, SECRET } from './helpers.js';

let sb: Sandbox;
let backend: DemoBackend;
let server: http.Server;
let url: string;

before(async () => {
  server = http.createServer((req, res) => backend.middleware(req, res, () => res.writeHead(418).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sb = await sandbox({ callbackUrl: `${url}/api/checkout/callback` });
  backend = new DemoBackend({
    baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: url,
  });
});
after(async () => {
  backend.close();
  await sb.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };

test('an order is priced by the backend; an amount sent by the browser is ignored', async () => {
  const response = await post('/api/checkout/orders', { ...choices, amount: 1 });
  assert.equal(response.status, 201);
  const order = (await response.json()) as Record<string, unknown>;
  assert.equal(order.amount, 2260600); // 89.00 USD at the demo rate of 25400 VND, no minor digits
  const token = (await (await post('/api/checkout/token', { order_ref: order.order_ref })).json()) as { key: string };
  const invoice = sb.invoices().find((i) => i.key === token.key);
  assert.equal(invoice?.amount, 2260600);
  assert.equal(invoice?.language, 'KZ');
  assert.equal(invoice?.success_url, `${url}/demo/return.html?status=success`);
});

test('bad choices are refused, every field named', async () => {
  const response = await post('/api/checkout/orders', { product: 'yacht', currency: 'GBP', method: 'card', language: 'EN', redirect_mode: 'yes' });
  assert.equal(response.status, 400);
  const body = (await response.json()) as { issues: { field: string }[] };
  assert.deepEqual(body.issues.map((i) => i.field), ['product', 'currency', 'redirect_mode']);
});

test('redirect mode is refused when the service has no redirect site', async () => {
  const response = await post('/api/checkout/orders', { ...choices, redirect_mode: true });
  assert.equal(response.status, 400);
});

test('an unknown order gets 404 from the token handler, and the sandbox is not asked', async () => {
  const before = sb.requests().length;
  const response = await post('/api/checkout/token', { order_ref: 'no-such-order' });
  assert.equal(response.status, 404);
  assert.equal(sb.requests().length, before);
});

test('a paid order: the verified callback is logged once and streamed to the page', async () => {
  const events = await fetch(`${url}/api/checkout/events`);
  assert.equal(events.headers.get('content-type'), 'text/event-stream');
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();

  const order = (await (await post('/api/checkout/orders', choices)).json()) as { order_ref: string };
  const { key } = (await (await post('/api/checkout/token', { order_ref: order.order_ref })).json()) as { key: string };
  assert.equal((await press(sb, key, 'pay')).status, 303);
  await sb.callbacksIdle();

  const logged = backend.callbacks().filter((c) => c.order_ref === order.order_ref);
  assert.deepEqual(logged.map((c) => [c.status, c.product]), [['success', 'Hand grinder']]);
  let streamed = '';
  while (!streamed.includes(order.order_ref)) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, 'the stream stays open');
    streamed += chunk.value;
  }
  assert.match(streamed, /event: callback\ndata: \{[^\n]*"status":"success"/);
  await reader.cancel();
  assert.equal(backend.orders.get(order.order_ref)?.status, 'paid');
});

test('a forged callback (wrong signature) is refused with 401 and never logged', async () => {
  const payload = { invoice_id: 'forged', request_id: 'demo-beans-usd', status: 'success' };
  const response = await post('/api/checkout/callback', { ...payload, signature: await sign(payload, 'not-the-secret') });
  assert.equal(response.status, 401);
  assert.equal(backend.callbacks().some((c) => c.invoice_id === 'forged'), false);
});

test('the config the page gets names the service, never the secret', async () => {
  const text = await (await fetch(`${url}/api/checkout/config`)).text();
  assert.deepEqual(JSON.parse(text), { base_url: sb.url, sandbox: true, redirect_mode_available: false });
  assert.doesNotMatch(text, new RegExp(SECRET));
});

test('serviceFromEnv: none set is the sandbox, all three a real service, some an error', () => {
  assert.equal(serviceFromEnv({}), undefined);
  assert.deepEqual(serviceFromEnv({ PAY_FORM_BASE_URL: 'https://pay.example', PAY_FORM_MERCHANT_ID: 'm', PAY_FORM_SECRET: 's' }), {
    baseUrl: 'https://pay.example', merchantId: 'm', secret: 's', siteId: 1, redirectSiteId: undefined,
  });
  assert.throws(() => serviceFromEnv({ PAY_FORM_SECRET: 's' }), /missing PAY_FORM_BASE_URL, PAY_FORM_MERCHANT_ID/);
  assert.throws(
    () => serviceFromEnv({ PAY_FORM_BASE_URL: 'https://p', PAY_FORM_MERCHANT_ID: 'm', PAY_FORM_SECRET: 's', PAY_FORM_SITE_ID: '0' }),
    /PAY_FORM_SITE_ID must be a whole number from 1/,
  );
});

/** A token request with a Host header of the sender's choosing (fetch will not let one be set). */
function tokenWithHost(orderRef: string, host: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const body = JSON.stringify({ order_ref: orderRef });
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/checkout/token', method: 'POST', headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.on('data', (c: Buffer) => (text += c.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

test('success_url and fail_url come from the configured shop origin, not the Host header', async () => {
  const order = (await (await post('/api/checkout/orders', choices)).json()) as { order_ref: string };
  const answer = await tokenWithHost(order.order_ref, 'evil.example');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const invoice = sb.invoices().find((i) => i.key === answer.body.key);
  assert.equal(invoice?.success_url, `${url}/demo/return.html?status=success`);
  assert.equal(invoice?.fail_url, `${url}/demo/return.html?status=fail`);
});

test('a paid order gets no second token (409), and the service is not asked for another invoice', async () => {
  const order = (await (await post('/api/checkout/orders', choices)).json()) as { order_ref: string };
  const { key } = (await (await post('/api/checkout/token', { order_ref: order.order_ref })).json()) as { key: string };
  await press(sb, key, 'pay');
  await sb.callbacksIdle();
  assert.equal(backend.orders.get(order.order_ref)?.status, 'paid');
  const invoicesBefore = sb.invoices().length;
  const again = await post('/api/checkout/token', { order_ref: order.order_ref });
  assert.equal(again.status, 409);
  assert.deepEqual(await again.json(), { success: false, message: 'Order already paid', paid: true });
  assert.equal(sb.invoices().length, invoicesBefore, 'no second invoice');
  assert.equal(backend.callbacks().filter((c) => c.order_ref === order.order_ref).length, 1, 'one success callback');
});

test('PAY_FORM_SHOP_ORIGIN: an origin is taken as it is, anything else refused', () => {
  assert.equal(shopOriginFromEnv({}), undefined);
  assert.equal(shopOriginFromEnv({ PAY_FORM_SHOP_ORIGIN: 'https://shop.example' }), 'https://shop.example');
  assert.equal(shopOriginFromEnv({ PAY_FORM_SHOP_ORIGIN: 'http://localhost:5173/' }), 'http://localhost:5173');
  for (const bad of ['shop.example', 'https://shop.example/checkout', 'javascript:alert(1)', 'http://shop.example']) {
    assert.throws(() => shopOriginFromEnv({ PAY_FORM_SHOP_ORIGIN: bad }), /PAY_FORM_SHOP_ORIGIN must be an origin/, bad);
  }
});
