// The store contract of the three handlers (docs/stores.md): the callback handler claims each
// verified callback before onStatus, then finishes it (recording the outcome for its order and
// attempt) or releases it; the status handler reads an order's verified status; the token handler
// keeps at most one payable attempt per order (docs/service-contract.md, Attempts). The payout
// ledger's claims use the same words, claim and finish (payouts/payout-ledger.ts).
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
  /** The callback's amount and currency, as text ('' when absent): a success pays its attempt only at the attempt's own. */
  amount?: string;
  currency?: string;
  /** What `judge` found, set by the callback handler before `finish`: finish records a payment, an
   *  extra payment for its attempt only, and nothing for the order of a foreign callback. */
  verdict?: Verdict;
}

/**
 * What a verified callback is to its order, decided once per delivery, atomically, before onStatus:
 * `payment` the success that pays the order (the same invoice is its payment on every delivery);
 * `extra` a success that cannot be the order's payment, to refund; `attempt` any other status of an
 * attempt createTokenHandler started; `foreign` no attempt createTokenHandler started (a payout, a key
 * obtained by hand): it never touches an order.
 */
export type Verdict =
  | { verdict: 'payment' | 'attempt' | 'foreign' }
  | { verdict: 'extra'; reason: ExtraReason; paidBy: string | undefined };

/** Why a success is extra: the order was paid by another invoice, its attempt was superseded (another
 *  amount or currency, or its key's lifetime ran out), or it paid another amount or currency than its attempt's. */
export type ExtraReason = 'order-paid' | 'superseded' | 'other-terms';

/** What the callback handler needs: the claim on each callback, its finish or release. */
export interface ClaimStore {
  /**
   * Atomically claims the callback (its key: `invoice_id` and `status`) when free, with a lease of
   * `leaseMs`: `claimed`; else `finished` or `in-flight`. A claim whose lease ran out (its server died
   * inside onStatus) is claimed again.
   */
  claim(callback: CallbackRecord): Promise<ClaimResult>;
  /**
   * Called by the claim's holder, before onStatus: in one atomic step, what the callback is to its
   * order (Verdict). The first eligible success marks the order's payer, so no attempt starts any
   * more; the same invoice judged again is its payment again.
   */
  judge(callback: CallbackRecord): Promise<Verdict>;
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
   *  answers the unsubscribe function. With the recorded outcome as `news`, waits on that attempt are
   *  answered without a read; without it, each waiting attempt is read. Without `watch` the status
   *  handler reads each waiting order every second. */
  watch?(orderRef: string, listener: (news?: StatusNews) => void): () => void;
}

/** What one recorded outcome changed, as the store holds it after the write: the attempt's own last
 *  status and the order's payment. Every other attempt's own status is unchanged. */
export interface StatusNews {
  /** The attempt the callback was for ('' for a callback without one). */
  attempt: string;
  own: OrderStatus | undefined;
  paid: OrderStatus | undefined;
}

/** The token answer a live attempt hands out again: its key or its redirect. */
export type KeptToken = { key: string } | { redirect_url: string };

/** What a token request asks the store for: a new attempt's id, the order's amount and currency (as
 *  text) from `resolve`, how long a key stays payable, and how long one request may take to obtain it. */
export interface AttemptRequest {
  attempt: string;
  amount: string;
  currency: string;
  lifetimeMs: number;
  obtainMs: number;
}

/**
 * `paid`: the order is paid (or its payment is being handled); `live`: the order's live attempt, with
 * its key; `obtaining`: another request is obtaining that attempt's key (ask again shortly);
 * `started`: `attempt` is the order's attempt now, and this request obtains its key and keeps it.
 */
export type AttemptStart =
  | { state: 'paid' }
  | { state: 'live'; attempt: string; token: KeptToken }
  | { state: 'obtaining' | 'started'; attempt: string };

/** What the token handler needs: at most one payable attempt per order (docs/service-contract.md, Attempts). */
export interface AttemptStore {
  /**
   * In one atomic step: `paid` when the order has a payer; the current attempt when it is live (not
   * ended in `fail`, younger than `lifetimeMs`, the same amount and currency); else the new attempt
   * becomes current (the old one superseded: none of its payments pays the order) and answers `started`.
   * An attempt whose key was not kept within `obtainMs` is superseded by the next request.
   */
  startAttempt(orderRef: string, request: AttemptRequest): Promise<AttemptStart>;
  /** Keeps the key `started` obtained with its attempt: `kept`, or `paid` (the order got paid
   *  meanwhile: hand out no key) or `gone` (the attempt was superseded meanwhile). */
  keepToken(orderRef: string, attempt: string, token: KeptToken): Promise<'kept' | 'paid' | 'gone'>;
  /** The service refused the key: the attempt is superseded, so the next request starts another at once. */
  dropAttempt(orderRef: string, attempt: string): Promise<void>;
}

/** The store the three handlers share. `MemoryCallbackStore` and `RedisCallbackStore` implement it;
 *  docs/stores.md shows it on SQL. Every method is async, so a shared store fits. */
export interface CallbackStore extends ClaimStore, StatusStore, AttemptStore {}

/** What a store holds for one order, as orderStatus reads it. */
export interface OrderRecord {
  /** The order's payment (the success the payer's invoice recorded). */
  paid?: OrderStatus | undefined;
  /** The attempt asked about, or the current one: its own last verified status. */
  own?: OrderStatus | undefined;
}

/**
 * The order's answer for one attempt: that attempt's own success (with `extra` when it did not pay the
 * order), else the order's payment by another attempt (a paid order stays paid), else that attempt's
 * own outcome (a `fail`), else nothing yet.
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
