// The sandbox's settings and their defaults, in one place so the library, the CLI and docs/sandbox.md agree.
import type { FieldIssue } from '../service/field-checks.js';
import { ConfigError } from '../service/errors.js';
import { checkOptions, fn, nonEmptyString, positive, timerMilliseconds, timerMillisecondsOrZero, type OptionCheck, type OptionRule } from '../service/option-rules.js';
import { DEFAULT_MAX_INVOICES } from './invoices.js';

/** How a callback is delivered again until the merchant answers 2xx. */
export interface CallbackRetryOptions {
  /** Delay before the first retry; each later delay doubles. Default 1000 ms. */
  initialDelayMs?: number;
  /** The cap on one delay. Default 60000 ms. */
  maxDelayMs?: number;
  /** Attempts in all, the first included, before the sandbox gives up on a callback: 1 to 1000. Default 12. */
  maxAttempts?: number;
  /** How long one attempt may take. Default 10000 ms. */
  timeoutMs?: number;
}

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the sandbox is for this machine only. */
  host?: string;
  /** The one merchant the sandbox knows. Default `sandbox-merchant`. */
  merchantId?: string;
  /** That merchant's secret for the default HMAC-SHA256 signature. Default `sandbox-secret`. */
  secret?: string;
  /** Where signed callbacks go; without one they are recorded as `no-callback-url` and not sent. */
  callbackUrl?: string;
  /** The service's site setting under which obtain_token answers `redirect_url`: `true` for every site,
   *  or the list of site_ids that have it. Default off. */
  redirectMode?: boolean | readonly number[];
  /** How long a form key lives. Default 15 minutes. */
  keyTtlMs?: number;
  callbackRetry?: CallbackRetryOptions;
  /** Who may frame the form page (CSP frame-ancestors). Default `*`. */
  frameAncestors?: readonly string[];
  /** A line per request and per callback attempt; default silent. Form keys are never written. */
  log?: (line: string) => void;
  /** The most invoices kept; past it the oldest settled one is forgotten first. Default 10000. */
  maxInvoices?: number;
  /** The most entries kept in `requests()`, and in `callbacks()` with those still being delivered
   *  counted: the oldest finished go first, then the oldest still being delivered is given up. Default 10000. */
  maxRecords?: number;
  /** Holds every payout answer this long after the payout is made, to let a client time out. Default 0. */
  payoutDelayMs?: number;
}

export const DEFAULT_MERCHANT_ID = 'sandbox-merchant';
export const DEFAULT_SECRET = 'sandbox-secret';
export const DEFAULT_KEY_TTL_MS = 15 * 60 * 1000;

export interface ResolvedOptions {
  port: number;
  host: string;
  merchantId: string;
  secret: string;
  callbackUrl: string | undefined;
  redirectMode: boolean | readonly number[];
  keyTtlMs: number;
  callbackRetry: Required<CallbackRetryOptions>;
  frameAncestors: readonly string[];
  log: (line: string) => void;
  payoutDelayMs: number;
  maxInvoices: number;
  maxRecords: number;
}

/** The environment variable the command reads the secret from, so it is not on the command line. */
export const SECRET_ENV = 'PAY_FORM_SANDBOX_SECRET';
export const DEFAULT_MAX_RECORDS = 10_000;

/** A sandbox started with a typo should fail loudly, not run with a default the caller did not mean. */
export class SandboxOptionsError extends ConfigError {
  constructor(issues: readonly FieldIssue[]) {
    super(issues, 'sandbox');
  }
}

/** An http(s) URL the sandbox can send to: it parses, has a host, and holds no white space or control
 *  character (the parser would drop some silently and send elsewhere than written). */
