// The callback endpoint the service calls (docs/server.md, Callback endpoint): verified, handed to
// onStatus once per (invoice_id, status) through the store, and the outcome recorded for its order and
// attempt for the status handler.
import type { CallbackRecord, ClaimResult, ClaimStore, ExtraReason, Verdict } from '../stores/callback-store.js';
import { MemoryCallbackStore } from '../stores/memory-callback-store.js';
import type { CallbackPayload } from '../../service/callback.js';
import { parseRequestId } from '../../service/checkout.js';
import { hmacVerifier, type Verifier } from '../../service/signature.js';
import { answer, failure, readJsonObject, type FetchHandler } from './json-answers.js';
import { PayFormError, requireOptions } from '../errors.js';
import { Answer, fetchHandler, type Incoming } from './handler-logic.js';
import type { PayoutLedger } from '../payouts/payout-ledger.js';
import { resolveFromCallback } from '../payouts/payout-guard.js';
import { sendUntilTaken } from '../stores/retry.js';
import { fn, timerMilliseconds } from '../../service/option-rules.js';
import { emitter, type ObserverOptions } from '../telemetry/observer.js';
import { instrumented, traced, type Step } from '../telemetry/otel.js';
import { isThenable } from '../telemetry/step.js';
import type { CallbackOutcome } from '../telemetry/attributes.js';

export type { CallbackPayload };

/** Which order and attempt a callback is for, read from its request_id, and what it is to that order (docs/service-contract.md, Attempts). */
export interface CallbackOrder {
  /** The merchant's order reference: the request_id without pay-form's attempt suffix; undefined when the callback names none. */
  orderRef: string | undefined;
  /** The attempt id, when the request_id carries one. */
  attempt: string | undefined;
  /**
   * `payment`: this success paid the order (ship it). `extra`: a success that is not the order's
   * payment: refund it (`extra` says what). `attempt`: another status (a `fail`) of an attempt
   * createTokenHandler started. `foreign`: the request_id is no attempt createTokenHandler started (a
   * payout, a key obtained by hand): it never marks an order paid.
   */
  verdict: Verdict['verdict'];
  /** Set when verdict is `extra`. */
  extra?: ExtraPayment;
}

/** A success that cannot be the order's payment, handed to onStatus once across servers, to refund. */
export interface ExtraPayment {
  /** `order-paid`: another invoice paid the order; `superseded`: its attempt was replaced (another
   *  amount or currency, or its key's lifetime ran out); `other-terms`: it paid another amount or currency than its attempt's. */
  reason: ExtraReason;
  orderRef: string;
  attempt: string;
  invoice_id: string;
  /** As the callback gave them. */
  amount: CallbackPayload['amount'];
  currency: CallbackPayload['currency'];
  /** The invoice that paid the order, when one has. */
  paidBy: string | undefined;
}

interface CallbackCommon extends ObserverOptions {
  /** Called once per (invoice_id, status) with the verified payload, untouched, and its order. Throw to have the service deliver again. */
  onStatus: (payload: CallbackPayload, order: CallbackOrder) => void | Promise<void>;
  /** Claims and verified statuses, shared with the status and token handlers; default a
   *  MemoryCallbackStore (one process, 10,000 callbacks and orders, 24 h). */
  store?: ClaimStore;
  /** Past this, a call to onStatus counts as failed: its claim is released and the delivery answered
   *  503, so the service delivers again. Shorter than the store's leaseMs. Default 30000. */
  onStatusTimeoutMs?: number;
  /** @deprecated Use `observer` (docs/observability.md): told about onStatus throwing or timing out, the store failing, and a verifier that threw. */
  onError?: (error: unknown) => void;
  /** The PaymentClient's payout ledger: a payout's callback resolves its entry before onStatus runs. */
  payoutLedger?: PayoutLedger;
}

export type CallbackHandlerOptions =
  | (CallbackCommon & { secret: string; verifier?: never })
  | (CallbackCommon & { verifier: Verifier; secret?: never });

