// The token endpoint the browser calls (docs/server.md, Token endpoint). Each token it obtains starts a
// payment attempt of the order (docs/service-contract.md, Attempts).
import type { PaymentClient } from '../client/payment-client.js';
import { AuthenticationError, PayFormError, ValidationError, requireOptions } from '../errors.js';
import type { TokenParams } from '../../service/fields.js';
import { attemptRequestId, newAttemptId, type TokenRequestBody } from '../../service/checkout.js';
import type { AttemptStore } from '../stores/callback-store.js';
import { answer, failure, readJsonObject, type FetchHandler } from './json-answers.js';
import { Answer, fetchHandler } from './handler-logic.js';
import { fn } from '../../service/option-rules.js';
import { emitter, type ObserverOptions } from '../telemetry/observer.js';
import { instrumented, traced } from '../telemetry/otel.js';
import { orderAttributes } from '../telemetry/attributes.js';

export type { TokenRequestBody };

/** What `resolve` answers: the token request for the order, `'paid'` for an order already paid, or null/undefined for an unknown or refused one. */
export type ResolvedOrder = TokenParams | 'paid' | null | undefined;

export interface TokenHandlerOptions extends ObserverOptions {
  client: Pick<PaymentClient, 'obtainToken'>;
  /**
   * Builds the token request from the merchant's own data (amount, currency, user) for the order the
   * browser names; its `request_id` is the merchant's order reference. Return `'paid'` for an order
   * already paid (the browser gets 409, the element `order-paid`), null or undefined for an unknown or
   * refused order (404).
   */
  resolve: (request: Request, body: TokenRequestBody) => ResolvedOrder | Promise<ResolvedOrder>;
  /** The store the callback and status handlers share: an order it knows as paid is refused (409)
   *  without calling the service, and the attempt becomes the order's current one. */
  store?: AttemptStore;
  /** @deprecated Use `observer` (docs/observability.md): told about every failure (typed PayFormError or what resolve threw). */
  onError?: (error: unknown) => void;
}

const PAID = answer(409, { success: false, message: 'Order already paid', paid: true });
const UNAVAILABLE = failure(503, 'Payment could not be started', { 'retry-after': '1' });

/**
 * Answers 200 `{ key, attempt }` or `{ redirect_url, attempt }`. Failures: 405 not POST; 400 wrong
 * content type or JSON (the service's message), or order_ref not a string; 413 body over 64 KiB; 404
 * resolve returned null; 409 the order is paid (resolve said so, or the store knows it); 400 resolve
 * threw; 500 resolve's params broke the field rules, or the service refused the merchant's credentials
 * (both the merchant's setup); 502 the service failed (ApiError, SignatureError, NetworkError,
 * TimeoutError, BadResponseError); 503 the store failed.
 */
export function createTokenHandler(options: TokenHandlerOptions): FetchHandler {
  requireOptions('createTokenHandler', [
    ['client', fn(options?.client?.obtainToken) && 'must be a PaymentClient'],
    ['resolve', fn(options?.resolve)],
    ['store', options?.store === undefined ? undefined : fn(options.store?.startAttempt) && 'must be a store with startAttempt()'],
    ['observer', options?.observer === undefined ? undefined : fn(options.observer)],
  ]);
  const { client, resolve, store } = options;
  const emit = emitter(options);
  const onError = (error: unknown) => emit({ type: 'error', source: 'token', error });

  return fetchHandler(instrumented('pay_form.token', async (incoming, span) => {
    const input = await readJsonObject(incoming);
    if (input instanceof Answer) return input;
    const orderRef = input['order_ref'];
    if (orderRef !== undefined && typeof orderRef !== 'string') return failure(400, 'order_ref must be a string');
    const body: TokenRequestBody = orderRef === undefined ? {} : { order_ref: orderRef };

    const request = incoming.request();
    let params: ResolvedOrder;
    try {
      params = await traced('pay_form.token.resolve', {}, () => resolve(request, body));
    } catch (error) {
      onError?.(error);
      return failure(400, 'Order could not be resolved');
    }
    if (params === 'paid') return PAID;
    if (params === null || params === undefined) return failure(404, 'Order not found');

    const attempt = newAttemptId();
    const ref = typeof params.request_id === 'string' ? params.request_id : undefined;
    span.set(orderAttributes(ref, attempt));
    if (store !== undefined && typeof params.request_id === 'string') {
      try {
        if ((await store.startAttempt(params.request_id, attempt)) === 'paid') return PAID;
      } catch (error) {
        onError?.(error);
        return UNAVAILABLE;
      }
    }
    try {
      // A request_id that is not a string is left as it is, for the field rules to refuse.
      const requestId = typeof params.request_id === 'string' ? attemptRequestId(params.request_id, attempt) : params.request_id;
      const token = await client.obtainToken({ ...params, request_id: requestId });
      if (ref !== undefined) emit({ type: 'attempt', source: 'token', outcome: 'started', orderRef: ref, attempt });
      return answer(200, token.redirect_url !== undefined ? { redirect_url: token.redirect_url, attempt } : { key: token.key, attempt });
    } catch (error) {
      onError?.(error);
      if (error instanceof ValidationError || error instanceof AuthenticationError || !(error instanceof PayFormError)) {
        return failure(500, error instanceof AuthenticationError ? 'Payment service refused the shop' : 'Payment could not be started');
      }
      return failure(502, 'Payment service unavailable');
    }
  }));
}
