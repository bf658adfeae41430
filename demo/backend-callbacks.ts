// Backend A of `npm run start:cluster`: another demo backend, in its own process, that takes the
// sandbox's callbacks on the store in the Redis its environment names (backend-redis.ts). It shares
// nothing with the page's backend but Redis (and the sandbox's secret, PAY_FORM_SANDBOX_SECRET). Prints
// {"port"} once listening, then {"callback"} for each callback it verifies: it serves no callback log,
// since it knows no shopper to show one to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHECKOUT_PREFIX, DemoBackend } from './backend.js';
import { demoRedisStore, redisFromEnv } from './backend-redis.js';

const spec = redisFromEnv(process.env);
const secret = process.env.PAY_FORM_SANDBOX_SECRET;
if (!spec || !secret) throw new Error('backend-callbacks needs a Redis (REDIS_URL, REDIS_CLUSTER or REDIS_SENTINELS) and PAY_FORM_SANDBOX_SECRET');

const redis = await demoRedisStore(spec);
// This backend never asks the service for anything: it only verifies and records callbacks.
const backend = new DemoBackend({
  baseUrl: 'http://127.0.0.1:9', merchantId: 'unused', secret, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: 'http://127.0.0.1:9', store: redis.store,
  onCallback: (callback) => process.stdout.write(`${JSON.stringify({ callback })}\n`),
});
const ROUTES = new Set([`POST ${CHECKOUT_PREFIX}callback`]);
const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://demo.invalid').pathname;
  if (!ROUTES.has(`${req.method} ${path}`)) return void res.writeHead(404).end();
  backend.middleware(req, res, () => res.writeHead(404).end());
});
server.listen(Number(process.env.PAY_FORM_CALLBACK_PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    void redis.close().then(() => process.exit(0));
  });
}