const callbackUrl: OptionCheck = (v) => {
  const url = typeof v === 'string' && !/[\s\p{Cc}]/u.test(v) && URL.canParse(v) ? new URL(v) : undefined;
  return url && /^https?:$/.test(url.protocol) && url.hostname ? undefined : 'must be an absolute http(s) URL with a host';
};
const port: OptionCheck = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? undefined : 'must be 0..65535');
const atLeastOne: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? undefined : 'must be a whole number of at least 1';
/** Past this a callback would be retried for days, each attempt kept in callbacks(). */
export const MAX_CALLBACK_ATTEMPTS = 1000;
const attempts: OptionCheck = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_CALLBACK_ATTEMPTS ? undefined : `must be a whole number, 1 to ${MAX_CALLBACK_ATTEMPTS}`;
const redirectMode: OptionCheck = (v) =>
  typeof v === 'boolean' || (Array.isArray(v) && v.every((id) => Number.isSafeInteger(id) && id >= 0))
    ? undefined
    : 'must be true, false or a list of site_ids (whole numbers)';
/** Each entry goes into the form page's CSP as one source: a space, `;` or `,` would add others. */
const frameAncestors: OptionCheck = (v) =>
  Array.isArray(v) && v.every((source) => typeof source === 'string' && /^[^\s;,]+$/.test(source))
    ? undefined
    : 'must be a list of CSP sources (strings without white space, ";" or ",")';
const object: OptionCheck = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? undefined : 'must be an object');

const OPTION_TABLE: Readonly<Record<keyof SandboxOptions, OptionRule>> = {
  port: { check: port },
  host: { check: nonEmptyString },
  merchantId: { check: nonEmptyString },
  secret: { check: nonEmptyString },
  callbackUrl: { check: callbackUrl },
  redirectMode: { check: redirectMode },
  keyTtlMs: { check: positive },
  callbackRetry: { check: object },
  frameAncestors: { check: frameAncestors },
  log: { check: fn },
  payoutDelayMs: { check: timerMillisecondsOrZero },
  maxInvoices: { check: atLeastOne },
  maxRecords: { check: atLeastOne },
};

const RETRY_TABLE: Readonly<Record<keyof CallbackRetryOptions, OptionRule>> = {
  initialDelayMs: { check: timerMilliseconds },
  maxDelayMs: { check: timerMilliseconds },
  maxAttempts: { check: attempts },
  timeoutMs: { check: timerMilliseconds },
};

function refuse(issues: FieldIssue[]): void {
  if (issues.length > 0) throw new SandboxOptionsError(issues);
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const issues = checkOptions(options, OPTION_TABLE, 'sandbox');
  const retry = (options as SandboxOptions | null)?.callbackRetry ?? {};
  // A callbackRetry that is not an object is named once, above, not again as its own options.
  refuse(issues.some((issue) => issue.path === 'callbackRetry') ? issues : [...issues, ...checkOptions(retry, RETRY_TABLE, 'sandbox').map((issue) => ({ ...issue, path: `callbackRetry.${issue.path}` }))]);
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    merchantId: options.merchantId ?? DEFAULT_MERCHANT_ID,
    secret: options.secret ?? DEFAULT_SECRET,
    callbackUrl: options.callbackUrl,
    redirectMode: options.redirectMode ?? false,
    keyTtlMs: options.keyTtlMs ?? DEFAULT_KEY_TTL_MS,
    callbackRetry: {
      initialDelayMs: retry.initialDelayMs ?? 1000,
      maxDelayMs: retry.maxDelayMs ?? 60_000,
      maxAttempts: retry.maxAttempts ?? 12,
      timeoutMs: retry.timeoutMs ?? 10_000,
    },
    frameAncestors: options.frameAncestors ?? ['*'],
    log: options.log ?? (() => {}),
    payoutDelayMs: options.payoutDelayMs ?? 0,
    maxInvoices: options.maxInvoices ?? DEFAULT_MAX_INVOICES,
    maxRecords: options.maxRecords ?? DEFAULT_MAX_RECORDS,
  };
}

export function siteHasRedirectMode(setting: boolean | readonly number[], siteId: number): boolean {
  return typeof setting === 'boolean' ? setting : setting.includes(siteId);
}
