// One merchant server in its own process, for the multi-process tests and bench/settle: the
// callback handler (POST) and the status handler (GET) of pay-form/server on a loopback port, on a
// RedisCallbackStore (REDIS_URL) or a MemoryCallbackStore. It prints JSON lines: {"port"} once
// listening, {"call": key} as each onStatus starts. Settings come from the environment:
// REDIS_URL, PREFIX, SECRET, LEASE_MS, TIMEOUT_MS, WAIT_MS, HANG_FIRST (the first onStatus never
// settles), NO_WATCH (the status handler is not told of news: only its re-reads find a status).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';
import {
  createCallbackHandler,
  createStatusHandler,
  MemoryCallbackStore,
  RedisCallbackStore,
  toNodeHandler,
  type CallbackStore,
} from '../../src/server/index.js';

const env = process.env;
const say = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const leaseMs = Number(env['LEASE_MS'] ?? 60_000);
const onStatusTimeoutMs = Number(env['TIMEOUT_MS'] ?? 30_000);

let store: CallbackStore;
if (env['REDIS_URL']) {
  // Commands fail at once while Redis is away, rather than queue: the handler answers 503.
  const client = createClient({ url: env['REDIS_URL'], disableOfflineQueue: true });
  client.on('error', () => undefined);
  await client.connect();
  store = new RedisCallbackStore(client, { prefix: env['PREFIX'] ?? 'pay-form:', leaseMs, onError: () => undefined });
} else {
  store = new MemoryCallbackStore({ leaseMs });
}

if (env['NO_WATCH'] === '1') {
  const { watch: _deaf, ...rest } = store;
  const full = store;
  store = { ...rest, begin: (k) => full.begin(k), complete: (k, o) => full.complete(k, o), fail: (k) => full.fail(k), status: (id) => full.status!(id) };
}

let hang = env['HANG_FIRST'] === '1';
const callback = toNodeHandler(
  createCallbackHandler({
    secret: env['SECRET'] ?? 'worker-secret',
    store,
    onStatusTimeoutMs,
    onStatus: (payload) => {
      say({ call: JSON.stringify([payload.invoice_id, payload.status]) });
      if (hang) {
        hang = false;
        return new Promise<void>(() => undefined);
      }
    },
  }),
);
const status = toNodeHandler(
  createStatusHandler({ store, authorize: (_request, orderRef) => !orderRef.startsWith('other-'), waitMs: Number(env['WAIT_MS'] ?? 25_000) }),
);

const server = http.createServer((req, res) => (req.method === 'POST' ? callback(req, res) : status(req, res)));
server.listen(0, '127.0.0.1', () => say({ port: (server.address() as AddressInfo).port }));
