// The store contract of the three handlers (docs/stores.md): the callback handler claims each
// verified callback before onStatus, then finishes it (recording the outcome for its order and
// attempt) or releases it; the status handler reads an order's verified status; the token handler
// starts an attempt, or learns that the order is paid. The payout ledger's claims use the same words,
// claim and finish (payouts/payout-ledger.ts).
import { PAID_STATUS, type StatusAnswer } from '../../service/checkout.js';

/** What a claim found: `claimed` (this call holds it now), `finished` (handled before), `in-flight` (another holds it). */
export type ClaimResult = 'claimed' | 'finished' | 'in-flight';

/** A verified status, as the status handler answers it. */
export type OrderStatus = StatusAnswer;

/** One verified callback, as the store keeps it. */
export interface CallbackRecord {
  /** The merchant's order reference: the callback's request_id without its attempt suffix; '' when it names no order. */
  order_ref: string;
  /** The attempt id from the request_id; '' when it carries none (a key obtained without the token handler, a payout). */
  attempt: string;
  invoice_id: string;
  status: string;
}

/** What the callback handler needs: the claim on each callback, its finish or release. */
export interface ClaimStore {
  /**
   * Atomically claims the callback (its key: `invoice_id` and `status`) when free, with a lease of
   * `leaseMs`: `claimed`; else `finished` or `in-flight`. A claim whose lease ran out (its server died
   * inside onStatus) is claimed again.
   */
  claim(callback: CallbackRecord): Promise<ClaimResult>;
  /**
   * In one atomic step: marks the callback finished for days (longer than the service's redelivery
   * window) and, unless `order_ref` is '', records its outcome for its order and attempt (a `success`
   * is never overwritten, and the first one also marks the order paid); then tells the order's watchers.
   */
  finish(callback: CallbackRecord): Promise<void>;
  /** Releases this process's own claim (not one taken again after its lease), so the next delivery calls onStatus again. */
  release(callback: CallbackRecord): Promise<void>;
  /** Optional: waits until another delivery's claim is finished or released. Without it an in-flight repeat answers 503. */
  waitForClaim?(callback: CallbackRecord): Promise<'finished' | 'released'>;
  /** The in-flight lease, when the store has one; the callback handler checks that onStatus's time
   *  limit is shorter, so a live call never loses its claim to a redelivery. */
  readonly leaseMs?: number;
}

/** What the status handler needs: an order's verified status, and news of it. */
export interface StatusStore {
  /**
   * The verified status for `attempt` of the order (without one: the order's current attempt, the last
   * one the token handler started, else the callbacks without an attempt), as `orderStatus` decides.
   */
  status(orderRef: string, attempt?: string): Promise<OrderStatus | undefined>;
  /** Optional: calls `listener` when a status for the order may have been recorded, by any server, and
   *  whenever the store may have missed such news (a subscription that dropped: docs/stores.md);
   *  answers the unsubscribe function. Without it the status handler reads each waiting order every second. */
  watch?(orderRef: string, listener: () => void): () => void;
}

/** What the token handler needs: an attempt started, or the news that the order is paid. */
export interface AttemptStore {
  /** Atomically: `paid` when the order is paid, else records `attempt` as the order's current one: `started`. */
  startAttempt(orderRef: string, attempt: string): Promise<'started' | 'paid'>;
}

/** The store the three handlers share. `MemoryCallbackStore` and `RedisCallbackStore` implement it;
 *  docs/stores.md shows it on SQL. Every method is async, so a shared store fits. */
export interface CallbackStore extends ClaimStore, StatusStore, AttemptStore {}

/** What a store holds for one order, as orderStatus reads it. */
export interface OrderRecord {
  /** The first success of any attempt. */
  paid?: OrderStatus | undefined;
  /** The attempt asked about, or the current one: its own last verified status. */
  own?: OrderStatus | undefined;
}

/**
 * The order's answer for one attempt: that attempt's own success, else the order's payment by another
 * attempt (a paid order stays paid), else that attempt's own outcome (a `fail`), else nothing yet.
 * So an earlier attempt's outcome is never answered as a later one's, and a late `fail` of another
 * attempt never hides a payment.
 */
export function orderStatus({ paid, own }: OrderRecord): OrderStatus | undefined {
  return own?.status === PAID_STATUS ? own : (paid ?? own);
}

/** The claim key of a callback: one per (invoice_id, status). */
export function claimKey(callback: CallbackRecord): string {
  return JSON.stringify([callback.invoice_id, callback.status]);
}
