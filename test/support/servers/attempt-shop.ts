// A shop of two backends in front of one real sandbox, for the attempt tests
// (test/node/server/http/attempts.test.ts): each backend serves /token, /status and /callback with
// the pay-form/server handlers on its own store (two RedisCallbackStores on one redis-server are two
// servers; a MemoryCallbackStore shared is one process), the sandbox's callbacks reach backend A, and
// every onStatus call is kept with what the handler judged it to be.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  PaymentClient,
  toNodeHandler,
  type CallbackOrder,
  type CallbackPayload,
  type CallbackStore,
} from '../../../src/server/index.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { MERCHANT, SECRET } from '../constants.js';
import { startServer, type Loopback } from './loopback.js';

export interface Shop {
  sandbox: Sandbox;
  backends: [string, string];
  /** Each order's amount in cents: what resolve answers, as the shop's cart says now. */
  cart: Map<string, number>;
  /** Every onStatus call, on either backend. */
  calls: Array<{ payload: CallbackPayload; order: CallbackOrder }>;
  /** A token request for the order to backend `i`. */
  token(order: string, i?: number): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A status request for the order to backend `i` (A unless told): it waits up to statusWaitMs. */
  status(order: string, attempt?: string, i?: number): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

type Route = (req: IncomingMessage, res: ServerResponse) => void;

export async function startShop(stores: [CallbackStore, CallbackStore], options: { keyLifetimeMs?: number; keyTtlMs?: number; statusWaitMs?: number } = {}): Promise<Shop> {
  const routes: Array<Record<string, Route>> = [{}, {}];
  const servers: Loopback[] = await Promise.all(
    routes.map((table) => startServer((req, res) => {
      const route = table[new URL(req.url ?? '/', 'http://shop.test').pathname];
      if (route) route(req, res);
      else res.writeHead(404).end();
    })),
  );
  const [a, b] = servers.map((s) => s.url) as [string, string];
  const sandbox = await startSandbox({
    merchantId: MERCHANT,
    secret: SECRET,
    callbackUrl: `${a}/callback`,
    callbackRetry: { initialDelayMs: 20, maxDelayMs: 80, maxAttempts: 5, timeoutMs: 5000 },
    ...(options.keyTtlMs === undefined ? {} : { keyTtlMs: options.keyTtlMs }),
  });
  const client = new PaymentClient({ baseUrl: sandbox.url, merchantId: MERCHANT, secret: SECRET, maxRetries: 0 });
  const cart = new Map<string, number>();
  const calls: Shop['calls'] = [];
  stores.forEach((store, i) => {
    const table = routes[i]!;
    table['/token'] = toNodeHandler(createTokenHandler({
      client,
      store,
      ...(options.keyLifetimeMs === undefined ? {} : { keyLifetimeMs: options.keyLifetimeMs }),
      resolve: (_request, { order_ref }) => {
        const amount = order_ref === undefined ? undefined : cart.get(order_ref);
        return amount === undefined ? null : { site_login: 'shopper', site_id: 1, request_id: order_ref!, amount, currency: 'USD' };
      },
    }));
    table['/status'] = toNodeHandler(createStatusHandler({ store, authorize: () => true, waitMs: options.statusWaitMs ?? 0 }));
    table['/callback'] = toNodeHandler(createCallbackHandler({ secret: SECRET, store, onStatus: (payload, order) => void calls.push({ payload, order }) }));
  });

  return {
    sandbox,
    backends: [a, b],
    cart,
    calls,
    async token(order, i = 0) {
      const response = await fetch(`${servers[i % 2]!.url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_ref: order }) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    async status(order, attempt, i = 0) {
      const query = new URLSearchParams({ order_ref: order, ...(attempt === undefined ? {} : { attempt }) });
      const response = await fetch(`${servers[i % 2]!.url}/status?${query}`);
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    async close() {
      await sandbox.close();
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** Presses Pay on the sandbox's form for `key`, as the browser does: the HTTP status of the answer. */
export async function pay(sandbox: Sandbox, key: unknown): Promise<number> {
  const response = await fetch(`${sandbox.url}/api/jsapi/open/${encodeURIComponent(String(key))}/pay`, {
    method: 'POST',
    headers: { origin: sandbox.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}