/** What onError hears when onStatus did not return within onStatusTimeoutMs. */
export class OnStatusTimeoutError extends PayFormError {
  constructor(ms: number) {
    super('on_status_timeout', `onStatus did not return within ${ms} ms`);
  }
}

/** The promise's outcome, or 'timeout' after `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<{ value: T } | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, ms, 'timeout')));
  try {
    return await Promise.race([promise.then((value) => ({ value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** How an onStatus call ended: its value, or the time limit first. */
type OnStatusRun = { value: void } | 'timeout';

/** The order and attempt a callback names through its request_id (a string, or a number as its decimal string). */
function orderOf(payload: CallbackPayload): { orderRef: string | undefined; attempt: string | undefined } {
  const id = payload.request_id;
  return typeof id === 'string' || typeof id === 'number' ? parseRequestId(String(id)) : { orderRef: undefined, attempt: undefined };
}

/** A number or a string as text, anything else as '': what the store compares with the attempt's terms. */
const text = (value: unknown): string => (typeof value === 'number' || typeof value === 'string' ? String(value) : '');

/** What onStatus gets beside the payload. */
function judged(payload: CallbackPayload, callback: CallbackRecord, verdict: Verdict): CallbackOrder {
  const { orderRef, attempt } = orderOf(payload);
  if (verdict.verdict !== 'extra') return { orderRef, attempt, verdict: verdict.verdict };
  const { reason, paidBy } = verdict;
  const extra = { reason, orderRef: callback.order_ref, attempt: callback.attempt, invoice_id: callback.invoice_id, amount: payload.amount, currency: payload.currency, paidBy };
  return { orderRef, attempt, verdict: 'extra', extra };
}


