// The callback endpoint the service calls (docs/server.md, Callback endpoint): verified, handed to
// onStatus once per (invoice_id, status) through the store, and the order's verified status recorded
// for the status handler.
import type { CallbackStore, ClaimResult, OrderOutcome } from '../stores/callback-store.js';
import { MemoryCallbackStore } from '../stores/memory-callback-store.js';
import type { CallbackPayload } from '../../service/callback.js';
import { hmacVerifier, type Verifier } from '../../service/signature.js';
import { answer, failure, readJsonObject, type FetchHandler } from './json-answers.js';
import { PayFormError, requireOptions } from '../errors.js';
import { Answer, fetchHandler, type Incoming } from './handler-logic.js';
import type { PayoutLedger } from '../client/payout-ledger.js';
import { settleFromCallback } from '../client/payout-guard.js';
import { fn, timerMilliseconds } from '../../service/option-rules.js';

export type { CallbackPayload };

interface CallbackCommon {
  /** Called once per (invoice_id, status). Throw to have the service deliver again. */
  onStatus: (payload: CallbackPayload) => void | Promise<void>;
  /** De-duplication and verified statuses; default a MemoryCallbackStore (one process, 10,000 keys, 24 h). */
  store?: CallbackStore;
  /** Past this, a call to onStatus counts as failed: its claim is released and the delivery answered
   *  503, so the service delivers again. Shorter than the store's leaseMs. Default 30000. */
  onStatusTimeoutMs?: number;
  /** Told about onStatus throwing or timing out, the store failing, and a verifier that threw. */
  onError?: (error: unknown) => void;
  /** The PaymentClient's payout ledger: a payout's callback settles its entry before onStatus runs. */
  payoutLedger?: PayoutLedger;
}

export type CallbackHandlerOptions =
  | (CallbackCommon & { secret: string; verifier?: never })
  | (CallbackCommon & { verifier: Verifier; secret?: never });

/** What onError hears when onStatus did not settle within onStatusTimeoutMs. */
export class OnStatusTimeoutError extends PayFormError {
  constructor(ms: number) {
    super('on_status_timeout', `onStatus did not settle within ${ms} ms`);
  }
}

/** Settles with the promise's outcome, or 'timeout' after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, ms, 'timeout')));
  try {
    return await Promise.race([promise.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** The order's verified status, when the callback names its order (request_id). */
function outcomeOf(payload: CallbackPayload): OrderOutcome | undefined {
  const id = payload.request_id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  return { request_id: String(id), status: payload.status, invoice_id: payload.invoice_id };
}

// Answers are immutable, so the few fixed ones are built once rather than per delivery.
const HANDLED = answer(200, { success: true });
const NOT_HANDLED = { 500: failure(500, 'Callback not handled'), 503: failure(503, 'Callback not handled', { 'retry-after': '5' }) };

/** Outcomes whose onStatus ran here but whose record failed: a redelivery here retries the record
 *  instead of calling onStatus again. Bounded; an older one falls back to the lease. */
const MAX_UNRECORDED = 10_000;

/**
 * Answers 200 `{ success: true }` when the status is handled and recorded (now or before). Failures:
 * 405 not POST; 400 wrong content type or JSON (the service's message); 413 over 64 KiB; 401 signature
 * missing or wrong (or not checkable: a non-finite number, a verifier that threw); 400 invoice_id or
 * status not a string; 500 onStatus threw; 503 with Retry-After when onStatus timed out, another server
 * holds the same callback and the store cannot wait, or the store itself fails. Never 200 without a
 * stored outcome.
 */
