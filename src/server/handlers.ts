// Fetch-API handlers, `(request: Request) => Promise<Response>`: the token endpoint the browser calls
// and the callback endpoint the service calls. Every answer is JSON; failures use the service's shape (docs/service-contract.md, Errors)
// `{ success: false, message }` with our own fixed words, never upstream internals or a secret.
import { MemoryCallbackStore, type CallbackStore, type ClaimResult } from './callback-store.js';
import type { PaymentClient } from './client.js';
import { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES, failureBody, isJsonContentType, parseJsonObject, readCapped } from '../service/body.js';
import { knownRequestBytes, responseWithText } from './known-bodies.js';
import { ConfigError, PayFormError, ValidationError } from './errors.js';
import type { FieldIssue, TokenParams } from '../service/fields.js';
import type { CallbackPayload } from '../service/callback.js';
import { hmacVerifier, type JsonValue, type Verifier } from '../service/signature.js';
import type { PayoutLedger } from './payout-ledger.js';
import { settleFromCallback } from './payout-guard.js';

export { INVALID_JSON_MESSAGE, MAX_REQUEST_BYTES };
export type { CallbackPayload };

export type FetchHandler = (request: Request) => Promise<Response>;

function answer(status: number, body: Record<string, JsonValue>, headers: Record<string, string> = {}): Response {
  return responseWithText(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

const failure = (status: number, message: string, headers?: Record<string, string>) =>
  answer(status, failureBody(message), headers);

/** Method, size, content type and JSON checks shared by both handlers: a JSON object or a Response. */
async function readJsonObject(request: Request): Promise<Record<string, unknown> | Response> {
  if (request.method !== 'POST') return failure(405, 'Method not allowed', { allow: 'POST' });
  if (!isJsonContentType(request.headers.get('content-type'))) return failure(400, INVALID_JSON_MESSAGE);
  const declared = request.headers.get('content-length');
  // toNodeHandler's raw bytes when it built this Request; the stream (capped) for anyone else's.
  const known = knownRequestBytes(request);
  let bytes: Uint8Array;
  if (known !== undefined && known.byteLength <= MAX_REQUEST_BYTES && !(Number(declared) > MAX_REQUEST_BYTES)) {
    bytes = known;
  } else {
    const read = await readCapped(request.body, MAX_REQUEST_BYTES, declared);
    if (!read.ok) return failure(413, 'Request body too large');
    bytes = read.bytes;
  }
  const parsed = parseJsonObject(bytes);
  return parsed.ok ? parsed.value : failure(400, INVALID_JSON_MESSAGE);
}

function requireOptions(issues: FieldIssue[]): void {
  if (issues.length > 0) throw new ConfigError(issues);
}

// ---------------------------------------------------------------------------------------------
// Token endpoint

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
  requireOptions([
    ...(typeof options?.client?.obtainToken === 'function' ? [] : [{ path: 'client', message: 'must be a PaymentClient' }]),
    ...(typeof options?.resolve === 'function' ? [] : [{ path: 'resolve', message: 'must be a function' }]),
  ]);
  const { client, resolve, onError } = options;

  return async (request) => {
    const input = await readJsonObject(request);
    if (input instanceof Response) return input;
    const orderRef = input['order_ref'];
    if (orderRef !== undefined && typeof orderRef !== 'string') return failure(400, 'order_ref must be a string');
    const body: TokenRequestBody = orderRef === undefined ? {} : { order_ref: orderRef };

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
  };
}

// ---------------------------------------------------------------------------------------------
// Callback endpoint


interface CallbackCommon {
  /** Called once per (invoice_id, status). Throw to have the service deliver again. */
  onStatus: (payload: CallbackPayload) => void | Promise<void>;
  /** De-duplication; default a MemoryCallbackStore (one process, 10,000 keys, 24 h). */
  store?: CallbackStore;
  /** Told about onStatus or the store throwing, for the merchant's logs. */
  onError?: (error: unknown) => void;
  /** The PaymentClient's payout ledger: a payout's callback settles its entry before onStatus runs. */
  payoutLedger?: PayoutLedger;
}

export type CallbackHandlerOptions =
  | (CallbackCommon & { secret: string; verifier?: never })
  | (CallbackCommon & { verifier: Verifier; secret?: never });

/**
 * Answers 200 `{ success: true }` when the status is handled (now or before). Failures: 405 not POST;
 * 400 wrong content type or JSON (the service's message); 413 over 64 KiB; 401 signature missing or wrong;
 * 400 invoice_id or status not a string; 500 onStatus threw (the next delivery calls it again);
 * 503 with Retry-After when another server holds the same callback and the store cannot wait, or the
 * store itself fails.
 */
export function createCallbackHandler(options: CallbackHandlerOptions): FetchHandler {
  const hasSecret = typeof options?.secret === 'string' && options.secret !== '';
  const hasVerifier = typeof options?.verifier === 'function';
  requireOptions([
    ...(hasSecret === hasVerifier ? [{ path: 'secret', message: 'give exactly one of secret (non-empty) or verifier' }] : []),
    ...(typeof options?.onStatus === 'function' ? [] : [{ path: 'onStatus', message: 'must be a function' }]),
    ...(options?.payoutLedger === undefined || typeof options.payoutLedger.resolve === 'function'
      ? [] : [{ path: 'payoutLedger', message: 'must be a PayoutLedger' }]),
  ]);
  const verifier: Verifier = hasSecret ? hmacVerifier(options.secret as string) : (options.verifier as Verifier);
  const store = options.store ?? new MemoryCallbackStore();
  const { onError, payoutLedger } = options;
  const onStatus = payoutLedger
    ? async (p: CallbackPayload) => {
        await settleFromCallback(payoutLedger, p);
        await options.onStatus(p);
      }
    : options.onStatus;
  const handled = () => answer(200, { success: true });

  return async (request) => {
    const input = await readJsonObject(request);
    if (input instanceof Response) return input;
    const { signature, ...payload } = input;
    if (typeof signature !== 'string' || !(await verifier(payload, signature))) {
      return failure(401, 'Invalid signature');
    }
    if (typeof payload['invoice_id'] !== 'string' || typeof payload['status'] !== 'string') {
      return failure(400, 'invoice_id and status must be strings');
    }
    const key = JSON.stringify([payload['invoice_id'], payload['status']]);

    let claim: ClaimResult;
    try {
      claim = await store.begin(key);
      if (claim === 'in-flight') {
        if (!store.settled) return failure(503, 'Callback is being handled', { 'retry-after': '5' });
        return (await store.settled(key)) === 'done' ? handled() : failure(500, 'Callback not handled');
      }
    } catch (error) {
      // The store is down: nothing was handed over, so the service must deliver again.
      onError?.(error);
      return failure(503, 'Callback not handled', { 'retry-after': '5' });
    }
    if (claim === 'done') return handled();
    try {
      await onStatus(payload as CallbackPayload);
    } catch (error) {
      onError?.(error);
      await store.fail(key).catch(onError);
      return failure(500, 'Callback not handled');
    }
    // onStatus ran: answer 200 even if recording that fails (a later repeat may call onStatus again).
    await store.complete(key).catch(onError);
    return handled();
  };
}
