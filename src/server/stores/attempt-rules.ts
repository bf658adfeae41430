// The rules of one order's attempts (docs/service-contract.md, Attempts), on a plain record, for
// MemoryCallbackStore; RedisCallbackStore's scripts (redis-attempt-scripts.ts) say the same in Lua.
// At most one attempt is payable: the order's current one while it is live; the first success that
// can be the order's payment marks the payer, and every other success is an extra payment.
import { PAID_STATUS } from '../../service/checkout.js';
import type { AttemptRequest, AttemptStart, CallbackRecord, ExtraReason, KeptToken, OrderStatus, Verdict } from './callback-store.js';

/** One attempt the token handler started: the terms it was started with, when, and its key once kept. */
export interface AttemptRecord {
  amount: string;
  currency: string;
  at: number;
  token?: KeptToken;
  superseded?: true;
  /** A status other than success was judged for it (a decline): the next request starts a new attempt. */
  ended?: true;
}

/** What a store keeps of one order's attempts. */
export interface AttemptBook {
  /** The invoice that pays the order, from the moment it is judged (before onStatus). */
  payer?: string;
  /** The order's payment as recorded at finish: what the status endpoint answers. */
  paid?: OrderStatus;
  current?: string;
  started: Map<string, AttemptRecord>;
  /** Each attempt's own last verified status. */
  outcomes: Map<string, OrderStatus>;
}

export function startIn(book: AttemptBook, request: AttemptRequest, now: number): AttemptStart {
  if (book.payer !== undefined) return { state: 'paid' };
  const id = book.current;
  const current = id === undefined ? undefined : book.started.get(id);
  if (id !== undefined && current !== undefined && !current.superseded && !current.ended && !book.outcomes.has(id)
    && current.amount === request.amount && current.currency === request.currency && now - current.at < request.lifetimeMs) {
    if (current.token !== undefined) return { state: 'live', attempt: id, token: current.token };
    if (now - current.at < request.obtainMs) return { state: 'obtaining', attempt: id };
  }
  if (current !== undefined) current.superseded = true;
  book.current = request.attempt;
  book.started.set(request.attempt, { amount: request.amount, currency: request.currency, at: now });
  return { state: 'started', attempt: request.attempt };
}

export function keepIn(book: AttemptBook, attempt: string, token: KeptToken): 'kept' | 'paid' | 'gone' {
  if (book.payer !== undefined) return 'paid';
  const record = book.started.get(attempt);
  if (record === undefined || record.superseded || book.current !== attempt) return 'gone';
  record.token = token;
  return 'kept';
}

export function dropIn(book: AttemptBook, attempt: string): void {
  const record = book.started.get(attempt);
  if (record !== undefined) record.superseded = true;
}

export function judgeIn(book: AttemptBook, callback: CallbackRecord): Verdict {
  const record = book.started.get(callback.attempt);
  if (record === undefined) return { verdict: 'foreign' };
  if (callback.status !== PAID_STATUS) {
    // Ended at once, not when onStatus is done: a retry right after a decline gets a new key, not the declined one.
    record.ended = true;
    return { verdict: 'attempt' };
  }
  if (book.payer === callback.invoice_id) return { verdict: 'payment' };
  const reason: ExtraReason | undefined = book.payer !== undefined ? 'order-paid' : record.superseded ? 'superseded'
    : callback.amount !== record.amount || callback.currency !== record.currency ? 'other-terms' : undefined;
  if (reason !== undefined) return { verdict: 'extra', reason, paidBy: book.payer };
  book.payer = callback.invoice_id;
  return { verdict: 'payment' };
}

/** The outcome finish records for the callback's attempt (a success is never overwritten), and the order's payment. */
export function recordIn(book: AttemptBook, { attempt, status, invoice_id, verdict }: CallbackRecord): void {
  const outcome: OrderStatus = verdict?.verdict === 'extra' ? { status, invoice_id, extra: true } : { status, invoice_id };
  if (book.outcomes.get(attempt)?.status !== PAID_STATUS) book.outcomes.set(attempt, outcome);
  if (verdict?.verdict === 'payment') book.paid ??= outcome;
}
