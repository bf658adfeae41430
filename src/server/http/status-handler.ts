// The status endpoint the merchant's page asks (docs/server.md, Status endpoint): the verified status of
// one attempt of an order, as the callback handler recorded it, with a bounded long poll. The exchange
// is written in service/checkout.ts; the element's side in docs/element.md (status-url).
import type { OrderStatus, StatusStore } from '../stores/callback-store.js';
import { ATTEMPT_PARAM, isAttemptId, ORDER_REF_PARAM } from '../../service/checkout.js';
import { answer, failure, type FetchHandler } from './json-answers.js';
import { requireOptions } from '../errors.js';
import { adopted, Answer, fetchHandler, type Answering, type Deferred, type Incoming, type Reply } from './handler-logic.js';
import { StatusWaits, type Client, type Refusal, type Wait, type WaitResult } from './status-waits.js';
import { count, fn, timerMillisecondsOrZero } from '../../service/option-rules.js';
import { emitter, type ObserverOptions, type StatusOutcome } from '../telemetry/observer.js';
import { instrumented, openWait, type Step } from '../telemetry/otel.js';
import { isThenable } from '../telemetry/step.js';

export interface StatusHandlerOptions extends ObserverOptions {
  /** The store the callback handler records into: `status`, and `watch` so a wait costs no reads (without
   *  it, each waiting order is read every second). */
  store: StatusStore;
  /**
   * The merchant's check that this browser may see this order (a session cookie, say): the order
   * reference the token handler's `resolve` gave as request_id, `true` when it is orderRef itself, or
   * false/null/undefined to refuse (404).
   */
  authorize: (request: Request, orderRef: string) => string | boolean | null | undefined | Promise<string | boolean | null | undefined>;
  /** How long one request waits for a verified status before answering 204: between four fifths of it
   *  and all of it, at random, so pages opened together do not ask again together. Default 25000. */
  waitMs?: number;
  /**
   * Most requests waiting at once in this process; past it, 503 with a Retry-After of 5 to 10 s. Default
   * 10,000: 5.5 to 9.5 KiB of heap each, what a process holds with room (docs/performance.md, Open checkouts).
   */
  maxWaiters?: number;
  /** Most requests waiting at once on one order (its tabs and return page); past it, 429 with a
   *  Retry-After of 5 to 10 s, so one client cannot take the process's waits. Default 4. */
  maxWaitsPerOrder?: number;
  /** @deprecated Use `observer` (docs/observability.md): told about authorize or the store throwing. */
  onError?: (error: unknown) => void;
}

// Answers are immutable, so the fixed ones are built once rather than per request.
const NOT_FOUND = failure(404, 'Order not found');
const NO_STATUS = new Answer(204, { 'cache-control': 'no-store' }, null);

/** Whole seconds from `low` to `high` at random: refused pages spread out rather than return together. */
function retryAfter(low: number, high: number): Record<string, string> {
  return { 'retry-after': String(low + Math.floor(Math.random() * (high - low + 1))) };
}

/** The store or authorize failed: ask again soon. */
const unavailable = () => failure(503, 'Status unavailable', retryAfter(1, 3));
const REFUSED: Record<Refusal, () => Answer> = {
  full: () => failure(503, 'Status unavailable', retryAfter(5, 10)),
  'order-full': () => failure(429, 'Too many requests for this order', retryAfter(5, 10)),
};

const waitAnswer = (status: WaitResult): Answer =>
  status === null ? unavailable() : status === undefined || status === 'left' ? NO_STATUS : found(status, false);

/**
 * A waiting request, as the handler hands it to StatusWaits: everything its answer needs, in one object,
 * and itself what the handler answers with (handler-logic.ts, Deferred). A promise of the answer would
 * cost a promise, its resolve function and a reaction per wait (docs/performance.md, Open checkouts);
 * this holds the one reply it is given (toNodeHandler's request object, or `await`'s `then`), or the
 * answer when it ends first.
 */
