// The demo's shop as the demo's telemetry tests need it: the demo backend (demo/backend.ts) on a real
// sandbox, served on loopback under the demo's telemetry (demo/telemetry.ts), and a shopper's order
// taken to paid the way demo/checkout.ts and the sandbox's form take it.
import { DemoBackend } from '../../../demo/backend.js';
import type { DemoTelemetry } from '../../../demo/telemetry.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { MERCHANT, press, sandbox, SECRET } from '../../node/sandbox/helpers.js';
import { startServer } from './loopback.js';

export interface DemoShop {
  url: string;
  sb: Sandbox;
  /** A shopper's new order: its cookie, its reference and a POST in that shopper's name. */
  newOrder(): Promise<ShopperOrder>;
  close(): Promise<void>;
}

export interface ShopperOrder {
  cookie: string;
  order_ref: string;
  post(path: string, body: unknown): Promise<Response>;
  /** The token route's answer for this order: the form's key and the attempt it started. */
  token(): Promise<{ key: string; attempt: string }>;
  /** Pay in the sandbox's form, wait for its callback, and answer the page's status request. */
  pay(key: string, attempt: string): Promise<Response>;
}

export async function startDemoShop(telemetry: DemoTelemetry): Promise<DemoShop> {
  let backend: DemoBackend | undefined;
  const server = await startServer((req, res) => telemetry.request(req, res, () => backend?.middleware(req, res, () => res.writeHead(418).end())));
  const sb = await sandbox({ callbackUrl: `${server.url}/api/checkout/callback` });
  backend = new DemoBackend({ baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: server.url });

  async function newOrder(): Promise<ShopperOrder> {
    const choices = { product: 'grinder', currency: 'VND', method: 'sbp', language: 'KZ', redirect_mode: false };
    const first = await fetch(`${server.url}/api/checkout/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(choices) });
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const { order_ref } = (await first.json()) as { order_ref: string };
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
    return {
      cookie,
      order_ref,
      post,
      token: async () => (await (await post('/api/checkout/token', { order_ref })).json()) as { key: string; attempt: string },
      async pay(key, attempt) {
        const pressed = await press(sb, key, 'pay');
        if (pressed.status !== 303) throw new Error(`the sandbox's Pay answered ${pressed.status}`);
        await sb.callbacksIdle();
        return fetch(`${server.url}/api/checkout/status?order_ref=${order_ref}&attempt=${attempt}`, { headers: { cookie } });
      },
    };
  }

  return {
    url: server.url,
    sb,
    newOrder,
    async close() {
      backend?.close();
      await sb.close();
      await server.close();
    },
  };
}
