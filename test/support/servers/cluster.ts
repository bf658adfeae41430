// The cluster demo (`npm run start:cluster`) for a test file: on the Redis given, else its own of the
// asked topology (one redis-server by default), the demo's two backends on free ports, and no
// PAY_FORM_* or REDIS_* settings from the caller's shell.
import assert from 'node:assert/strict';
import { startCluster, type Cluster, type LocalTopology } from '../../../demo/cluster.js';
import type { RedisSpec } from '../redis/redis-clients.js';

export interface TestCluster extends Cluster {
  /** The sandbox's origin, as the page's config names it. */
  serviceOrigin: string;
}

export async function startTestCluster(options: { topology?: LocalTopology; redis?: RedisSpec } = {}): Promise<TestCluster> {
  for (const name of Object.keys(process.env)) if (/^(PAY_FORM|REDIS)_/.test(name) && name !== 'REDIS_SERVER') delete process.env[name];
  process.env.PAY_FORM_SANDBOX_PORT = '0';
  const cluster = await startCluster({ port: 0, ...options });
  const config = (await (await fetch(`${cluster.url}/api/checkout/config`)).json()) as { base_url: string };
  return { ...cluster, serviceOrigin: config.base_url.replace(/\/$/, '') };
}

/** An order paid at the sandbox: the callback reaches backend A, the page's waiting status request on
 *  backend B answers the verified status, and only to the shopper whose cookie created the order. */
export async function settlesAcrossBackends(cluster: TestCluster): Promise<void> {
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
}
