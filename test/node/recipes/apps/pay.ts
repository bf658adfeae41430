// The three endpoints every recipe mounts, on one store: the token endpoint the browser calls
// (<pay-form token-url>), the callback endpoint the payment service calls, and the status endpoint the
// element asks for the verified outcome (<pay-form status-url>). Runs on any Fetch-API runtime.
import {
  MemoryCallbackStore,
  PaymentClient,
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  type CallbackStore,
  type FetchHandler,
  type TokenParams,
} from 'pay-form/server';

export interface PayConfig {
  baseUrl: string;
  merchantId: string;
  secret: string;
}

export interface PayHandlers {
  token: FetchHandler;
  callback: FetchHandler;
  status: FetchHandler;
}

interface Order {
  params: TokenParams;
  paid: boolean;
}

// Stand-ins for your database. The browser names an order; what it costs comes from your data.
const orders = new Map<string, Order>([
  ['order-1', { params: { site_login: 'alice', site_id: 1, request_id: 'order-1', amount: 2490, currency: 'USD' }, paid: false }],
  ['order-2', { params: { site_login: 'bob', site_id: 1, request_id: 'order-2', amount: 990, currency: 'EUR' }, paid: false }],
  ['order-3', { params: { site_login: 'carol', site_id: 1, request_id: 'order-3', amount: 1500, currency: 'USD' }, paid: false }],
]);

/** The three settings, from wherever the runtime keeps its environment. */
export function payConfig(env: Record<string, string | undefined>): PayConfig {
  const { PAY_BASE_URL: baseUrl, PAY_MERCHANT_ID: merchantId, PAY_SECRET: secret } = env;
  if (!baseUrl || !merchantId || !secret) throw new Error('Set PAY_BASE_URL, PAY_MERCHANT_ID and PAY_SECRET');
  return { baseUrl, merchantId, secret };
}

/** With several server processes, pass one shared store (a RedisCallbackStore: docs/stores.md). */
export function payHandlers(config: PayConfig, store: CallbackStore = new MemoryCallbackStore()): PayHandlers {
  const client = new PaymentClient({ baseUrl: config.baseUrl, merchantId: config.merchantId, secret: config.secret });
  return {
    token: createTokenHandler({
      client,
      store,
      resolve: (_request, { order_ref }) => {
        const order = order_ref === undefined ? undefined : orders.get(order_ref);
        return order === undefined ? null : order.paid ? 'paid' : order.params;
      },
    }),
    // Each verified callback once, with your order reference; a paid order stays paid.
    callback: createCallbackHandler({
      secret: config.secret,
      store,
      onStatus: ({ status }, { orderRef }) => {
        const order = orderRef === undefined ? undefined : orders.get(orderRef);
        if (order !== undefined && status === 'success') order.paid = true;
        console.log(`order ${orderRef}: ${status}`);
      },
    }),
    // Put your session check in authorize: whether this browser may see this order.
    status: createStatusHandler({ store, authorize: (_request, orderRef) => orders.has(orderRef) }),
  };
}

/** The routes, for runtimes that hand over one fetch function. */
export function payRoutes(handlers: PayHandlers): FetchHandler {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/pay-token') return handlers.token(request);
    if (pathname === '/api/pay-callback') return handlers.callback(request);
    if (pathname === '/api/pay-status') return handlers.status(request);
    return new Response('Not found', { status: 404 });
  };
}
