// The demo shop's backend routes on a real node:http server, against a real sandbox: the browser
// names orders, never amounts; unknown orders and forged callbacks are refused; the log is live, and
// each shopper's own; what the backend keeps is bounded.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sign } from '../../../src/service/signature.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { DemoBackend, type DemoBackendConfig } from '../../../demo/backend.js';
import { serviceFromEnv, shopOriginFromEnv } from '../../../demo/backend-plugin.js';
import { MERCHANT, press, sandbox, SECRET } from '../sandbox/helpers.js';
import { startServer } from '../../support/servers/loopback.js';

const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };

interface Shop {
  sb: Sandbox;
  backend: DemoBackend;
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/** The demo backend on a node:http server, with a sandbox that calls it back. */
async function startShop(config: Partial<DemoBackendConfig> = {}): Promise<Shop> {
  let backend: DemoBackend | undefined;
  const server = await startServer((req, res) => backend?.middleware(req, res, () => res.writeHead(418).end()));
  const sb = await sandbox({ callbackUrl: `${server.url}/api/checkout/callback` });
  backend = new DemoBackend({
    baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: server.url, ...config,
  });
  const shopBackend = backend;
  return {
    sb,
    backend: shopBackend,
    server: server.server,
    url: server.url,
    close: async () => {
      shopBackend.close();
      await sb.close();
      await server.close();
    },
  };
}

let shop: Shop;
let sb: Sandbox;
let backend: DemoBackend;
let server: http.Server;
let url: string;
/** The shopper of most tests: the cookie the shop set on a first request. */
let alice: string;

/** A new shopper: the cookie the shop gives on a first request (an order here), to send with each later one. */
async function newShopper(at = url): Promise<string> {
  const first = await fetch(`${at}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
  const cookie = first.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^pay_form_demo_shopper=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  return cookie.split(';')[0] as string;
}

before(async () => {
  shop = await startShop();
  ({ sb, backend, server, url } = shop);
  alice = await newShopper();
});
after(() => shop.close());

const post = (path: string, body: unknown, cookie = alice, at = url) =>
  fetch(`${at}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
const get = (path: string, cookie = alice) => fetch(`${url}${path}`, { headers: { cookie } });

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
  const events = await get('/api/checkout/events');
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
      {
        host: '127.0.0.1', port, path: '/api/checkout/token', method: 'POST',
        headers: { host, cookie: alice, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
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

/** Reads an event stream until `until` shows in it or the stream has been quiet for `quietMs`. */
async function streamed(cookie: string, until: string, quietMs = 300): Promise<string> {
  const reader = (await get('/api/checkout/events', cookie)).body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes(until)) {
    const chunk = await Promise.race([reader.read(), new Promise<undefined>((resolve) => setTimeout(resolve, quietMs))]);
    if (chunk === undefined || chunk.done) break;
    text += chunk.value;
  }
  await reader.cancel();
  return text;
}

test("another shopper sees nothing of an order: not its callback (list or stream), not a token, not its status", async (t) => {
  const bob = await newShopper();
  const order = (await (await post('/api/checkout/orders', choices)).json()) as { order_ref: string };
  const { key } = (await (await post('/api/checkout/token', { order_ref: order.order_ref })).json()) as { key: string };
  await press(sb, key, 'pay');
  await sb.callbacksIdle();
  const ref = order.order_ref;
  const mine = (await (await get('/api/checkout/callbacks')).json()) as Array<{ order_ref: string }>;
  assert.deepEqual(mine.filter((c) => c.order_ref === ref).length, 1, 'the shopper sees their own callback');
  assert.match(await streamed(alice, ref), new RegExp(ref));

  const reads = {
    callbacks: JSON.stringify(await (await get('/api/checkout/callbacks', bob)).json()),
    stream: await streamed(bob, ref),
    anonymous: JSON.stringify(await (await fetch(`${url}/api/checkout/callbacks`)).json()),
  };
  for (const [what, text] of Object.entries(reads)) assert.doesNotMatch(text, new RegExp(ref), what);
  const token = await post('/api/checkout/token', { order_ref: ref }, bob);
  assert.equal(token.status, 404, 'no token (and no "already paid") for another shopper\'s order');
  assert.equal((await get(`/api/checkout/status?order_ref=${ref}`, bob)).status, 404);
  assert.equal((await get(`/api/checkout/status?order_ref=${ref}`)).status, 200);
  t.diagnostic(`another shopper's reads of a paid order: ${Object.keys(reads).length + 2} tried, 0 showed it`);
});

test('orders and the callback log are bounded: past maxOrders the oldest go, fixed orders stay', async (t) => {
  const small = await startShop({ maxOrders: 3 });
  try {
    const carol = await newShopper(small.url);
    const refs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const order = (await (await post('/api/checkout/orders', choices, carol, small.url)).json()) as { order_ref: string };
      refs.push(order.order_ref);
      const { key } = (await (await post('/api/checkout/token', { order_ref: order.order_ref }, carol, small.url)).json()) as { key: string };
      await press(small.sb, key, 'pay');
    }
    await small.sb.callbacksIdle();
    const kept = refs.filter((ref) => small.backend.orders.get(ref) !== undefined);
    assert.deepEqual(kept, refs.slice(2), 'the two oldest orders were forgotten');
    assert.equal((await post('/api/checkout/token', { order_ref: refs[0] }, carol, small.url)).status, 404);
    assert.notEqual(small.backend.orders.get('demo-beans-usd'), undefined, 'a fixed order is never forgotten');
    assert.deepEqual(small.backend.callbacks().map((c) => c.order_ref), refs.slice(2), 'the log keeps the latest 3');
    t.diagnostic(`maxOrders 3, 5 orders paid: ${kept.length} orders and ${small.backend.callbacks().length} log entries kept`);
  } finally {
    await small.close();
  }
});
