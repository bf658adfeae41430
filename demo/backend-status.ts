// The demo shop's verified outcomes: the callback handler records each order's verified status in
// the store, and `GET /api/checkout/status?order_ref=…` (createStatusHandler) answers it to the shopper
// whose cookie created the order, and to no other.
import { createStatusHandler, MemoryCallbackStore, type CallbackStore, type FetchHandler } from '../src/server/index.js';
import { shopperOf } from './shoppers.js';

export type { CallbackStore };

/** The order `orderRef` as this shopper may see it, with the reference the store knows it by. */
export type OrderOwner = (orderRef: string, shopper: string | undefined) => { request_ref: string; shopper: string | undefined } | undefined;

export class SettledOrders {
  readonly store: CallbackStore;
  readonly handler: FetchHandler;

  constructor(owner: OrderOwner, store: CallbackStore = new MemoryCallbackStore(), waitMs?: number) {
    this.store = store;
    this.handler = createStatusHandler({
      store,
      ...(waitMs === undefined ? {} : { waitMs }),
      // The order's own reference, not the one the browser sent: the store is read by the shop's key.
      authorize: (request, orderRef) => {
        const shopper = shopperOf(request.headers.get('cookie'));
        const order = owner(orderRef, shopper);
        return order !== undefined && shopper !== undefined && order.shopper === shopper ? order.request_ref : null;
      },
    });
  }
}
