// The sandbox's settings and their defaults, in one place so the library, the CLI and docs/sandbox.md agree.
import type { FieldIssue } from '../service/field-checks.js';
import { ConfigError } from '../service/errors.js';
import { checkOptions, positive, timerMilliseconds, timerMillisecondsOrZero, type OptionCheck, type OptionRule } from '../service/option-rules.js';
import { DEFAULT_MAX_INVOICES } from './invoices.js';

/** How a callback is delivered again until the merchant answers 2xx. */
export interface CallbackRetryOptions {
  /** Delay before the first retry; each later delay doubles. Default 1000 ms. */
  initialDelayMs?: number;
  /** The cap on one delay. Default 60000 ms. */
  maxDelayMs?: number;
  /** Attempts in all, the first included, before the sandbox gives up on a callback. Default 12. */
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
  /** The most entries kept in `requests()` and of finished deliveries in `callbacks()`; the oldest go
   *  first, and a callback still being delivered is never dropped. Default 10000. */
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

const callbackUrl: OptionCheck = (v) =>
  typeof v === 'string' && /^https?:\/\//i.test(v) ? undefined : 'must be an absolute http(s) URL';
const port: OptionCheck = (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? undefined : 'must be 0..65535');
const notEmpty: OptionCheck = (v) => (v === '' ? 'must not be empty' : undefined);
const any: OptionCheck = () => undefined;
const atLeastOne: OptionCheck = (v) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? undefined : 'must be a whole number of at least 1';

const OPTION_TABLE: Readonly<Record<keyof SandboxOptions, OptionRule>> = {
  port: { check: port },
  host: { check: any },
  merchantId: { check: notEmpty },
  secret: { check: notEmpty },
  callbackUrl: { check: callbackUrl },
  redirectMode: { check: any },
  keyTtlMs: { check: positive },
  callbackRetry: { check: any },
  frameAncestors: { check: any },
  log: { check: any },
  payoutDelayMs: { check: timerMillisecondsOrZero },
  maxInvoices: { check: atLeastOne },
  maxRecords: { check: atLeastOne },
};

const RETRY_TABLE: Readonly<Record<keyof CallbackRetryOptions, OptionRule>> = {
  initialDelayMs: { check: timerMilliseconds },
  maxDelayMs: { check: timerMilliseconds },
  maxAttempts: { check: positive },
  timeoutMs: { check: timerMilliseconds },
};

function refuse(issues: FieldIssue[], prefix = ''): void {
  if (issues.length > 0) throw new SandboxOptionsError(issues.map(({ path, message }) => ({ path: prefix + path, message })));
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  refuse(checkOptions(options, OPTION_TABLE, 'sandbox'));
  const retry = options.callbackRetry ?? {};
  refuse(checkOptions(retry, RETRY_TABLE, 'sandbox'), 'callbackRetry.');
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