// Answers are immutable, so the few fixed ones are built once rather than per delivery.
const HANDLED = answer(200, { success: true });
const NOT_HANDLED = { 500: failure(500, 'Callback not handled'), 503: failure(503, 'Callback not handled', { 'retry-after': '5' }) };

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
    ['observer', options?.observer === undefined ? undefined : fn(options.observer)],
  ]);
  const verifier: Verifier = hasSecret ? hmacVerifier(options.secret as string) : (options.verifier as Verifier);
  const { payoutLedger } = options;
  const emit = emitter(options);
  const onError = (error: unknown) => emit({ type: 'error', source: 'callback', error });
  const onStatus = payoutLedger
    ? async (p: CallbackPayload, order: CallbackOrder) => {
        await resolveFromCallback(payoutLedger, p);
        await options.onStatus(p, order);
      }
    : options.onStatus;
  const leaseMs = store.leaseMs ?? 60_000;

  // A body that cannot be signed (1e400 parses to Infinity) or a verifier that throws is a signature
  // that does not verify: 401, never a throw.
  const verified = async (payload: Record<string, unknown>, signature: unknown): Promise<boolean> => {
    if (typeof signature !== 'string') return false;
    try {
      return (await verifier(payload, signature)) === true;
    } catch (error) {
      onError(error);
      return false;
    }
  };

  // onStatus has run: a store that cannot finish answers 503 now (never 200 without a stored outcome),
  // and the finish is tried again while the claim's lease lasts (sendUntilTaken), so a redelivery after
  // the store is back finds the callback finished instead of calling onStatus again. Past the lease, or
  // when this process ends first, the claim runs out and the next delivery calls onStatus again
  // (docs/server.md).
  const finish = async (callback: CallbackRecord): Promise<Answer> => {
    const failed = await sendUntilTaken(() => store.finish(callback), leaseMs);
    if (!failed) return HANDLED;
    onError(failed.error);
    return NOT_HANDLED[503];
  };

  const handle = async (incoming: Incoming, span: Step): Promise<Answer> => {
    const input = await readJsonObject(incoming);
    if (input instanceof Answer) return input;
    const { signature, ...payload } = input;
    // What the trace and the observer hear of this delivery (docs/observability.md).
    const told = (outcome: CallbackOutcome, order?: { orderRef: string | undefined; attempt: string | undefined }) => {
      if (span.recording) span.set({ 'pay_form.callback.outcome': outcome });
      emit({ type: 'callback', source: 'callback', outcome, orderRef: order?.orderRef, attempt: order?.attempt });
    };
    // verify, claim and finish are events on the callback's span, each at the step's end (a child span
    // each cost the handler more CPU than the rest of its work: docs/performance.md, Telemetry overhead);
    // onStatus, the merchant's code, keeps a span of its own for its spans to nest under.
    const ok = await verified(payload, signature);
    span.event('pay_form.callback.verified');
    if (!ok) {
      told('refused_signature');
      return failure(401, 'Invalid signature');
    }
    if (typeof payload['invoice_id'] !== 'string' || typeof payload['status'] !== 'string') {
      told('bad_request');
      return failure(400, 'invoice_id and status must be strings');
    }
    const verifiedPayload = payload as CallbackPayload;
    const named = orderOf(verifiedPayload);
    if (span.recording) {
      span.set({
        'pay_form.order_ref': named.orderRef,
        'pay_form.attempt': named.attempt,
        'pay_form.invoice_id': verifiedPayload.invoice_id,
        'pay_form.callback.status': verifiedPayload.status,
      });
    }
    const callback: CallbackRecord = {
      order_ref: named.orderRef ?? '',
      attempt: named.attempt ?? '',
      invoice_id: verifiedPayload.invoice_id,
      status: verifiedPayload.status,
      amount: text(verifiedPayload.amount),
      currency: text(verifiedPayload.currency),
    };

    let claim: ClaimResult;
    try {
      claim = await store.claim(callback);
      span.event('pay_form.callback.claimed');
      if (claim === 'in-flight') {
        told('in_flight', named);
        if (!store.waitForClaim) return NOT_HANDLED[503];
        const ended = await within(store.waitForClaim(callback), timeoutMs);
        if (ended === 'timeout') return NOT_HANDLED[503];
        return ended.value === 'finished' ? HANDLED : NOT_HANDLED[500];
      }
    } catch (error) {
      // The store is down: nothing was handed over, so the service must deliver again.
      onError(error);
      return NOT_HANDLED[503];
    }
    if (claim === 'finished') {
      told('duplicate', named);
      return HANDLED;
    }
    let verdict: Verdict;
    try {
      verdict = await store.judge(callback);
    } catch (error) {
      onError(error);
      await store.release(callback).catch(onError);
      return NOT_HANDLED[503];
    }
    const judgedCallback: CallbackRecord = { ...callback, verdict };
    const order = judged(verifiedPayload, callback, verdict);

    // A synchronous onStatus has finished when it returns: only a promise needs the time limit.
    const callOnStatus = (step: Step): OnStatusRun | Promise<OnStatusRun> => {
      const returned: unknown = onStatus(verifiedPayload, order);
      if (!isThenable(returned)) return { value: undefined };
      return within(Promise.resolve(returned).then(() => undefined), timeoutMs).then((outcome) => {
        if (outcome === 'timeout') step.fail('on_status_timeout');
        return outcome;
      });
    };
    let ran: OnStatusRun;
    try {
      // Nothing recorded, a synchronous onStatus is not awaited, as before telemetry (docs/performance.md,
      // Telemetry overhead).
      const called = traced('pay_form.callback.on_status', undefined, callOnStatus);
      ran = isThenable(called) ? await called : called;
    } catch (error) {
      told('failed', order);
      onError(error);
      await store.release(callback).catch(onError);
      return NOT_HANDLED[500];
    }
    if (ran === 'timeout') {
      // The call may still finish, but nothing waits for it: the next delivery calls onStatus again.
      told('failed', order);
      onError(new OnStatusTimeoutError(timeoutMs));
      await store.release(callback).catch(onError);
      return NOT_HANDLED[503];
    }
    const finished = await finish(judgedCallback);
    span.event('pay_form.callback.finished');
    told(finished !== HANDLED ? 'failed' : verdict.verdict === 'extra' ? 'extra_payment' : 'new', named);
    return finished;
  };

  return fetchHandler(instrumented('pay_form.callback', async (incoming, span) => {
    try {
      return await handle(incoming, span);
    } catch (error) {
      onError(error);
      return NOT_HANDLED[500];
    }
  }));
}
