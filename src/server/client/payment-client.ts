// PaymentClient: validate the whole body with the shared field rules, sign it, send it, verify the
// answer. Nothing leaves before validation passed; nothing is trusted before the signature checked.
import { ApiError, AuthenticationError, BadResponseError, SignatureError, ValidationError, type Operation } from '../errors.js';
import {
  validatePayoutRequest,
  validateTokenRequest,
  type FieldIssue,
  type PayoutParams,
  type TokenParams,
  type Validation,
} from '../../service/fields.js';
import { resolveOptions, type PaymentClientOptions, type ResolvedOptions } from './client-options.js';
import { SERVICE_PATHS } from '../../service/paths.js';
import { signed, type JsonValue } from '../../service/signature.js';
import { postJson } from './transport.js';
import { addressOrBad, notTheService } from './service-address.js';
import { guardedPayout, resolvePayout, type PayoutOutcome, type PayoutRef } from '../payouts/payout-guard.js';
import type { PayoutEntry } from '../payouts/payout-ledger.js';
import { loadTelemetry, traced } from '../telemetry/otel.js';
import { payoutFailure } from '../telemetry/service-calls.js';
import type { Attributes } from '../telemetry/attributes.js';
import { parseRequestId } from '../../service/checkout.js';

/** obtain_token's answer. Show the user the form with `key`, or send them to `redirect_url`. */
export interface TokenResponse {
  success: true;
  key: string;
  redirect_url?: string;
  signature: string;
  [field: string]: JsonValue | undefined;
}

/** The payout invoice. Types beyond the service's list are not shown by the service; they pass through. */
export interface PayoutResponse {
  success: true;
  status: string;
  invoice_id: string | number;
  request_id: string;
  amount: number;
  currency: string;
  site_login: string;
  site_id: number;
  signature: string;
  [field: string]: JsonValue | undefined;
}


/** What a successful answer must hold for the client to hand it over. */
const SUCCESS_SHAPE: Readonly<Record<Operation, (body: Record<string, unknown>) => string | undefined>> = {
  obtain_token: (b) =>
    typeof b['key'] !== 'string' || b['key'] === ''
      ? 'no key'
      : b['redirect_url'] !== undefined && typeof b['redirect_url'] !== 'string'
        ? 'redirect_url is not a string'
        : undefined,
  payout: (b) =>
    typeof b['invoice_id'] !== 'string' && typeof b['invoice_id'] !== 'number' ? 'no invoice_id' : undefined,
};

/** The payout answer's fields that repeat the request (docs/service-contract.md, Payout answer). */
const PAYOUT_ECHOES = ['request_id', 'amount', 'currency', 'site_id', 'site_login'] as const;

/** What the obtain_token span carries: the order and attempt of the request_id, never the rest. */
function tokenAttributes(params: unknown): Attributes {
  const requestId = (params as { request_id?: unknown } | null)?.request_id;
  const order = typeof requestId === 'string' ? parseRequestId(requestId) : { orderRef: undefined, attempt: undefined };
  return { 'pay_form.operation': 'obtain_token', 'pay_form.order_ref': order.orderRef, 'pay_form.attempt': order.attempt };
}

/** The same string or number; a number the service sends back as its decimal string also counts. */
const echoes = (answered: unknown, sent: unknown) =>
  (typeof answered === 'string' || typeof answered === 'number') && String(answered) === String(sent);

export class PaymentClient {
  readonly #options: ResolvedOptions;

  constructor(options: PaymentClientOptions) {
    this.#options = resolveOptions(options);
    void loadTelemetry();
  }

