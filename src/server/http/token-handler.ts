// The token endpoint the browser calls (docs/server.md, Token endpoint). It keeps at most one payable
// attempt per order through the store (docs/service-contract.md, Attempts): every request for an order
// with a live attempt gets that attempt's key, so the service is asked once per attempt.
import type { PaymentClient } from '../client/payment-client.js';
import { AuthenticationError, PayFormError, ServiceAddressError, ValidationError, requireOptions } from '../errors.js';
import type { TokenParams } from '../../service/fields.js';
import { attemptRequestId, newAttemptId, type TokenRequestBody } from '../../service/checkout.js';
import type { AttemptStore, KeptToken } from '../stores/callback-store.js';
import { answer, failure, readJsonObject, type FetchHandler } from './json-answers.js';
import { Answer, fetchHandler } from './handler-logic.js';
import { fn, timerMilliseconds } from '../../service/option-rules.js';
import { emitter, type ObserverOptions } from '../telemetry/observer.js';
import { instrumented, traced, type Step } from '../telemetry/otel.js';
import { orderAttributes } from '../telemetry/attributes.js';
import { formLanguage } from '../../service/language.js';
import { publicBaseProblem, serviceBase } from './service-base.js';

export type { TokenRequestBody };

/** What `resolve` answers: the token request for the order, `'paid'` for an order already paid, or null/undefined for an unknown or refused one. */
export type ResolvedOrder = TokenParams | 'paid' | null | undefined;

export interface TokenHandlerOptions extends ObserverOptions {
  /** The PaymentClient; its `baseUrl`, when it has one, goes to the page with every key (base_url). */
  client: Pick<PaymentClient, 'obtainToken'> & Partial<Pick<PaymentClient, 'baseUrl'>>;
  /** The service's address as the shopper's browser reaches it, when it is not the client's baseUrl
   *  (the server reaching the service by an inner address). Default the client's baseUrl. */
  publicBaseUrl?: string;
  /**
   * Builds the token request from the merchant's own data (amount, currency, user) for the order the
   * browser names; its `request_id` is the merchant's order reference. Return `'paid'` for an order
   * already paid (the browser gets 409, the element `order-paid`), null or undefined for an unknown or
   * refused order (404).
   */
  resolve: (request: Request, body: TokenRequestBody) => ResolvedOrder | Promise<ResolvedOrder>;
  /** Required: the store the callback and status handlers share. It keeps each order's one payable
   *  attempt with its key, and knows a paid order (409 without calling the service). */
  store: AttemptStore;
  /**
   * How long a key is handed out again, from when its attempt started; after it the next request
   * starts a new attempt. The service states no key lifetime: keep this at or below yours (the
   * sandbox's is 15 minutes). A payment on an older key is still caught, as an extra payment.
   * Default 600000 (10 minutes).
   */
  keyLifetimeMs?: number;
  /** How long a request waits for another one obtaining the order's key, and how long that one may
   *  take before another request starts the attempt anew; past it, 503. Default 60000. */
  obtainWaitMs?: number;
  /** @deprecated Use `observer` (docs/observability.md): told about every failure (typed PayFormError or what resolve threw). */
  onError?: (error: unknown) => void;
}

/** How often a request waiting for another one's key asks the store again. */
const ASK_AGAIN_MS = 50;

const PAID = answer(409, { success: false, message: 'Order already paid', paid: true });
const UNAVAILABLE = failure(503, 'Payment could not be started', { 'retry-after': '1' });
// The shop's setup, told apart from the service failing (502) by its code: docs/troubleshooting.md.
const WRONG_ADDRESS = answer(500, { success: false, message: "Payment service address is wrong: check the shop's PaymentClient baseUrl", code: 'service_address' });

/**
 * Answers 200 `{ key, attempt }` or `{ redirect_url, attempt }`: the order's live attempt, or a new one.
 * Failures: 405 not POST; 400 wrong content type or JSON (the service's message), or order_ref not a
 * string, or language not a string; 413 body over 64 KiB; 404 resolve returned null; 409 the order is paid (resolve said so, or
 * the store knows it, also when it got paid while this request obtained a key); 400 resolve threw; 500
 * resolve's params broke the field rules, or the service refused the merchant's credentials (both the
 * merchant's setup); 502 the service failed (ApiError, SignatureError, NetworkError, TimeoutError,
 * BadResponseError); 503 the store failed, or another request held the order's key past obtainWaitMs.
 */