class Waiting implements Wait, Deferred {
  deadline = 0;
  readonly started = Date.now();
  #reply: Reply | undefined;
  #outcome: { answer: Answer } | { error: unknown } | undefined;
  constructor(
    readonly order: string,
    readonly attempt: string | undefined,
    readonly client: Client,
    readonly span: Step,
    private readonly ended: (waiting: Waiting, result: WaitResult) => Answer,
  ) {}
  end(result: WaitResult): void {
    try {
      this.#outcome = { answer: this.ended(this, result) };
    } catch (error) {
      this.#outcome = { error };
    }
    this.#tell();
  }
  replyTo(reply: Reply): void {
    this.#reply = reply;
    this.#tell();
  }
  then(answered: (answer: Answer) => unknown, failed: (error: unknown) => unknown): void {
    this.replyTo({ answered, failed });
  }
  #tell(): void {
    const [outcome, reply] = [this.#outcome, this.#reply];
    if (outcome === undefined || reply === undefined) return;
    if ('answer' in outcome) reply.answered(outcome.answer);
    else reply.failed(outcome.error);
  }
}

function found(status: OrderStatus, head: boolean): Answer {
  const full = answer(200, { status: status.status, invoice_id: status.invoice_id, ...(status.extra && { extra: true }) });
  return head ? new Answer(200, full.headers, null) : full;
}

/**
 * GET `?order_ref=…&attempt=…` answers 200 `{ status, invoice_id }` once the store holds a verified status
 * for that attempt (a paid order answers its payment for any attempt; without `attempt`, the order's
 * current one), 204 when none arrived within waitMs, 404 for a missing order_ref, a malformed attempt or
 * a refusal (the same answer, so another shopper's order is never revealed), 405 for other methods, 429
 * with Retry-After when maxWaitsPerOrder requests already wait on the order, and 503 with Retry-After when
 * maxWaiters requests already wait or the store fails. HEAD answers at once.
 */
