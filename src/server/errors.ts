// One error class per kind of failure, all under PayFormError (service/errors.ts), so a merchant can
// branch on `instanceof` or on the stable `code` string. Messages are built from our own words and the
// service's `message`; ApiError's `body` drops the `signature` field (docs/server.md, Errors).
import { PayFormError, listIssues } from '../service/errors.js';
import type { ServerErrorCode } from '../service/error-codes.js';
import type { FieldIssue } from '../service/fields.js';
import type { Operation } from '../service/paths.js';
import type { JsonValue } from '../service/signature.js';

export { PayFormError, ConfigError, listIssues, requireOptions } from '../service/errors.js';
export type { PayFormErrorCode, ServerErrorCode } from '../service/error-codes.js';
export type { Operation } from '../service/paths.js';

/** Appended to every message whose error may follow a request the service acted on. */
const UNKNOWN_OUTCOME = '; the outcome is unknown: reconcile, do not resend';

/**
 * A call to the service failed: what every such error carries. `outcomeUnknown` is true when the
 * service may have received and acted on the request: for a payout that means reconcile (look the
 * request_id up), never resend; the message then says so.
 */
export abstract class ServiceCallError extends PayFormError {
  readonly operation: Operation;
  readonly outcomeUnknown: boolean;

  constructor(code: ServerErrorCode, operation: Operation, outcomeUnknown: boolean, message: string, options?: { cause?: unknown }) {
    super(code, outcomeUnknown ? message + UNKNOWN_OUTCOME : message, options);
    this.operation = operation;
    this.outcomeUnknown = outcomeUnknown;
  }
}

/** A request body broke the service's field rules (docs/service-contract.md); nothing was sent. Lists every bad field. */
export class ValidationError extends PayFormError {
  readonly issues: readonly FieldIssue[];

  constructor(issues: readonly FieldIssue[]) {
    super('validation', `Invalid request: ${listIssues(issues)}`);
    this.issues = issues;
  }
}

interface ApiErrorInit {
  operation: Operation;
  status: number;
  body: Record<string, JsonValue>;
  verified: boolean;
  outcomeUnknown?: boolean;
}

/** The service answered `success: false`. */
export class ApiError extends ServiceCallError {
  readonly status: number;
  /** The service's own text, e.g. 'Invalid ContentType or json format'. */
  readonly serviceMessage: string;
  /** The answer's fields without `signature`. */
  readonly body: Readonly<Record<string, JsonValue>>;
  /** True when the failure answer carried a signature and it checked out; false when it had none. */
  readonly verified: boolean;
  // outcomeUnknown: for a payout refused without a verified signature, or with a status other than a
  // 4xx below 409's "exists", the refusal cannot be trusted to mean no invoice exists. Always false for
  // obtain_token.

  constructor(init: ApiErrorInit, code: 'api' | 'authentication' = 'api', hint = '') {
    const { signature: _dropped, ...rest } = init.body;
    const serviceMessage = typeof rest['message'] === 'string' ? rest['message'] : '';
    super(
      code,
      init.operation,
      init.outcomeUnknown === true,
      `${init.operation} ${hint ? 'was refused' : 'failed'} (HTTP ${init.status}): ${serviceMessage || 'no message'}${hint}`,
    );
    this.status = init.status;
    this.serviceMessage = serviceMessage;
    this.body = rest;
    this.verified = init.verified;
  }
}

/**
 * The service refused the merchant's own credentials: it answered `success: false` with HTTP 401 or
 * 403, which a wrong secret or merchant_id gives (the sandbox: `Invalid signature`, `Unknown
 * merchant_id`). Its signature often cannot be checked, since it was signed with the secret the client
 * lacks. An ApiError with its own code, so `instanceof ApiError` still finds it.
 */
export class AuthenticationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'authentication', ": check the PaymentClient's secret and merchantId, the likely cause");
  }
}

/**
 * An answer's signature is missing or wrong: its content cannot be trusted. For a payout the service
 * may still have created the invoice, so `outcomeUnknown` is true: reconcile, do not resend.
 */
export class SignatureError extends ServiceCallError {
  readonly status: number;

  constructor(operation: Operation, status: number, reason: 'missing' | 'mismatch') {
    super(
      'signature',
      operation,
      operation === 'payout',
      `${operation} answer (HTTP ${status}) ${reason === 'missing' ? 'carries no signature' : 'has a wrong signature'}`,
    );
    this.status = status;
  }
}

/** What every transport-level failure is told. */
interface TransportFailure {
  operation: Operation;
  attempts: number;
  outcomeUnknown: boolean;
}

/** The connection failed (refused, reset, cut mid-answer). */
export class NetworkError extends ServiceCallError {
  readonly attempts: number;
  /** The system error code found in the cause chain, e.g. 'ECONNREFUSED', when there is one. */
  readonly systemCode: string | undefined;

  constructor(init: TransportFailure & { systemCode: string | undefined; cause: unknown }) {
    super(
      'network',
      init.operation,
      init.outcomeUnknown,
      `${init.operation} could not reach the payment service${init.systemCode ? ` (${init.systemCode})` : ''} after ${init.attempts} attempt(s)`,
      { cause: init.cause },
    );
    this.attempts = init.attempts;
    this.systemCode = init.systemCode;
  }
}

