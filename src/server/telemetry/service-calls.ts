// The service calls as OpenTelemetry sees them: one HTTP client span and one duration point per HTTP
// attempt (semantic conventions for HTTP clients: http.request.method, server.address,
// http.response.status_code, error.type), and how a createPayout ended, for the payouts counter.
import type { Operation } from '../../service/paths.js';
import { errorType, type Attributes, type PayoutOutcomeName } from './attributes.js';
import { clean, record, telemetryOn, traced } from './otel.js';

/** What one attempt came to: the HTTP status when the service answered, else why there was none. */
export interface AttemptFacts {
  status?: number;
  errorType?: string;
}

/** The host, port and path of a service URL: never its query or credentials. The last one is kept,
 *  since a client calls the same few URLs again and again. */
let last: { url: string; attributes: Attributes } | undefined;
function serviceUrl(url: string): Attributes {
  if (last?.url === url) return last.attributes;
  const parsed = new URL(url);
  const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
  last = { url, attributes: { 'server.address': parsed.hostname, 'server.port': port, 'url.template': parsed.pathname } };
  return last.attributes;
}

/** One HTTP attempt in a client span, its duration recorded in http.client.request.duration. */
export async function serviceAttempt<T>(
  operation: Operation,
  url: string,
  resend: number,
  send: () => Promise<T>,
  facts: (result: T) => AttemptFacts,
): Promise<T> {
  if (!telemetryOn()) return send();
  const { 'url.template': path, ...address } = serviceUrl(url);
  const common: Attributes = { 'http.request.method': 'POST', ...address, 'pay_form.operation': operation };
  const started = performance.now();
  const attributes = () => ({ ...common, 'url.template': path, ...(resend > 0 ? { 'http.request.resend_count': resend } : {}) });
  return traced(`POST ${path}`, attributes, async (span) => {
    let outcome: AttemptFacts;
    try {
      const result = await send();
      outcome = facts(result);
      return result;
    } catch (error) {
      outcome = { errorType: errorType(error) };
      throw error;
    } finally {
      // A status of 400 or more is an error of the call (semantic conventions: error.type is the status).
      const type = outcome!.errorType ?? (outcome!.status !== undefined && outcome!.status >= 400 ? String(outcome!.status) : undefined);
      const result: Attributes = { 'http.response.status_code': outcome!.status, 'error.type': type };
      span.set(result);
      if (type !== undefined) span.fail(type);
      record('serviceDuration', (performance.now() - started) / 1000, clean({ ...common, ...result }));
    }
  }, 'client');
}

/** How a createPayout that threw ended, by its error's code (docs/payouts.md). */
export function payoutFailure(error: unknown): PayoutOutcomeName {
  const code = errorType(error);
  if (code === 'duplicate_payout') return 'refused_by_ledger';
  if (code === 'payout_ledger') return 'ledger_failed';
  if (code === 'validation') return 'invalid';
  return (error as { outcomeUnknown?: unknown }).outcomeUnknown === false ? 'refused' : 'outcome_unknown';
}
