// The demo shop's verified outcomes: the callback handler records each order's verified status in
// the store, and `GET /api/checkout/status?order_ref=…` (createStatusHandler) answers it to the page
// that created the order, and to no other: orders are tied to a cookie set when they are created.
import { createStatusHandler, MemoryCallbackStore, type CallbackStore, type FetchHandler } from '../src/server/index.js';

export type { CallbackStore };

const COOKIE = 'pay_form_demo_shopper';

function shopperOf(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === COOKIE && value) return value;
  }
  return undefined;
}

export class SettledOrders {
  readonly store: CallbackStore;
  readonly handler: FetchHandler;
  /** order_ref → the shopper cookie that created it (this backend's memory: the page's backend). */
  readonly #owners = new Map<string, string>();

  constructor(store: CallbackStore = new MemoryCallbackStore()) {
    this.store = store;
    this.handler = createStatusHandler({
      store,
      authorize: (request, orderRef) => {
        const shopper = shopperOf(request);
        return shopper !== undefined && this.#owners.get(orderRef) === shopper;
      },
    });
  }

  /** Ties a newly created order (a 201 with order_ref) to the shopper's cookie, setting one if needed. */
  async remember(request: Request, response: Response): Promise<Response> {
    if (response.status !== 201) return response;
    const order = (await response.clone().json()) as { order_ref?: unknown };
    if (typeof order.order_ref !== 'string') return response;
    const shopper = shopperOf(request) ?? crypto.randomUUID();
    this.#owners.set(order.order_ref, shopper);
    const headers = new Headers(response.headers);
    headers.append('set-cookie', `${COOKIE}=${shopper}; Path=/; HttpOnly; SameSite=Lax`);
    return new Response(response.body, { status: response.status, headers });
  }
}
