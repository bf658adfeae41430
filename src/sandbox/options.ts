// The sandbox's settings and their defaults, in one place so the library, the CLI and docs/sandbox.md agree.

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
  /** A line per request and per callback attempt; default silent. */
  log?: (line: string) => void;
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
}

/** A sandbox started with a typo should fail loudly, not run with a default the caller did not mean. */
export class SandboxOptionsError extends Error {
  override name = 'SandboxOptionsError';
}

const KNOWN = new Set([
  'port', 'host', 'merchantId', 'secret', 'callbackUrl', 'redirectMode', 'keyTtlMs', 'callbackRetry',
  'frameAncestors', 'log',
]);

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new SandboxOptionsError(`${name} must be a positive number`);
  return value;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new SandboxOptionsError(`unknown option(s): ${unknown.join(', ')}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new SandboxOptionsError('port must be 0..65535');
  if (options.callbackUrl !== undefined && !/^https?:\/\//i.test(options.callbackUrl)) {
    throw new SandboxOptionsError('callbackUrl must be an absolute http(s) URL');
  }
  if (options.merchantId === '') throw new SandboxOptionsError('merchantId must not be empty');
  if (options.secret === '') throw new SandboxOptionsError('secret must not be empty');
  const retry = options.callbackRetry ?? {};
  return {
    port,
    host: options.host ?? '127.0.0.1',
    merchantId: options.merchantId ?? DEFAULT_MERCHANT_ID,
    secret: options.secret ?? DEFAULT_SECRET,
    callbackUrl: options.callbackUrl,
    redirectMode: options.redirectMode ?? false,
    keyTtlMs: positive('keyTtlMs', options.keyTtlMs, DEFAULT_KEY_TTL_MS),
    callbackRetry: {
      initialDelayMs: positive('callbackRetry.initialDelayMs', retry.initialDelayMs, 1000),
      maxDelayMs: positive('callbackRetry.maxDelayMs', retry.maxDelayMs, 60_000),
      maxAttempts: positive('callbackRetry.maxAttempts', retry.maxAttempts, 12),
      timeoutMs: positive('callbackRetry.timeoutMs', retry.timeoutMs, 10_000),
    },
    frameAncestors: options.frameAncestors ?? ['*'],
    log: options.log ?? (() => {}),
  };
}

export function siteHasRedirectMode(setting: boolean | readonly number[], siteId: number): boolean {
  return typeof setting === 'boolean' ? setting : setting.includes(siteId);
}
