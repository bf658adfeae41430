// The status endpoint the merchant's page asks (docs/server.md, Status endpoint): the verified status of
// one attempt of an order, as the callback handler recorded it, with a bounded long poll. The exchange
// is written in service/checkout.ts; the element's side in docs/element.md (status-url).
import type { OrderStatus, StatusStore } from '../stores/callback-store.js';
import { ATTEMPT_PARAM, isAttemptId, ORDER_REF_PARAM } from '../../service/checkout.js';
import { answer, failure, type FetchHandler } from './json-answers.js';
import { requireOptions } from '../errors.js';
import { Answer, fetchHandler } from './handler-logic.js';
import { count, fn, timerMillisecondsOrZero } from '../../service/option-rules.js';

export interface StatusHandlerOptions {
  /** The store the callback handler records into: `status`, and `watch` to make the wait quicker. */
  store: StatusStore;
  /**
   * The merchant's check that this browser may see this order (a session cookie, say): the order
   * reference the token handler's `resolve` gave as request_id, `true` when it is orderRef itself, or
   * false/null/undefined to refuse (404).
   */
  authorize: (request: Request, orderRef: string) => string | boolean | null | undefined | Promise<string | boolean | null | undefined>;
  /** How long one request waits for a verified status before answering 204. Default 25000. */
  waitMs?: number;
  /** Most requests waiting at once in this process; past it, 503 with Retry-After. Default 1000. */
  maxWaiters?: number;
  /** Told about authorize or the store throwing. */
  onError?: (error: unknown) => void;
}

/** How often a waiting request re-reads the store, in case news of a status was missed. */
const REREAD_MS = 1000;

// Answers are immutable, so the fixed ones are built once rather than per request.
const NOT_FOUND = failure(404, 'Order not found');
const BUSY = failure(503, 'Status unavailable', { 'retry-after': '1' });
const NO_STATUS = new Answer(204, { 'cache-control': 'no-store' }, null);

function found(status: OrderStatus, head: boolean): Answer {
  const full = answer(200, { status: status.status, invoice_id: status.invoice_id, ...(status.extra && { extra: true }) });
  return head ? new Answer(200, full.headers, null) : full;
}

/**
 * GET `?order_ref=…&attempt=…` answers 200 `{ status, invoice_id }` once the store holds a verified status
 * for that attempt (a paid order answers its payment for any attempt; without `attempt`, the order's
 * current one), 204 when none arrived within waitMs, 404 for a missing order_ref, a malformed attempt or
 * a refusal (the same answer, so another shopper's order is never revealed), 405 for other methods, and
 * 503 with Retry-After when maxWaiters requests already wait or the store fails. HEAD answers at once.
 */
export function createStatusHandler(options: StatusHandlerOptions): FetchHandler {
  const waitMs = options?.waitMs ?? 25_000;
  const maxWaiters = options?.maxWaiters ?? 1000;
  requireOptions('createStatusHandler', [
    ['store', fn(options?.store?.status) && 'must be a store with status()'],
    ['authorize', fn(options?.authorize)],
    ['waitMs', timerMillisecondsOrZero(waitMs)],
    ['maxWaiters', count(maxWaiters)],
  ]);
  const { store, authorize, onError } = options;
  let waiting = 0;

  /** Re-reads at news of the order, at each re-read tick, and once at the start (news that came
   *  between the first read and the watch); ends at the deadline or when the client goes away. */
  const wait = async (orderRef: string, read: () => Promise<OrderStatus | undefined>, signal: AbortSignal | undefined): Promise<OrderStatus | undefined> => {
    const deadline = Date.now() + waitMs;
    let pending = true;
    let wake: (() => void) | undefined;
    const poke = () => {
      pending = true;
      wake?.();
    };
    const unwatch = store.watch?.(orderRef, poke);
    signal?.addEventListener('abort', poke);
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0 || signal?.aborted) return undefined;
        if (!pending) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, REREAD_MS));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
        pending = false;
        if (signal?.aborted) return undefined;
        const status = await read();
        if (status !== undefined) return status;
      }
    } finally {
      unwatch?.();
      signal?.removeEventListener('abort', poke);
    }
  };

  return fetchHandler(async (incoming) => {
    const method = incoming.method;
    if (method !== 'GET' && method !== 'HEAD') return failure(405, 'Method not allowed', { allow: 'GET, HEAD' });
    const query = incoming.url().searchParams;
    const asked = query.get(ORDER_REF_PARAM);
    const attempt = query.get(ATTEMPT_PARAM) ?? undefined;
    if (asked === null || asked === '' || (attempt !== undefined && !isAttemptId(attempt))) return NOT_FOUND;

    let orderRef: string;
    try {
      const allowed = await authorize(incoming.request(), asked);
      if (typeof allowed === 'string' && allowed !== '') orderRef = allowed;
      else if (allowed === true) orderRef = asked;
      else return NOT_FOUND;
    } catch (error) {
      // The merchant's own check failed (its session store down, say): ask again later.
      onError?.(error);
      return BUSY;
    }

    const head = method === 'HEAD';
    const read = () => store.status(orderRef, attempt);
    try {
      const now = await read();
      if (now !== undefined) return found(now, head);
      if (head || waitMs === 0) return NO_STATUS;
      if (waiting >= maxWaiters) return BUSY;
      waiting++;
      try {
        const later = await wait(orderRef, read, incoming.signal);
        return later !== undefined ? found(later, false) : NO_STATUS;
      } finally {
        waiting--;
      }
    } catch (error) {
      onError?.(error);
      return BUSY;
    }
  });
}