export function createCallbackHandler(options: CallbackHandlerOptions): FetchHandler {
  const hasSecret = typeof options?.secret === 'string' && options.secret !== '';
  const hasVerifier = typeof options?.verifier === 'function';
  const store = options?.store ?? new MemoryCallbackStore();
  const timeoutMs = options?.onStatusTimeoutMs ?? 30_000;
  const timeoutProblem = timerMilliseconds(timeoutMs);
  requireOptions('createCallbackHandler', [
    ['secret', hasSecret === hasVerifier ? 'give exactly one of secret (non-empty) or verifier' : undefined],
    ['onStatus', fn(options?.onStatus)],
    ['onStatusTimeoutMs', timeoutProblem],
    ['onStatusTimeoutMs', timeoutProblem === undefined && store.leaseMs !== undefined && store.leaseMs <= timeoutMs
      ? `must be shorter than the store's leaseMs (${store.leaseMs})` : undefined],
    ['payoutLedger', options?.payoutLedger === undefined ? undefined : fn(options.payoutLedger?.resolve) && 'must be a PayoutLedger'],
  ]);
  const verifier: Verifier = hasSecret ? hmacVerifier(options.secret as string) : (options.verifier as Verifier);
  const { onError, payoutLedger } = options;
  const onStatus = payoutLedger
    ? async (p: CallbackPayload) => {
        await settleFromCallback(payoutLedger, p);
        await options.onStatus(p);
      }
    : options.onStatus;
  const unrecorded = new Map<string, OrderOutcome | undefined>();

  // A body that cannot be signed (1e400 parses to Infinity) or a verifier that throws is a signature
  // that does not verify: 401, never a throw.
  const verified = async (payload: Record<string, unknown>, signature: unknown): Promise<boolean> => {
    if (typeof signature !== 'string') return false;
    try {
      return (await verifier(payload, signature)) === true;
    } catch (error) {
      onError?.(error);
      return false;
    }
  };

  const record = async (key: string, outcome: OrderOutcome | undefined): Promise<Answer> => {
    try {
      await store.complete(key, outcome);
      unrecorded.delete(key);
      return HANDLED;
    } catch (error) {
      onError?.(error);
      if (unrecorded.size >= MAX_UNRECORDED) unrecorded.delete(unrecorded.keys().next().value as string);
      unrecorded.set(key, outcome);
      return NOT_HANDLED[503];
    }
  };

  const handle = async (incoming: Incoming): Promise<Answer> => {
    const input = await readJsonObject(incoming);
    if (input instanceof Answer) return input;
    const { signature, ...payload } = input;
    if (!(await verified(payload, signature))) return failure(401, 'Invalid signature');
    if (typeof payload['invoice_id'] !== 'string' || typeof payload['status'] !== 'string') {
      return failure(400, 'invoice_id and status must be strings');
    }
    const callback = payload as CallbackPayload;
    const key = JSON.stringify([callback.invoice_id, callback.status]);
    if (unrecorded.has(key)) return record(key, unrecorded.get(key));

    let claim: ClaimResult;
    try {
      claim = await store.begin(key);
      if (claim === 'in-flight') {
        if (!store.settled) return NOT_HANDLED[503];
        const settled = await within(store.settled(key), timeoutMs);
        if (settled === 'timeout') return NOT_HANDLED[503];
        return settled.value === 'done' ? HANDLED : NOT_HANDLED[500];
      }
    } catch (error) {
      // The store is down: nothing was handed over, so the service must deliver again.
      onError?.(error);
      return NOT_HANDLED[503];
    }
    if (claim === 'done') return HANDLED;

    let ran: { value: void } | 'timeout';
    try {
      // A synchronous onStatus has finished when it returns: only a promise needs the time limit.
      const returned: unknown = onStatus(callback);
      ran = isThenable(returned) ? await within(Promise.resolve(returned).then(() => undefined), timeoutMs) : { value: undefined };
    } catch (error) {
      onError?.(error);
      await store.fail(key).catch(onError);
      return NOT_HANDLED[500];
    }
    if (ran === 'timeout') {
      // The call may still finish, but nothing waits for it: the next delivery calls onStatus again.
      onError?.(new OnStatusTimeoutError(timeoutMs));
      await store.fail(key).catch(onError);
      return NOT_HANDLED[503];
    }
    return record(key, outcomeOf(callback));
  };

  return fetchHandler(async (incoming) => {
    try {
      return await handle(incoming);
    } catch (error) {
      onError?.(error);
      return NOT_HANDLED[500];
    }
  });
}
