// The two endpoints every recipe mounts: the token endpoint the browser calls (<pay-form token-url>)
// and the callback endpoint the payment service calls. Runs on any Fetch-API runtime.
import { PaymentClient, createCallbackHandler, createTokenHandler, type CallbackPayload, type FetchHandler, type TokenParams } from 'pay-form/server';

export interface PayConfig {
  baseUrl: string;
  merchantId: string;
  secret: string;
}

// Stand-ins for your database. The browser names an order; what it costs comes from your data.
const orders = new Map<string, TokenParams>([
  ['order-1', { site_login: 'alice', site_id: 1, request_id: 'order-1', amount: 2490, currency: 'USD' }],
]);

async function setOrderStatus(payload: CallbackPayload): Promise<void> {
  console.log(`order ${payload.request_id}: ${payload.status}`);
}

/** The three settings, from wherever the runtime keeps its environment. */
export function payConfig(env: Record<string, string | undefined>): PayConfig {
  const { PAY_BASE_URL: baseUrl, PAY_MERCHANT_ID: merchantId, PAY_SECRET: secret } = env;
  if (!baseUrl || !merchantId || !secret) throw new Error('Set PAY_BASE_URL, PAY_MERCHANT_ID and PAY_SECRET');
  return { baseUrl, merchantId, secret };
}

export function payHandlers(config: PayConfig): { token: FetchHandler; callback: FetchHandler } {
  const client = new PaymentClient({ baseUrl: config.baseUrl, merchantId: config.merchantId, secret: config.secret });
  return {
    token: createTokenHandler({ client, resolve: (_request, { order_ref }) => (order_ref === undefined ? null : orders.get(order_ref)) }),
    // At most one onStatus per callback; with several server processes, pass a shared `store` (server.md).
    callback: createCallbackHandler({ secret: config.secret, onStatus: setOrderStatus }),
  };
}

/** The routes, for runtimes that hand over one fetch function. */
export function payRoutes(handlers: { token: FetchHandler; callback: FetchHandler }): FetchHandler {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/pay-token') return handlers.token(request);
    if (pathname === '/api/pay-callback') return handlers.callback(request);
    return new Response('Not found', { status: 404 });
  };
}
