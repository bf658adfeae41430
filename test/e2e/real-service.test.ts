// Environment variables alone point the demo at another service: here a sandbox the test starts with
// its own merchant and secret stands for "a real service", and the demo must use it, not its own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { startSandbox } from '../../src/sandbox/index.js';
import { startDemo } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITE_BIN = `${ROOT}node_modules/vite/bin/vite.js`;

// The demo keeps each shopper's orders apart by a cookie it sets on first contact: this shopper keeps it,
// as a browser would.
let shopper = '';
async function send(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), cookie: shopper } });
  shopper = response.headers.getSetCookie()[0]?.split(';')[0] ?? shopper;
  return response;
}
const post = (url: string, body: unknown) =>
  send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('PAY_FORM_BASE_URL / _MERCHANT_ID / _SECRET: orders are paid at that service', async () => {
  const service = await startSandbox({ merchantId: 'real-shop', secret: 'real-secret', redirectMode: [9] });
  const demo = await startDemo({
    PAY_FORM_BASE_URL: service.url,
    PAY_FORM_MERCHANT_ID: 'real-shop',
    PAY_FORM_SECRET: 'real-secret',
    PAY_FORM_SITE_ID: '4',
    PAY_FORM_REDIRECT_SITE_ID: '9',
  });
  try {
    const config = (await (await send(`${demo.url}/api/checkout/config`)).json()) as Record<string, unknown>;
    assert.deepEqual(config, { base_url: service.url, sandbox: false, redirect_mode_available: true });

    const choices = { product: 'mug', currency: 'USD', method: 'card', language: 'EN', redirect_mode: false };
    const order = (await (await post(`${demo.url}/api/checkout/orders`, choices)).json()) as { order_ref: string };
    const token = (await (await post(`${demo.url}/api/checkout/token`, { order_ref: order.order_ref })).json()) as { key: string };
    const invoice = service.invoices().find((i) => i.key === token.key);
    assert.equal(invoice?.merchant_id, 'real-shop');
    assert.equal(invoice?.site_id, 4);
    assert.equal(invoice?.amount, 1250);

    const redirecting = (await (await post(`${demo.url}/api/checkout/orders`, { ...choices, redirect_mode: true })).json()) as { order_ref: string };
    const answer = (await (await post(`${demo.url}/api/checkout/token`, { order_ref: redirecting.order_ref })).json()) as Record<string, unknown>;
    assert.match(String(answer.redirect_url), new RegExp(`^${service.url}/api/jsapi/open/`));
  } finally {
    await demo.close();
    await service.close();
  }
});

/** Runs `npm start`'s command (the Vite CLI) with only these PAY_FORM_* variables; resolves when it exits. */
async function npmStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAY_FORM_')));
  const child = spawn(process.execPath, [VITE_BIN, '--port', '0'], {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, output };
}

test('some but not all of the three variables: `npm start` stops at once and says what is missing', async () => {
  const { code, output } = await npmStart({ PAY_FORM_BASE_URL: 'http://127.0.0.1:1' });
  assert.equal(code, 1);
  assert.match(output, /missing PAY_FORM_MERCHANT_ID, PAY_FORM_SECRET/);
});

test('a sandbox port that is not a number: `npm start` stops at once', async () => {
  const { code, output } = await npmStart({ PAY_FORM_SANDBOX_PORT: 'eighty' });
  assert.equal(code, 1);
  assert.match(output, /PAY_FORM_SANDBOX_PORT must be a whole number/);
});
