// One POST of a JSON body to the service, with a per-attempt timeout, a capped body read, and the
// retry policy that keeps money safe: obtain_token (no money moves) is retried on network errors,
// timeouts, 429 and 5xx; a payout only when the connection was refused, i.e. the request provably
// never reached the service. One attempt goes through `fetch` (keep-alive is the runtime's), or through
// `attempt` when set: on Node, node-transport.ts (node:http with a keep-alive Agent) by default.
import { isJsonContentType, parseJsonObject, readCapped } from '../../service/body.js';
import { BadResponseError, NetworkError, TimeoutError, type BadResponseReason, type Operation } from '../errors.js';
import { serviceAttempt, type AttemptFacts } from '../telemetry/service-calls.js';

/** Answers from the service larger than this are refused (read as a stream and cut off). */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface TransportSettings {
  fetch: typeof globalThis.fetch;
  /** Makes one attempt in place of `fetch` (the Node transport); same outcomes, same rules. */
  attempt?: AttemptFn;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** For tests of the jitter; Math.random otherwise. */
  random?: () => number;
}

/** A JSON object answer; the caller checks `success` and the signature. */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
  attempts: number;
}

export type AttemptFn = (settings: TransportSettings, url: string, body: string) => Promise<Attempt>;

export type Attempt =
  | { kind: 'answer'; status: number; retryAfterMs: number | undefined; body: Record<string, unknown> }
  | { kind: 'bad'; status: number; retryAfterMs: number | undefined; reason: BadResponseReason; detail: string }
  | { kind: 'network'; systemCode: string | undefined; neverSent: boolean; cause: unknown }
  | { kind: 'timeout' };

/** Every `code` in an error's cause chain (and AggregateError members), outermost first. */
function systemCodes(error: unknown, seen = new Set<unknown>()): string[] {
  if (typeof error !== 'object' || error === null || seen.has(error)) return [];
  seen.add(error);
  const own = (error as { code?: unknown }).code;
  const codes = typeof own === 'string' ? [own] : [];
  const members = (error as { errors?: unknown }).errors;
  const nested = Array.isArray(members) ? members.flatMap((m) => systemCodes(m, seen)) : [];
  return [...codes, ...nested, ...systemCodes((error as { cause?: unknown }).cause, seen)];
}

/** Retry-After as delay-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only an HTTP date (IMF-fixdate): Date.parse alone would read '-5' as a year.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** A failed connection or exchange, with whether the request provably never left. */
export function networkAttempt(error: unknown): Attempt {
  const codes = systemCodes(error);
  const systemCode = codes.find((c) => c.startsWith('E')) ?? codes[0];
  // Refused means no TCP connection was ever made: nothing of the request can have arrived.
  const neverSent = codes.length > 0 && codes.every((c) => c === 'ECONNREFUSED');
  return { kind: 'network', systemCode, neverSent, cause: error };
}

/** The words of the two unusable answers found before the body is parsed, the same for every transport. */
export const contentTypeDetail = (type: string | null): string => `content type ${JSON.stringify(type ?? 'none')}`;
export const TOO_LARGE_DETAIL = `body over ${MAX_RESPONSE_BYTES} bytes`;

/** A whole answer body as an Attempt: its JSON object, or why it is unusable (fetch and node:http alike). */
export function answerAttempt(status: number, retryAfterMs: number | undefined, bytes: Uint8Array): Attempt {
  const parsed = parseJsonObject(bytes);
  if (parsed.ok) return { kind: 'answer', status, retryAfterMs, body: parsed.value };
  return parsed.reason === 'not-json'
    ? { kind: 'bad', status, retryAfterMs, reason: 'not-json', detail: 'body is not valid JSON' }
    : { kind: 'bad', status, retryAfterMs, reason: 'shape', detail: 'body is not a JSON object' };
}

async function attemptOnce(settings: TransportSettings, url: string, body: string): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    const response = await settings.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      // A redirect is the service's answer, not a place to resend a signed request to.
      redirect: 'manual',
      signal: controller.signal,
    });
    const status = response.status;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    const bad = (reason: BadResponseReason, detail: string): Attempt => ({
      kind: 'bad',
      status,
      retryAfterMs,
      reason,
      detail,
    });
    const type = response.headers.get('content-type');
    if (!isJsonContentType(type)) {
      await response.body?.cancel().catch(() => undefined);
      return bad('content-type', contentTypeDetail(type));
    }
    const read = await readCapped(response.body, MAX_RESPONSE_BYTES, response.headers.get('content-length'));
    if (!read.ok) return bad('too-large', TOO_LARGE_DETAIL);
    return answerAttempt(status, retryAfterMs, read.bytes);
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    return networkAttempt(error);
  } finally {
    clearTimeout(timer);
  }
}

function isRetryable(operation: Operation, attempt: Attempt): boolean {
  if (operation === 'payout') return attempt.kind === 'network' && attempt.neverSent;
  if (attempt.kind === 'network' || attempt.kind === 'timeout') return true;
  return attempt.status === 429 || attempt.status >= 500;
}

/** Capped exponential backoff with full jitter; a Retry-After is honoured up to the same cap. */
export function retryDelayMs(settings: TransportSettings, retryNumber: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, settings.retryMaxMs);
  const ceiling = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** (retryNumber - 1));
  return Math.floor((settings.random ?? Math.random)() * ceiling);
}

/** What the HTTP client span and duration metric record of an attempt (docs/observability.md). */
function facts(attempt: Attempt): AttemptFacts {
  if (attempt.kind === 'answer') return { status: attempt.status };
  if (attempt.kind === 'bad') return { status: attempt.status, errorType: attempt.reason };
  return { errorType: attempt.kind === 'timeout' ? 'timeout' : (attempt.systemCode ?? 'network') };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** POSTs `body` (already signed JSON) and returns a JSON object answer, or throws a typed error. */
export async function postJson(
  settings: TransportSettings,
  operation: Operation,
  url: string,
  body: string,
): Promise<JsonAnswer> {
  for (let attempts = 1; ; attempts++) {
    const send = () => (settings.attempt ?? attemptOnce)(settings, url, body);
    const attempt = await serviceAttempt(operation, url, attempts - 1, send, facts);
    if (attempts <= settings.maxRetries && isRetryable(operation, attempt)) {
      await sleep(retryDelayMs(settings, attempts, 'retryAfterMs' in attempt ? attempt.retryAfterMs : undefined));
      continue;
    }
    switch (attempt.kind) {
      case 'answer':
        return { status: attempt.status, body: attempt.body, attempts };
      case 'bad':
        throw new BadResponseError({
          operation,
          attempts,
          status: attempt.status,
          reason: attempt.reason,
          detail: attempt.detail,
          outcomeUnknown: operation === 'payout',
        });
      case 'network':
        throw new NetworkError({
          operation,
          attempts,
          outcomeUnknown: !attempt.neverSent,
          systemCode: attempt.systemCode,
          cause: attempt.cause,
        });
      case 'timeout':
        throw new TimeoutError({ operation, attempts, timeoutMs: settings.timeoutMs });
    }
  }
}
