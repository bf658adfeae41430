// The demo shop's verified outcomes: the callback handler records each order's verified status in
// the store, and `GET /api/checkout/status?order_ref=…` (createStatusHandler) answers it to the shopper
// whose cookie created the order, and to no other.
import { createStatusHandler, MemoryCallbackStore, type CallbackStore, type FetchHandler } from '../src/server/index.js';
import { shopperOf } from './shoppers.js';

export type { CallbackStore };

/** An order as the status endpoint needs it: its canonical reference and its shopper. */
export type OrderOwner = (orderRef: string) => { order_ref: string; shopper: string | undefined } | undefined;

export class SettledOrders {
  readonly store: CallbackStore;
  readonly handler: FetchHandler;

  constructor(owner: OrderOwner, store: CallbackStore = new MemoryCallbackStore()) {
    this.store = store;
    this.handler = createStatusHandler({
      store,
      // The order's own reference, not the one the browser sent: the store is read by the shop's key.
      authorize: (request, orderRef) => {
        const order = owner(orderRef);
        const shopper = shopperOf(request.headers.get('cookie'));
        return order !== undefined && shopper !== undefined && order.shopper === shopper ? order.order_ref : null;
      },
    });
  }
}
