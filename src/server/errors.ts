// One error class per kind of failure, all under PayFormError, so a merchant can branch on
// `instanceof` or on the stable `code` string. None of them ever holds a secret or a signature:
// messages are built from our own words and the service's `message`, and ApiError's `body` drops
// the `signature` field. toJSON() is explicit so logging an error as JSON shows only safe fields.
import type { ServerErrorCode } from '../service/error-codes.js';
import type { FieldIssue } from '../service/fields.js';
import type { Operation } from '../service/paths.js';
import type { JsonValue } from '../service/signature.js';

export type { PayFormErrorCode, ServerErrorCode } from '../service/error-codes.js';
export type { Operation } from '../service/paths.js';

export class PayFormError extends Error {
  readonly code: ServerErrorCode;

  constructor(code: ServerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** The message and every own field (all safe by construction), never the stack or the cause. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const [field, value] of Object.entries(this)) {
      if (field !== 'cause' && field !== 'stack') out[field] = value;
    }
    return out;
  }
}

/** Issues as one line of an error message: `path: problem; path: problem`. */
export function listIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('; ');
}

/** The PaymentClient was constructed with bad options: a bug in the merchant's setup. */
export class ConfigError extends PayFormError {
  readonly issues: readonly FieldIssue[];

  /** `owner` names what was being made: the PaymentClient, or a handler factory. */
  constructor(issues: readonly FieldIssue[], owner = 'PaymentClient') {
    super('config', `Invalid ${owner} options: ${listIssues(issues)}`);
    this.issues = issues;
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
export class ApiError extends PayFormError {
  readonly status: number;
  readonly operation: Operation;
  /** The service's own text, e.g. 'Invalid ContentType or json format'. */
  readonly serviceMessage: string;
  /** The answer's fields without `signature`. */
  readonly body: Readonly<Record<string, JsonValue>>;
  /** True when the failure answer carried a signature and it checked out; false when it had none. */
  readonly verified: boolean;
  /**
   * For a payout refused without a verified signature, or with a status other than a 4xx below 409's
   * "exists": the refusal cannot be trusted to mean no invoice exists. Reconcile by request_id, do not
   * resend. Always false for obtain_token.
   */
  readonly outcomeUnknown: boolean;

  constructor(init: ApiErrorInit, code: 'api' | 'authentication' = 'api', hint = '') {
    const { signature: _dropped, ...rest } = init.body;
    const serviceMessage = typeof rest['message'] === 'string' ? rest['message'] : '';
    const outcomeUnknown = init.outcomeUnknown === true;
    super(
      code,
      `${init.operation} ${hint ? 'was refused' : 'failed'} (HTTP ${init.status}): ${serviceMessage || 'no message'}${hint}` +
        (outcomeUnknown ? '; the outcome is unknown: reconcile, do not resend' : ''),
    );
    this.status = init.status;
    this.operation = init.operation;
    this.serviceMessage = serviceMessage;
    this.body = rest;
    this.verified = init.verified;
    this.outcomeUnknown = outcomeUnknown;
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
export class SignatureError extends PayFormError {
  readonly operation: Operation;
  readonly status: number;
  readonly outcomeUnknown: boolean;

  constructor(operation: Operation, status: number, reason: 'missing' | 'mismatch') {
    super(
      'signature',
      `${operation} answer (HTTP ${status}) ${reason === 'missing' ? 'carries no signature' : 'has a wrong signature'}` +
        (operation === 'payout' ? '; the outcome is unknown: reconcile, do not resend' : ''),
    );
    this.operation = operation;
    this.status = status;
    this.outcomeUnknown = operation === 'payout';
  }
}

/**
 * The fields every transport-level failure shares. `outcomeUnknown` is true when the service may
 * have received and acted on the request: for a payout that means reconcile (look the request_id
 * up), never resend.
 */
interface TransportFailure {
  operation: Operation;
  attempts: number;
  outcomeUnknown: boolean;
}

/** The connection failed (refused, reset, cut mid-answer). */
export class NetworkError extends PayFormError {
  readonly operation: Operation;
  readonly attempts: number;
  readonly outcomeUnknown: boolean;
  /** The system error code found in the cause chain, e.g. 'ECONNREFUSED', when there is one. */
  readonly systemCode: string | undefined;

  constructor(init: TransportFailure & { systemCode: string | undefined; cause: unknown }) {
    super(
      'network',
      `${init.operation} could not reach the payment service` +
        `${init.systemCode ? ` (${init.systemCode})` : ''} after ${init.attempts} attempt(s)` +
        (init.outcomeUnknown ? '; the outcome is unknown: reconcile, do not resend' : ''),
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.attempts = init.attempts;
    this.outcomeUnknown = init.outcomeUnknown;
    this.systemCode = init.systemCode;
  }
}

/** No complete answer within timeoutMs. The request may have been processed. */
export class TimeoutError extends PayFormError {
  readonly operation: Operation;
  readonly attempts: number;
  readonly timeoutMs: number;
  readonly outcomeUnknown: true = true;

  constructor(init: { operation: Operation; attempts: number; timeoutMs: number }) {
    super(
      'timeout',
      `${init.operation} got no complete answer within ${init.timeoutMs} ms after ` +
        `${init.attempts} attempt(s); the outcome is unknown: reconcile, do not resend`,
    );
    this.operation = init.operation;
    this.attempts = init.attempts;
    this.timeoutMs = init.timeoutMs;
  }
}

export type BadResponseReason = 'content-type' | 'not-json' | 'too-large' | 'shape' | 'mismatch';

/**
 * The service (or something in front of it) answered, but not with a usable JSON answer: a wrong
 * content type, HTML, truncated JSON, a body over the size cap, JSON without a boolean `success`, or
 * (`mismatch`) a payout answer whose echoed fields are not those of the request.
 * For a payout the service may still have acted, so `outcomeUnknown` is true.
 */
export class BadResponseError extends PayFormError {
  readonly operation: Operation;
  readonly status: number;
  readonly reason: BadResponseReason;
  readonly attempts: number;
  readonly outcomeUnknown: boolean;

  constructor(init: TransportFailure & { status: number; reason: BadResponseReason; detail: string }) {
    super(
      'bad_response',
      `${init.operation} got an unusable answer (HTTP ${init.status}, ${init.reason}: ${init.detail})` +
        ` after ${init.attempts} attempt(s)` +
        (init.outcomeUnknown ? '; the outcome is unknown: reconcile, do not resend' : ''),
    );
    this.operation = init.operation;
    this.status = init.status;
    this.reason = init.reason;
    this.attempts = init.attempts;
    this.outcomeUnknown = init.outcomeUnknown;
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
