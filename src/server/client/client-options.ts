// PaymentClient options and their checks. A wrong option is a setup bug, so the client refuses to be
// made at all (ConfigError listing every bad option) instead of failing on the first payment.
import { ConfigError } from '../errors.js';
import { checkOptions, count, fn, nonEmptyString, timerMilliseconds, timerMillisecondsOrZero, type OptionCheck, type OptionRule } from '../../service/option-rules.js';
import { checkBaseUrl } from '../../service/form-url.js';
import { hmacSigner, hmacVerifier, type Signer, type Verifier } from '../../service/signature.js';
import type { TransportSettings } from './transport.js';
import { MemoryPayoutLedger } from '../payouts/memory-payout-ledger.js';
import type { PayoutLedger } from '../payouts/payout-ledger.js';
import { nodeTransport } from './node-transport.js';

import { emitter, type ClientWarning, type Emit, type PayFormObserver } from '../telemetry/observer.js';

export type { ClientWarning };

interface CommonOptions {
  /** The service's base address, absolute http(s), e.g. https://pay.example.com */
  baseUrl: string;
  merchantId: string;
  /** Per attempt, covering the whole answer. Default 10000. */
  timeoutMs?: number;
  /** Extra attempts where a repeat is safe (docs/server.md, Timeouts and retries). Default 2. */
  maxRetries?: number;
  /** Backoff base for retry n: a random delay up to min(retryMaxMs, retryBaseMs * 2^(n-1)). Default 200. */
  retryBaseMs?: number;
  /** Cap of one backoff delay, and of an honoured Retry-After. Default 5000. */
  retryMaxMs?: number;
  /** Sends through this fetch. Without it: node:http with keep-alive on Node, globalThis.fetch elsewhere. */
  fetch?: typeof globalThis.fetch;
  /** Told every event of this client: warnings (normalisations, e.g. an unknown language sent as EN),
   *  payout outcomes (docs/observability.md). */
  observer?: PayFormObserver;
  /** @deprecated Use `observer` and its `warning` events: told about normalisations. */
  onWarning?: (warning: ClientWarning) => void;
  /** Where payouts are claimed before they are sent; default a MemoryPayoutLedger (this process only). */
  payoutLedger?: PayoutLedger;
}

/** The default HMAC-SHA256: signs requests and verifies answers with the merchant secret. */
export interface SecretOptions extends CommonOptions {
  secret: string;
  signer?: never;
  verifier?: never;
}

/** The integrator's own scheme. Without a verifier, answers are not verified. */
export interface SignerOptions extends CommonOptions {
  signer: Signer;
  verifier?: Verifier;
  secret?: never;
}

export type PaymentClientOptions = SecretOptions | SignerOptions;

export interface ResolvedOptions {
  baseUrl: string;
  merchantId: string;
  signer: Signer;
  verifier: Verifier | undefined;
  /** The observer, the deprecated onWarning and telemetry, as one. */
  emit: Emit;
  transport: TransportSettings;
  payoutLedger: PayoutLedger;
  /** How long a payout claim stays live: longer than the longest createPayout can take. */
  payoutLeaseMs: number;
}

const DEFAULTS = { timeoutMs: 10_000, maxRetries: 2, retryBaseMs: 200, retryMaxMs: 5_000 } as const;

const ledger: OptionCheck = (v) =>
  typeof v === 'object' && v !== null && ['claim', 'finish', 'resolve', 'get'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function')
    ? undefined
    : 'must be a PayoutLedger (claim, finish, resolve, get)';

// The same http(s) rule as the element's base-url: the secret-signed requests never go over plain
// http to another machine.
const httpUrl: OptionCheck = (v) => {
  const checked = checkBaseUrl(v);
  return checked.ok ? undefined : checked.message.replace(/^base-url /, '');
};

/** Every accepted option with its check; required ones are marked. */
const OPTION_TABLE: Readonly<Record<string, OptionRule>> = {
  baseUrl: { check: httpUrl, required: true },
  merchantId: { check: nonEmptyString, required: true },
  secret: { check: nonEmptyString },
  signer: { check: fn },
  verifier: { check: fn },
  timeoutMs: { check: timerMilliseconds },
  maxRetries: { check: count },
  retryBaseMs: { check: timerMillisecondsOrZero },
  retryMaxMs: { check: timerMillisecondsOrZero },
  fetch: { check: fn },
  onWarning: { check: fn },
  observer: { check: fn },
  payoutLedger: { check: ledger },
};

export function resolveOptions(input: unknown): ResolvedOptions {
  const issues = checkOptions(input, OPTION_TABLE, 'PaymentClient');
  if (issues[0]?.path === 'options') throw new ConfigError(issues);
  const options = input as Record<string, unknown>;
  const hasSecret = options['secret'] !== undefined;
  const hasSigner = options['signer'] !== undefined;
  if (hasSecret === hasSigner) {
    issues.push({ path: 'secret', message: 'give exactly one of secret or signer' });
  }
  if (hasSecret && options['verifier'] !== undefined) {
    issues.push({ path: 'verifier', message: 'a verifier goes with a signer, not with a secret' });
  }
  if (issues.length > 0) throw new ConfigError(issues);

  const o = options as unknown as PaymentClientOptions;
  const fetchImpl = o.fetch ?? globalThis.fetch;
  const base = checkBaseUrl(o.baseUrl);
  const timeoutMs = o.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxRetries = o.maxRetries ?? DEFAULTS.maxRetries;
  const retryMaxMs = o.retryMaxMs ?? DEFAULTS.retryMaxMs;
  return {
    baseUrl: base.ok ? base.value : o.baseUrl,
    merchantId: o.merchantId,
    signer: o.secret !== undefined ? hmacSigner(o.secret) : (o.signer as Signer),
    verifier: o.secret !== undefined ? hmacVerifier(o.secret) : o.verifier,
    emit: emitter(o),
    transport: {
      // Called unbound: some runtimes' fetch throws when `this` is not globalThis.
      fetch: (url, init) => fetchImpl(url, init),
      attempt: o.fetch === undefined ? nodeTransport() : undefined,
      timeoutMs,
      maxRetries,
      retryBaseMs: o.retryBaseMs ?? DEFAULTS.retryBaseMs,
      retryMaxMs,
    },
    payoutLedger: o.payoutLedger ?? new MemoryPayoutLedger(),
    // Every attempt and backoff of one createPayout, plus a minute for signing and the ledger itself.
    payoutLeaseMs: timeoutMs * (maxRetries + 1) + retryMaxMs * maxRetries + 60_000,
  };
}