export function createTokenHandler(options: TokenHandlerOptions): FetchHandler {
  const lifetimeMs = options?.keyLifetimeMs ?? 600_000;
  const obtainMs = options?.obtainWaitMs ?? 60_000;
  requireOptions('createTokenHandler', [
    ['client', fn(options?.client?.obtainToken) && 'must be a PaymentClient'],
    ['resolve', fn(options?.resolve)],
    ['store', fn(options?.store?.startAttempt) && fn(options?.store?.keepToken) && fn(options?.store?.dropAttempt)
      && 'must be the store the callback and status handlers share (MemoryCallbackStore, RedisCallbackStore): without it an order could be paid twice'],
    ['keyLifetimeMs', timerMilliseconds(lifetimeMs)],
    ['obtainWaitMs', timerMilliseconds(obtainMs)],
    ['publicBaseUrl', publicBaseProblem(options?.publicBaseUrl)],
    ['observer', options?.observer === undefined ? undefined : fn(options.observer)],
  ]);
  const { client, resolve, store } = options;
  const emit = emitter(options);
  const onError = (error: unknown) => emit({ type: 'error', source: 'token', error });
  // A key opens at the service's address, which the page then needs from nowhere else (service-base.ts).
  const base = serviceBase(options);
  const tokenAnswer = (token: KeptToken, attempt: string) => answer(200, { ...token, attempt, ...('key' in token ? base : {}) });
  // The attempt handed out, for the trace and the observer (docs/observability.md).
  const handedOut = (span: Step, orderRef: string, attempt: string, outcome: 'started' | 'reused') => {
    if (span.recording) span.set(orderAttributes(orderRef, attempt));
    emit({ type: 'attempt', source: 'token', outcome, orderRef, attempt });
  };

  const obtain = async (params: TokenParams, orderRef: string, attempt: string): Promise<KeptToken | Answer> => {
    try {
      const token = await client.obtainToken({ ...params, request_id: attemptRequestId(orderRef, attempt) });
      return token.redirect_url !== undefined ? { redirect_url: token.redirect_url } : { key: token.key };
    } catch (error) {
      onError(error);
      // The next request starts another attempt at once instead of waiting for this one's key.
      await store.dropAttempt(orderRef, attempt).catch(onError);
      if (error instanceof ServiceAddressError) return WRONG_ADDRESS;
      if (error instanceof ValidationError || error instanceof AuthenticationError || !(error instanceof PayFormError)) {
        return failure(500, error instanceof AuthenticationError ? 'Payment service refused the shop' : 'Payment could not be started');
      }
      return failure(502, 'Payment service unavailable');
    }
  };

  // One step of the store at a time: the order's live attempt, or this request's own new one; a request
  // that finds another obtaining the key asks again until obtainWaitMs.
  const payable = async (params: TokenParams, orderRef: string, span: Step): Promise<Answer> => {
    const request = { amount: String(params.amount), currency: String(params.currency), lifetimeMs, obtainMs };
    const deadline = Date.now() + obtainMs;
    while (Date.now() < deadline) {
      const start = await store.startAttempt(orderRef, { ...request, attempt: newAttemptId() });
      if (start.state === 'paid') return PAID;
      if (start.state === 'live') {
        handedOut(span, orderRef, start.attempt, 'reused');
        return tokenAnswer(start.token, start.attempt);
      }
      if (start.state === 'obtaining') {
        await new Promise((wake) => setTimeout(wake, ASK_AGAIN_MS * (0.5 + Math.random())));
        continue;
      }
      const token = await obtain(params, orderRef, start.attempt);
      if (token instanceof Answer) return token;
      const kept = await store.keepToken(orderRef, start.attempt, token);
      if (kept === 'paid') return PAID;
      if (kept === 'kept') {
        handedOut(span, orderRef, start.attempt, 'started');
        return tokenAnswer(token, start.attempt);
      }
      // 'gone': another request replaced the attempt meanwhile (other terms): ask again.
    }
    return UNAVAILABLE;
  };

  return fetchHandler(instrumented('pay_form.token', async (incoming, span) => {
    const input = await readJsonObject(incoming);
    if (input instanceof Answer) return input;
    const orderRef = input['order_ref'];
    if (orderRef !== undefined && typeof orderRef !== 'string') return failure(400, 'order_ref must be a string');
    const language = input['language'];
    if (language !== undefined && typeof language !== 'string') return failure(400, 'language must be a string');
    const body: TokenRequestBody = orderRef === undefined ? {} : { order_ref: orderRef };
    if (language !== undefined) body.language = language;

    const request = incoming.request();
    let params: ResolvedOrder;
    try {
      params = await traced('pay_form.token.resolve', undefined, () => resolve(request, body));
    } catch (error) {
      onError(error);
      return failure(400, 'Order could not be resolved');
    }
    if (params === 'paid') return PAID;
    if (params === null || params === undefined) return failure(404, 'Order not found');
    if (typeof params.request_id !== 'string') {
      onError(new ValidationError([{ path: 'request_id', message: 'must be a string: the order reference' }]));
      return failure(500, 'Payment could not be started');
    }
    try {
      // The page's language as the form's, unless the merchant's resolve chose one (docs/server.md, Token endpoint).
      const hint = language === undefined || params.language !== undefined ? {} : { language: formLanguage(language) };
      if (span.recording) span.set({ 'pay_form.order_ref': params.request_id });
      return await payable({ ...params, ...hint }, params.request_id, span);
    } catch (error) {
      onError(error);
      return UNAVAILABLE;
    }
  }));
}