export function createStatusHandler(options: StatusHandlerOptions): FetchHandler {
  const waitMs = options?.waitMs ?? 25_000;
  const maxWaiters = options?.maxWaiters ?? 10_000;
  const maxPerOrder = options?.maxWaitsPerOrder ?? 4;
  requireOptions('createStatusHandler', [
    ['store', fn(options?.store?.status) && 'must be a store with status()'],
    ['authorize', fn(options?.authorize)],
    ['waitMs', timerMillisecondsOrZero(waitMs)],
    ['maxWaiters', count(maxWaiters)],
    ['maxWaitsPerOrder', count(maxPerOrder)],
    ['observer', options?.observer === undefined ? undefined : fn(options.observer)],
  ]);
  const { store, authorize } = options;
  const emit = emitter(options);
  const onError = (error: unknown) => emit({ type: 'error', source: 'status', error });
  const waits = new StatusWaits(store, { waitMs, maxWaiters, maxPerOrder, onError });

  /** Made here, not in the request's own scope, so it holds nothing of the request while it waits. */
  const failed = (error: unknown): Answer => {
    onError(error);
    return unavailable();
  };

  /** The status now, for HEAD and a handler that does not wait. */
  const now = async (orderRef: string, attempt: string | undefined, head: boolean): Promise<Answer> => {
    const status = await store.status(orderRef, attempt);
    return status !== undefined ? found(status, head) : NO_STATUS;
  };

  /** A refused wait is still answered a status already recorded. */
  const refused = async (orderRef: string, attempt: string | undefined, why: Refusal): Promise<Answer> => {
    const status = waits.knownEmpty(orderRef, attempt) ? undefined : await store.status(orderRef, attempt);
    return status !== undefined ? found(status, false) : REFUSED[why]();
  };

  /** What the trace and the observer hear of a request (docs/observability.md). A function of the
   *  handler, not of the request: the request's closures stay few while it waits. */
  const told = (span: Step, outcome: StatusOutcome, answer: Answer, orderRef: string | undefined, attempt: string | undefined, waitedMs?: number): Answer => {
    if (span.recording) span.set({ 'pay_form.order_ref': orderRef, 'pay_form.attempt': attempt, 'pay_form.status.outcome': outcome });
    emit({ type: 'status', source: 'status', outcome, orderRef, attempt, ...(waitedMs === undefined ? {} : { waitedMs }) });
    return answer;
  };

  /** The store failed while the request was answered at once (HEAD, no wait, or a refused wait). A
   *  function of the handler: a waiting request, the common one, makes no closure for it. */
  const storeFailed = (span: Step, order: string, attempt: string | undefined, error: unknown): Answer =>
    told(span, 'failed', failed(error), order, attempt);

  /** The merchant's own check failed (its session store down, say): ask again later. */
  const authorizeFailed = (span: Step, attempt: string | undefined, error: unknown): Answer => {
    onError(error);
    return told(span, 'failed', unavailable(), undefined, attempt);
  };

  /** A wait's end (never a rejection: a store that failed ends it with null), as its answer. */
  const waited = (waiting: Waiting, status: WaitResult): Answer => {
    openWait(-1);
    const a = waitAnswer(status);
    const outcome = status === 'left' ? 'abandoned' : a.status === 200 ? 'answered' : a.status === 204 ? 'timed_out' : 'failed';
    return told(waiting.span, outcome, a, waiting.order, waiting.attempt, Date.now() - waiting.started);
  };

  /**
   * The request once authorize answered: refused, answered now, or waiting. Made once per handler, so a
   * waiting request keeps its Waiting and no closure; the Waiting keeps `incoming` as its client, which
   * holds no URL or Request (node-adapter.ts), so those made for this request are not kept while it waits.
   */
  const decided = (incoming: Incoming, span: Step, asked: string, attempt: string | undefined, allowed: unknown): Answering => {
    const order = typeof allowed === 'string' && allowed !== '' ? allowed : allowed === true ? asked : undefined;
    if (order === undefined) return Promise.resolve(told(span, 'not_found', NOT_FOUND, undefined, attempt));
    // The wait's first read is the handler's look: one read per request, or none (status-waits.ts).
    if (incoming.method === 'HEAD' || waitMs === 0) {
      const answered = now(order, attempt, incoming.method === 'HEAD');
      return answered.then((a) => told(span, a.status === 200 ? 'answered' : 'timed_out', a, order, attempt), (error: unknown) => storeFailed(span, order, attempt, error));
    }
    const waiting = new Waiting(order, attempt, incoming, span, waited);
    const refusal = waits.wait(order, waiting);
    if (refusal !== undefined) {
      const answered = refused(order, attempt, refusal);
      return answered.then((a) => told(span, a.status === 200 ? 'answered' : 'refused', a, order, attempt), (error: unknown) => storeFailed(span, order, attempt, error));
    }
    span.event('pay_form.status.wait_started');
    openWait(1);
    return waiting;
  };

  return fetchHandler(
    instrumented('pay_form.status', (incoming, span) => {
      const method = incoming.method;
      if (method !== 'GET' && method !== 'HEAD') return Promise.resolve(failure(405, 'Method not allowed', { allow: 'GET, HEAD' }));
      const query = incoming.url().searchParams;
      const asked = query.get(ORDER_REF_PARAM);
      const attempt = query.get(ATTEMPT_PARAM) ?? undefined;
      if (asked === null || asked === '' || (attempt !== undefined && !isAttemptId(attempt))) {
        return Promise.resolve(told(span, 'not_found', NOT_FOUND, undefined, attempt));
      }
      let allowed: ReturnType<StatusHandlerOptions['authorize']>;
      try {
        allowed = authorize(incoming.request(), asked);
      } catch (error) {
        return Promise.resolve(authorizeFailed(span, attempt, error));
      }
      // A synchronous answer (a session already read) goes on at once, with no promise in between.
      if (!isThenable(allowed)) return decided(incoming, span, asked, attempt, allowed);
      return Promise.resolve(allowed).then(
        (value) => adopted(decided(incoming, span, asked, attempt, value)),
        (error: unknown) => authorizeFailed(span, attempt, error),
      );
    }),
  );
}