  /** The service's base URL as given (no trailing slash): public, so the token handler hands it to the page. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** POST /api/jsapi/obtain_token/. Retried on network errors, timeouts, 429 and 5xx. */
  async obtainToken(params: TokenParams): Promise<TokenResponse> {
    const body = await traced('pay_form.obtain_token', () => tokenAttributes(params), () => this.#call('obtain_token', params, validateTokenRequest));
    return body as TokenResponse;
  }

  /**
   * POST /api/payout/. Retried only when the connection was refused. A TimeoutError, or a
   * NetworkError / BadResponseError with `outcomeUnknown: true`, means the payout may exist:
   * look it up by request_id, never send it again. The request_id is claimed in the payout ledger
   * first: a repeat gets the stored invoice or a DuplicatePayoutError, and never reaches the service.
   */
  async createPayout(params: PayoutParams): Promise<PayoutResponse> {
    const o = this.#options;
    const rid = (params as { request_id?: unknown } | null)?.request_id;
    const requestId = typeof rid === 'string' ? rid : '';
    return traced('pay_form.payout', () => ({ 'pay_form.operation': 'payout', 'pay_form.payout.request_id': requestId }), async () => {
      let sent = false;
      try {
        const payout = this.#validate('payout', params, validatePayoutRequest);
        // Signed before the claim: a signer that throws has sent nothing and must not leave a claim behind.
        const request = await signed(payout as unknown as Record<string, unknown>, o.signer);
        const body = await guardedPayout(o.payoutLedger, o.merchantId, payout, o.payoutLeaseMs, () => ((sent = true), this.#send('payout', request)));
        o.emit({ type: 'payout', source: 'client', outcome: sent ? 'sent' : 'replayed', requestId });
        return body as PayoutResponse;
      } catch (error) {
        o.emit({ type: 'payout', source: 'client', outcome: payoutFailure(error), requestId });
        throw error;
      }
    });
  }

  /**
   * Records what you learned about a payout whose outcome was unknown (docs/payouts.md):
   * `{ status: 'paid', invoice }` answers later repeats with that invoice; `{ status: 'not-paid' }` frees
   * the request_id for a new payout. Answers what the ledger holds afterwards (undefined: free).
   */
  async resolvePayout(ref: PayoutRef, outcome: PayoutOutcome): Promise<PayoutEntry | undefined> {
    return resolvePayout(this.#options.payoutLedger, this.#options.merchantId, ref, outcome);
  }

  async #call<T extends object>(
    operation: Operation,
    params: object,
    validate: (input: unknown) => Validation<T>,
  ): Promise<Record<string, unknown>> {
    const value = this.#validate(operation, params, validate);
    return this.#send(operation, await signed(value as Record<string, unknown>, this.#options.signer));
  }

  #validate<T extends object>(operation: Operation, params: object, validate: (input: unknown) => Validation<T>): T {
    const o = this.#options;
    const clash: FieldIssue[] = ['merchant_id']
      .filter((field) => params !== null && typeof params === 'object' && field in params)
      .map((field) => ({ path: field, message: 'is added by the client; leave it out' }));
    const result = validate({ ...params, merchant_id: o.merchantId });
    const issues = [...clash, ...(result.ok ? [] : result.issues)];
    if (!result.ok || issues.length > 0) throw new ValidationError(issues);
    for (const warning of result.warnings) o.emit({ type: 'warning', source: 'client', warning: { ...warning, operation } });
    return result.value;
  }

  async #send(operation: Operation, request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const o = this.#options;
    const url = o.baseUrl + SERVICE_PATHS[operation];
    const answer = await postJson(o.transport, operation, url, JSON.stringify(request)).catch((error: unknown) => {
      throw addressOrBad(error, url, o.baseUrl);
    });
    const { body, status, attempts } = answer;
    const foreign = notTheService(operation, status, body, attempts, url, o.baseUrl);
    if (foreign) throw foreign;

    const signature = body['signature'];
    // A 401 or 403 refusal is the service refusing our own signature or merchant_id: with a wrong
    // secret its answer cannot verify either, and that must not read as the service's fault.
    const refusedUs = body['success'] === false && (status === 401 || status === 403);
    let verified = false;
    if (o.verifier) {
      if (typeof signature === 'string') {
        const { signature: _s, ...unsigned } = body;
        // A verifier that throws on a strange answer has refused it, as far as the caller is concerned.
        const ok = await Promise.resolve()
          .then(() => o.verifier!(unsigned, signature))
          .catch(() => false);
        if (!ok && !refusedUs) throw new SignatureError(operation, status, 'mismatch');
        verified = ok;
      } else if (body['success'] !== false) {
        // A failure without a signature is still reported (verified: false); a success never is.
        throw new SignatureError(operation, status, 'missing');
      }
    }
    const outcomeUnknown = operation === 'payout';
    if (body['success'] === false) {
      // Only a verified 4xx refusal is a definite "no payout" (the payout ledger frees the request_id on
      // the same rule): an unsigned one may come from anything in front of the service, a 5xx may have
      // been sent after the invoice was made, and a 409 says a payout with this request_id exists.
      const unknown = outcomeUnknown && !(verified && status >= 400 && status < 500 && status !== 409);
      const init = { operation, status, body: body as Record<string, JsonValue>, verified, outcomeUnknown: unknown };
      throw refusedUs ? new AuthenticationError(init) : new ApiError(init);
    }
    const shapeProblem =
      body['success'] !== true
        ? 'success is not a boolean'
        : status < 200 || status > 299
          ? 'success: true with a non-2xx status'
          : SUCCESS_SHAPE[operation](body);
    if (shapeProblem) {
      throw new BadResponseError({ operation, status, reason: 'shape', detail: shapeProblem, attempts, outcomeUnknown });
    }
    // A signed answer is only ours if it echoes our request: another payout's answer, replayed, is not.
    const mismatch = operation === 'payout' ? PAYOUT_ECHOES.find((field) => !echoes(body[field], request[field])) : undefined;
    if (mismatch !== undefined) {
      const detail = `${mismatch} does not match the request`;
      throw new BadResponseError({ operation, status, reason: 'mismatch', detail, attempts, outcomeUnknown });
    }
    return body;
  }
}
