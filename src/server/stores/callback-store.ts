// What the callback and status handlers need from a store (docs/stores.md). The callback
// handler claims a key (invoice_id + status) before it calls onStatus, and marks it done (recording
// the order's verified status) or failed afterwards, so a repeat is answered without a second call,
// concurrent deliveries hand over once, and a failure leaves the key free for the next delivery. The
// status handler reads the recorded status and waits for news of it.

export type ClaimResult = 'new' | 'done' | 'in-flight';

/** The verified outcome of one order, as the status handler answers it. */
export interface OrderStatus {
  status: string;
  invoice_id: string;
}

/** What complete() records beside the done key: the order's verified status, by its request_id. */
export interface OrderOutcome extends OrderStatus {
  request_id: string;
}

/**
 * Where handled callbacks and verified statuses are kept. All methods are async so a shared store
 * (Redis, SQL) fits; `MemoryCallbackStore` and `RedisCallbackStore` implement it, and docs/stores.md
 * shows it on SQL.
 * - begin: atomically claim the key if absent, answering 'new' when the claim was made, 'done' or
 *   'in-flight' from the existing value. An in-flight claim has a lease (leaseMs): once it runs out
 *   (the process that claimed died) the next begin claims the key again.
 * - complete: store 'done' with a long TTL (days: longer than the service's redelivery window) and,
 *   when given, the order's verified status; then tell watchers of that order.
 * - fail: release the claim, so the service's next delivery calls onStatus again.
 * - settled (optional): wait until an in-flight key is done or failed. Without it the handler answers
 *   an in-flight repeat with 503 and Retry-After, and the service's next delivery finds it done.
 * - status (needed by createStatusHandler): the verified status recorded for a request_id.
 * - watch (optional): call `listener` when a status for request_id may have been recorded, by any
 *   server; answers the unsubscribe function. Without it the status handler re-reads every second.
 */
export interface CallbackStore {
  begin(key: string): Promise<ClaimResult>;
  complete(key: string, outcome?: OrderOutcome): Promise<void>;
  fail(key: string): Promise<void>;
  settled?(key: string): Promise<'done' | 'failed'>;
  status?(requestId: string): Promise<OrderStatus | undefined>;
  watch?(requestId: string, listener: () => void): () => void;
  /** The in-flight lease, when the store has one; the callback handler checks that onStatus's time
   *  limit is shorter, so a live call never loses its claim to a redelivery. */
  readonly leaseMs?: number;
}
