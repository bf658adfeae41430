// Every attribute pay-form puts on a span, a span event or a metric point, as data: the one list
// docs/observability.md prints and the telemetry tests hold every recorded attribute to. Nothing here
// can carry a secret, a signature, a card or account number or the shopper's login: the values are
// order references, attempt ids, outcomes, HTTP facts and error codes (docs/observability.md, Attributes).

/** Attribute name → what it holds. OpenTelemetry semantic-convention names first, pay-form's own after. */
export const ATTRIBUTES = {
  'http.request.method': 'the service call\'s method (always POST)',
  'server.address': 'the service\'s host name, from baseUrl',
  'server.port': 'the service\'s port',
  'url.template': 'the service path called, e.g. /api/payout/ (no query, no credentials)',
  'http.response.status_code': 'the service\'s HTTP status, when it answered',
  'http.request.resend_count': 'which retry of the call this is (absent on the first)',
  'error.type': 'why a call or step failed: a PayFormError code, an HTTP status, or a system code such as ECONNREFUSED',
  'pay_form.operation': 'obtain_token or payout',
  'pay_form.order_ref': 'the merchant\'s order reference (the request_id without the attempt suffix)',
  'pay_form.attempt': 'the attempt id, the correlation id the page also sees in event details',
  'pay_form.payout.request_id': 'the merchant\'s payout request_id',
  'pay_form.invoice_id': 'the service\'s invoice id named by a callback',
  'pay_form.callback.status': 'the status a callback reports (success, fail, …)',
  'pay_form.callback.outcome': 'new, duplicate, extra_payment, in_flight, refused_signature, bad_request, failed',
  'pay_form.payout.outcome': 'sent, replayed, refused_by_ledger, refused, outcome_unknown, ledger_failed, invalid',
  'pay_form.status.outcome': 'answered (at once or after waiting), timed_out (204), abandoned (the page went away), refused (maxWaiters already wait: 503), not_found (404, also a refusal by authorize), failed (authorize or the store threw: 503)',
} as const;

export type AttributeName = keyof typeof ATTRIBUTES;
export type Attributes = Partial<Record<AttributeName, string | number | undefined>>;

/** Attribute values as pay-form records them. Its own type, so the declarations never name the API. */
export type Recorded = Readonly<Record<string, string | number>>;

/** The attributes without their undefined values (the API's Attributes type). */
export function clean(attributes: Attributes): Recorded {
  const out: Record<string, string | number> = {};
  for (const key in attributes) {
    const value = attributes[key as keyof Attributes];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** One attributes object per outcome, made once and frozen: outcomes are few, metric points many. */
const outcomeAttributes = new Map<string, Recorded>();
export function outcomeAttribute(name: AttributeName, outcome: string): Recorded {
  const key = `${name}=${outcome}`;
  let attributes = outcomeAttributes.get(key);
  if (attributes === undefined) outcomeAttributes.set(key, (attributes = Object.freeze({ [name]: outcome })));
  return attributes;
}

/** The outcome attribute of each instrumented handler or call. */
export type CallbackOutcome = 'new' | 'duplicate' | 'extra_payment' | 'in_flight' | 'refused_signature' | 'bad_request' | 'failed';
export type PayoutOutcomeName = 'sent' | 'replayed' | 'refused_by_ledger' | 'refused' | 'outcome_unknown' | 'ledger_failed' | 'invalid';
export type StatusOutcome = 'answered' | 'timed_out' | 'abandoned' | 'refused' | 'failed' | 'not_found';

/** The order reference and attempt of a request_id (`order~attempt`, docs/service-contract.md, Attempts). */
export function orderAttributes(orderRef: string | undefined, attempt: string | undefined): Attributes {
  return { 'pay_form.order_ref': orderRef, 'pay_form.attempt': attempt };
}

/** error.type for a thrown value: the PayFormError code, else the class name (never its message). */
export function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    return (error as { constructor?: { name?: string } }).constructor?.name ?? 'Error';
  }
  return 'Error';
}