/** No complete answer within timeoutMs. The request may have been processed. */
export class TimeoutError extends ServiceCallError {
  declare readonly outcomeUnknown: true;
  readonly attempts: number;
  readonly timeoutMs: number;

  constructor(init: { operation: Operation; attempts: number; timeoutMs: number }) {
    super('timeout', init.operation, true, `${init.operation} got no complete answer within ${init.timeoutMs} ms after ${init.attempts} attempt(s)`);
    this.attempts = init.attempts;
    this.timeoutMs = init.timeoutMs;
  }
}

export type BadResponseReason = 'content-type' | 'not-json' | 'too-large' | 'shape' | 'mismatch' | 'not-found';

type BadResponseInit = TransportFailure & { status: number; reason: BadResponseReason; detail: string };
const describe = (init: BadResponseInit) => `HTTP ${init.status}, ${init.reason}: ${init.detail}`;

/**
 * The service (or something in front of it) answered, but not with a usable JSON answer: a wrong
 * content type, HTML, truncated JSON, a body over the size cap, JSON without a boolean `success`, or
 * (`mismatch`) a payout answer whose echoed fields are not those of the request.
 * For a payout the service may still have acted, so `outcomeUnknown` is true.
 */
export class BadResponseError extends ServiceCallError {
  readonly status: number;
  readonly reason: BadResponseReason;
  /** What was wrong with it, in our words: `content type "text/html"`, `no key`… */
  readonly detail: string;
  readonly attempts: number;

  constructor(init: BadResponseInit, code: 'bad_response' | 'service_address' = 'bad_response', message = `got an unusable answer (${describe(init)}) after ${init.attempts} attempt(s)`) {
    super(code, init.operation, init.outcomeUnknown, `${init.operation} ${message}`);
    this.status = init.status;
    this.reason = init.reason;
    this.detail = init.detail;
    this.attempts = init.attempts;
  }
}

/**
 * What answers at PaymentClient's baseUrl is not the payment service: a 404 or 405, an HTML page, another
 * content type, or JSON without the service's `success`, with a status below 500. The merchant's setup
 * (the `baseUrl`, e.g. `PAY_BASE_URL`), not the service failing: the message names the URL asked and
 * `baseUrl`, and the token handler answers 500, the shop's setup, instead of 502
 * (docs/troubleshooting.md). A BadResponseError with its own code, so `instanceof BadResponseError`
 * still finds it.
 */
export class ServiceAddressError extends BadResponseError {
  /** The URL the client asked. */
  readonly url: string;
  /** PaymentClient's baseUrl, as resolved. */
  readonly baseUrl: string;

  constructor(init: BadResponseInit, url: string, baseUrl: string) {
    super(
      init,
      'service_address',
      `asked ${url} and what answered is not the payment service (${describe(init)}): check PaymentClient's baseUrl (${baseUrl}), e.g. PAY_BASE_URL`,
    );
    this.url = url;
    this.baseUrl = baseUrl;
  }
}

/**
 * createPayout found its request_id (for this merchant and site_id) already in the payout ledger and
 * sent nothing. `state` says what the ledger holds: `in-flight` (another call is sending it: wait and
 * ask again), `unknown` (an earlier attempt's outcome is unknown, so `outcomeUnknown` is true: find out
 * from the service and record it with resolvePayout), or `paid` with `mismatch` (the request_id was
 * used for a payout with a different amount, currency, method or site_login). docs/payouts.md.
 */
export class DuplicatePayoutError extends PayFormError {
  readonly operation = 'payout' as const;
  readonly siteId: number;
  readonly requestId: string;
  readonly state: 'in-flight' | 'unknown' | 'paid';
  /** The earlier payout under this request_id differs in amount, currency, method or site_login. */
  readonly mismatch: boolean;
  readonly outcomeUnknown: boolean;

  constructor(init: { siteId: number; requestId: string; state: 'in-flight' | 'unknown' | 'paid'; mismatch: boolean }) {
    const what = init.mismatch
      ? 'was already used for a different payout'
      : init.state === 'in-flight'
        ? 'is being sent by another call; ask again once it is done'
        : init.state === 'unknown'
          ? "has an earlier attempt whose outcome is unknown: reconcile it (resolvePayout), do not resend"
          : 'is already paid';
    super('duplicate_payout', `payout request_id ${JSON.stringify(init.requestId)} (site ${init.siteId}) ${what}; nothing was sent`);
    this.siteId = init.siteId;
    this.requestId = init.requestId;
    this.state = init.state;
    this.mismatch = init.mismatch;
    this.outcomeUnknown = init.state === 'unknown';
  }
}

/** The payout ledger could not be reached or failed, so the payout was not sent (never unguarded). */
export class PayoutLedgerError extends PayFormError {
  readonly operation = 'payout' as const;
  /** Nothing was sent. */
  readonly outcomeUnknown = false as const;

  constructor(step: 'claim' | 'resolve', cause: unknown) {
    super(
      'payout_ledger',
      step === 'claim'
        ? 'the payout ledger could not claim the request_id, so the payout was not sent'
        : 'the payout ledger could not record the outcome',
      { cause },
    );
  }
}

/**
 * A callback store (memory, Redis, your own) failed or answered what its contract does not allow, so
 * the callback was not recorded: the callback handler answers 5xx and the service delivers again.
 */
export class StoreError extends PayFormError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('store', message, options);
  }
}
