// `npm run start:cluster` without a browser: the page's backend (B, Vite) and the callbacks' backend
// (A, its own process) share only a real Redis; an order paid at the sandbox is settled on B by the
// callback A verified, and only for the shopper whose cookie created the order.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestCluster, type TestCluster } from '../../support/cluster.js';

let cluster: TestCluster;
before(async () => {
  cluster = await startTestCluster();
});
after(() => cluster?.close());

test('a callback that reaches backend A settles the order on backend B, for its shopper only', async () => {
  const config = { base_url: cluster.serviceOrigin };
  const created = await fetch(`${cluster.url}/api/checkout/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product: 'mug', currency: 'USD', method: 'card', language: 'EN', redirect_mode: false }),
  });
  assert.equal(created.status, 201);
  const cookie = (created.headers.get('set-cookie') ?? '').split(';')[0] as string;
  assert.match(cookie, /^pay_form_demo_shopper=/);
  const { order_ref } = (await created.json()) as { order_ref: string };
  const status = (who: string | undefined) =>
    fetch(`${cluster.url}/api/checkout/status?order_ref=${order_ref}`, { headers: who ? { cookie: who } : {} });

  const token = (await (await fetch(`${cluster.url}/api/checkout/token`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ order_ref }),
  })).json()) as { key: string };
  const waiting = status(cookie);
  const paid = await fetch(`${config.base_url}/api/jsapi/open/${encodeURIComponent(token.key)}/pay`, {
    method: 'POST', headers: { origin: config.base_url, 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
  });
  assert.ok(paid.status < 400);

  const settled = await waiting;
  assert.equal(settled.status, 200);
  const verified = (await settled.json()) as { status: string; invoice_id: string };
  assert.equal(verified.status, 'success');
  // Backend A took the callback (and printed it); backend B, serving the page, never saw it.
  assert.deepEqual(cluster.callbacksAtA().map((c) => c.order_ref), [order_ref]);
  assert.deepEqual(await (await fetch(`${cluster.url}/api/checkout/callbacks`, { headers: { cookie } })).json(), []);
  // Backend A serves no callback log: it knows no shopper to show one to.
  assert.equal((await fetch(`${cluster.callbackUrl}s`)).status, 404);
  // Another shopper, or none, is told nothing about this order.
  assert.equal((await status('pay_form_demo_shopper=someone-else')).status, 404);
  assert.equal((await status(undefined)).status, 404);
});
