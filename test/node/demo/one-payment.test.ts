// The demo shop keeps one order, one payment (docs/demo.md): a second tab on an order gets the same
// form, two shoppers paying the same fixed catalogue order each pay a copy of their own (never handed
// from one to the other), and a payment on a key the shop no longer hands out is logged as
// "extra payment: refund". The demo backend on node:http against the real sandbox.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DemoBackend, type CallbackLogEntry } from '../../../demo/backend.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { MERCHANT, SECRET } from '../../support/constants.js';
import { startServer, type Loopback } from '../../support/servers/loopback.js';
import { pay } from '../../support/servers/attempt-shop.js';

const closers: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/**
 * The demo backend on loopback, with a sandbox that calls it back. A status request waits 200 ms for its
 * 204 (25 s in the demo): the tests ask only once the callback was handled, and a 204 is what they look for.
 */
async function shop(keyLifetimeMs?: number): Promise<{ url: string; sb: Sandbox }> {
  let backend: DemoBackend | undefined;
  const server: Loopback = await startServer((req, res) => backend?.middleware(req, res, () => res.writeHead(418).end()));
  const sb = await startSandbox({ merchantId: MERCHANT, secret: SECRET, callbackUrl: `${server.url}/api/checkout/callback` });
  backend = new DemoBackend({
    baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: server.url, statusWaitMs: 200,
    ...(keyLifetimeMs === undefined ? {} : { keyLifetimeMs }),
  });
  const made = backend;
  closers.push(() => server.close(), () => sb.close(), () => made.close());
  return { url: server.url, sb };
}

const choices = { product: 'grinder', currency: 'USD', method: 'card', language: 'EN', redirect_mode: false };

/** A new shopper's cookie, and the order it created. */
async function shopper(url: string): Promise<{ cookie: string; order: string }> {
  const response = await fetch(`${url}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
  const { order_ref } = (await response.json()) as { order_ref: string };
  return { cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] as string, order: order_ref };
}

async function token(url: string, cookie: string, order: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/api/checkout/token`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ order_ref: order }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const status = (url: string, cookie: string, order: string) => fetch(`${url}/api/checkout/status?order_ref=${order}`, { headers: { cookie } });
const log = async (url: string, cookie: string) => (await (await fetch(`${url}/api/checkout/callbacks`, { headers: { cookie } })).json()) as CallbackLogEntry[];

test('a second tab on an order gets the same form; paying in one, the other tab’s attempt answers paid', async () => {
  const { url, sb } = await shop();
  const alice = await shopper(url);
  const [one, two] = [await token(url, alice.cookie, alice.order), await token(url, alice.cookie, alice.order)];
  assert.deepEqual(two, one);
  assert.equal(await pay(sb, one.body['key']), 303, 'paid, and sent to the return page');
  await sb.callbacksIdle();
  const answer = await fetch(`${url}/api/checkout/status?order_ref=${alice.order}&attempt=${String(two.body['attempt'])}`, { headers: { cookie: alice.cookie } });
  assert.equal(((await answer.json()) as { status: string }).status, 'success');
  assert.equal((await token(url, alice.cookie, alice.order)).status, 409);
});

test('a fixed catalogue order is never handed from one shopper to another: each pays a copy of their own', async () => {
  const { url, sb } = await shop();
  const [alice, bob] = [await shopper(url), await shopper(url)];
  const forAlice = await token(url, alice.cookie, 'demo-beans-usd');
  const forBob = await token(url, bob.cookie, 'demo-beans-usd');
  assert.notEqual(forBob.body['key'], forAlice.body['key'], "bob never gets alice's form");
  assert.deepEqual((await token(url, alice.cookie, 'demo-beans-usd')).body, forAlice.body, 'alice asked again: her own form');
  assert.equal(await pay(sb, forBob.body['key']), 303);
  await sb.callbacksIdle();
  assert.equal((await status(url, alice.cookie, 'demo-beans-usd')).status, 204, "bob's payment is not alice's");
  assert.equal((await status(url, bob.cookie, 'demo-beans-usd')).status, 200);
  assert.deepEqual((await log(url, alice.cookie)).length, 0, "alice's log has none of bob's callbacks");
  assert.deepEqual((await log(url, bob.cookie)).map((e) => [e.order_ref, e.status]), [['demo-beans-usd', 'success']]);
  assert.equal((await token(url, alice.cookie, 'demo-beans-usd')).status, 200, 'alice may still pay hers');
});

test('a payment on a key the shop no longer hands out (its lifetime over, a new one taken) is logged as "extra payment: refund"', async () => {
  const { url, sb } = await shop(200);
  const alice = await shopper(url);
  const old = await token(url, alice.cookie, alice.order);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const now = await token(url, alice.cookie, alice.order);
  assert.notEqual(now.body['key'], old.body['key']);
  assert.equal(await pay(sb, old.body['key']), 303, 'the service still takes the old key: a forced extra payment');
  await sb.callbacksIdle();
  assert.deepEqual((await log(url, alice.cookie)).map((e) => [e.status, e.note]), [['success', 'extra payment: refund']]);
  assert.equal((await status(url, alice.cookie, alice.order)).status, 204, 'the order is not paid by it');
  assert.equal((await token(url, alice.cookie, alice.order)).status, 200, 'and may still be paid');
});
