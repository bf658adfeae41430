// The token endpoint the browser calls (docs/server.md, Token endpoint).
import type { PaymentClient } from '../client/payment-client.js';
import { PayFormError, ValidationError, requireOptions } from '../errors.js';
import type { TokenParams } from '../../service/fields.js';
import { answer, failure, readJsonObject, type FetchHandler } from './json-answers.js';
import { Answer, fetchHandler } from './handler-logic.js';
import { fn } from '../../service/option-rules.js';

/** What the browser may send: only an order reference. Any other field is dropped before resolve. */
export interface TokenRequestBody {
  order_ref?: string;
}

export interface TokenHandlerOptions {
  client: Pick<PaymentClient, 'obtainToken'>;
  /**
   * Builds the token request from the merchant's own data (amount, currency, user) for the order the
   * browser names. Return null (or undefined) for an unknown order: the browser gets 404.
   */
  resolve: (request: Request, body: TokenRequestBody) => TokenParams | null | undefined | Promise<TokenParams | null | undefined>;
  /** Told about every failure (typed PayFormError or what resolve threw), for the merchant's logs. */
  onError?: (error: unknown) => void;
}

/**
 * Answers 200 `{ key }` or `{ redirect_url }`. Failures: 405 not POST; 400 wrong content type or JSON
 * (the service's message), or order_ref not a string; 413 body over 64 KiB; 404 resolve returned null; 400
 * resolve threw; 500 resolve's params broke the field rules (a merchant bug); 502 the service failed
 * (ApiError, SignatureError, NetworkError, TimeoutError, BadResponseError).
 */
export function createTokenHandler(options: TokenHandlerOptions): FetchHandler {
  requireOptions('createTokenHandler', [
    ['client', fn(options?.client?.obtainToken) && 'must be a PaymentClient'],
    ['resolve', fn(options?.resolve)],
  ]);
  const { client, resolve, onError } = options;

  return fetchHandler(async (incoming) => {
    const input = await readJsonObject(incoming);
    if (input instanceof Answer) return input;
    const orderRef = input['order_ref'];
    if (orderRef !== undefined && typeof orderRef !== 'string') return failure(400, 'order_ref must be a string');
    const body: TokenRequestBody = orderRef === undefined ? {} : { order_ref: orderRef };

    const request = incoming.request();
    let params: TokenParams | null | undefined;
    try {
      params = await resolve(request, body);
    } catch (error) {
      onError?.(error);
      return failure(400, 'Order could not be resolved');
    }
    if (params === null || params === undefined) return failure(404, 'Order not found');

    try {
      const token = await client.obtainToken(params);
      return token.redirect_url !== undefined ? answer(200, { redirect_url: token.redirect_url }) : answer(200, { key: token.key });
    } catch (error) {
      onError?.(error);
      if (error instanceof ValidationError || !(error instanceof PayFormError)) {
        return failure(500, 'Payment could not be started');
      }
      return failure(502, 'Payment service unavailable');
    }
  });
}
