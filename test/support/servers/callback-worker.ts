// One merchant server in its own process, for the multi-process tests and bench/settle: the
// callback handler (POST) and the status handler (GET) of pay-form/server on a loopback port, on a
// RedisCallbackStore (REDIS_URL, or REDIS_SPEC: a test/support/redis/redis-clients.ts RedisSpec as JSON, for
// any client and topology) or a MemoryCallbackStore. With SERVICE_URL (and MERCHANT_ID) it is a
// whole shop: POST /token is the token handler on the same store, GET /checkout?order=… a page with
// <pay-form> (the built dist/pay-form.min.js, at /pay-form.min.js) asking /token and /status. It prints
// JSON lines: {"port"} once listening, {"call": key} as each onStatus starts; GET /calls answers every
// such key so far, in order (a line on the pipe can still be on its way when the delivery's answer has
// come, so counts are asked for, not read off the pipe). Settings come from the
// environment:
// REDIS_URL, PREFIX, SECRET, LEASE_MS, TIMEOUT_MS, WAIT_MS, HANG_FIRST (the first onStatus never
// returns), SLOW_MS (each onStatus takes this long), NO_WATCH (the status handler is not told of news:
// only its re-reads find a status).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import {
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  MemoryCallbackStore,
  PaymentClient,
  RedisCallbackStore,
  toNodeHandler,
  type CallbackStore,
} from '../../../src/server/index.js';
import { connectRedis, type RedisSpec } from '../redis/redis-clients.js';

const env = process.env;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const leaseMs = Number(env['LEASE_MS'] ?? 60_000);
const onStatusTimeoutMs = Number(env['TIMEOUT_MS'] ?? 30_000);

let store: CallbackStore;
const spec: RedisSpec | undefined = env['REDIS_SPEC']
  ? (JSON.parse(env['REDIS_SPEC']) as RedisSpec)
  : env['REDIS_URL'] ? { library: 'node-redis', target: { topology: 'standalone', url: env['REDIS_URL'] } } : undefined;
if (spec) {
  // Commands fail at once while Redis is away, rather than queue: the handler answers 503.
  const redis = await connectRedis(spec);
  store = new RedisCallbackStore(redis.client, { prefix: env['PREFIX'] ?? 'pay-form:', leaseMs, onError: () => undefined });
} else {
  store = new MemoryCallbackStore({ leaseMs });
}

if (env['NO_WATCH'] === '1') {
  const { watch: _deaf, ...rest } = store;
  const full = store;
  store = {
    ...rest,
    claim: (c) => full.claim(c),
    finish: (c) => full.finish(c),
    release: (c) => full.release(c),
    judge: (c) => full.judge(c),
    status: (order, attempt) => full.status(order, attempt),
    startAttempt: (order, request) => full.startAttempt(order, request),
    keepToken: (order, attempt, token) => full.keepToken(order, attempt, token),
    dropAttempt: (order, attempt) => full.dropAttempt(order, attempt),
  };
}

let hang = env['HANG_FIRST'] === '1';
const calls: string[] = [];
const slowMs = Number(env['SLOW_MS'] ?? 0);
const callback = toNodeHandler(
  createCallbackHandler({
    secret: env['SECRET'] ?? 'worker-secret',
    store,
    onStatusTimeoutMs,
    onStatus: async (payload) => {
      const call = JSON.stringify([payload.invoice_id, payload.status]);
      calls.push(call);
      say({ call });
      if (hang) {
        hang = false;
        return new Promise<void>(() => undefined);
      }
      // SLOW_MS: onStatus takes this long (a slow database write).
      if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    },
  }),
);
const status = toNodeHandler(
  createStatusHandler({ store, authorize: (_request, orderRef) => !orderRef.startsWith('other-'), waitMs: Number(env['WAIT_MS'] ?? 25_000) }),
);

const serviceUrl = env['SERVICE_URL'];
const token = serviceUrl
  ? toNodeHandler(
      createTokenHandler({
        client: new PaymentClient({ baseUrl: serviceUrl, merchantId: env['MERCHANT_ID'] ?? '', secret: env['SECRET'] ?? 'worker-secret' }),
        store,
        resolve: (_request, { order_ref }) =>
          order_ref ? { site_login: 'shopper', site_id: 1, request_id: order_ref, amount: 1500, currency: 'USD' } : null,
      }),
    )
  : undefined;

/** The shop's checkout page for one order (letters, digits and dashes only). */
function checkout(res: http.ServerResponse, order: string): void {
  if (!serviceUrl || !/^[A-Za-z0-9-]+$/.test(order)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title><script type="module" src="/pay-form.min.js"></script></head>
<body><pay-form base-url="${serviceUrl}" token-url="/token" status-url="/status" order-ref="${order}"></pay-form></body></html>`);
}

/** The built element, read on the first request for it (every checkout page asks). */
let bundle: Promise<Buffer> | undefined;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://worker.invalid');
  if (req.method === 'POST') return (url.pathname === '/token' && token ? token : callback)(req, res);
  if (url.pathname === '/calls') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(calls));
  if (url.pathname === '/checkout') return checkout(res, url.searchParams.get('order') ?? '');
  if (url.pathname === '/pay-form.min.js') {
    bundle ??= readFile(new URL('../../../dist/pay-form.min.js', import.meta.url));
    bundle.then(
      (code) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(code),
      () => res.writeHead(404).end(),
    );
    return;
  }
  status(req, res);
});
// PORT: a port chosen before the sandbox that calls this worker back starts (else a free one).
server.listen(Number(env['PORT'] ?? 0), '127.0.0.1', () => say({ port: (server.address() as AddressInfo).port }));
