// The protocol between <pay-form> and the merchant's backend (docs/service-contract.md, Attempts):
// what the browser sends to the token endpoint, what it answers, how the element asks the status
// endpoint and what that answers. Written once here; the element and pay-form/server both use it.

/** What the browser POSTs to token-url: the order reference only, so the browser never names an amount. */
export interface TokenRequestBody {
  order_ref?: string;
}

/**
 * The token endpoint's answer: a form key or a redirect, with the id of the payment attempt it started
 * (the element asks the status endpoint about that attempt), or `{ paid: true }` for an order already
 * paid (HTTP 409 from createTokenHandler; the element reports `order-paid`).
 */
export type TokenAnswer = (({ key: string } | { redirect_url: string }) & { attempt?: string }) | { paid: true };

/** The status endpoint's query parameters: `GET {status-url}?order_ref=…&attempt=…`. */
export const ORDER_REF_PARAM = 'order_ref';
export const ATTEMPT_PARAM = 'attempt';

/**
 * The status endpoint's 200 answer, and the detail of `pay-form-settled`: these fields only. `extra`
 * is set (only ever `true`) on a `success` that did not pay the order: another attempt paid it, or this
 * one was superseded or paid another amount; the shop says the second payment is being refunded.
 */
export interface StatusAnswer {
  /** The invoice status from the service's verified callback (`success` or `fail` for a payment). */
  status: string;
  invoice_id: string;
  extra?: true;
}

/** The status that makes an order paid: the first success of its payable attempt (docs/service-contract.md, Attempts). */
export const PAID_STATUS = 'success';

/**
 * `{ key }`, `{ redirect_url }` (each with a string `attempt` when there is one) or `{ paid: true }`;
 * anything else is not an answer. When both key and redirect_url are present redirect_url wins, as the
 * service's own rule says (docs/service-contract.md, Endpoints).
 */
export function parseTokenAnswer(data: unknown): TokenAnswer | null {
  const { key, redirect_url, attempt, paid } = Object(data) as Record<string, unknown>;
  const started = typeof attempt === 'string' ? { attempt } : {};
  return paid === true ? { paid } : typeof redirect_url === 'string' ? { redirect_url, ...started } : typeof key === 'string' ? { key, ...started } : null;
}

/**
 * `{ status, invoice_id }` with two non-empty strings, and `extra: true` when the answer says so; else
 * null (for null, a primitive, any other shape). Only these fields go on.
 */
export function parseStatusAnswer(data: unknown): StatusAnswer | null {
  const { status, invoice_id, extra } = Object(data) as Record<string, unknown>;
  return typeof status === 'string' && status && typeof invoice_id === 'string' && invoice_id ? (extra === true ? { status, invoice_id, extra } : { status, invoice_id }) : null;
}

// An attempt is one token request for an order: the service gets `{order reference}~{attempt id}` as
// its request_id, so every callback names its attempt, and the order reference comes back exactly by
// cutting the fixed-length suffix off (an order reference may itself hold `~`).

/** Between the order reference and the attempt id in the service's request_id. */
export const ATTEMPT_SEPARATOR = '~';
const ATTEMPT_ID = /^[0-9a-z]{12}$/;
const WITH_ATTEMPT = /^([\s\S]+)~([0-9a-z]{12})$/;

/** A new attempt id: 12 random characters of [0-9a-z]. */
export function newAttemptId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
}

export function isAttemptId(value: unknown): value is string {
  return typeof value === 'string' && ATTEMPT_ID.test(value);
}

/** The request_id the service gets for an attempt of an order. */
export function attemptRequestId(orderRef: string, attempt: string): string {
  return `${orderRef}${ATTEMPT_SEPARATOR}${attempt}`;
}

/**
 * A callback's request_id as the merchant's order reference and the attempt id; a request_id without
 * the suffix (a key obtained without the token handler, a payout) is its own order reference, with no
 * attempt.
 */
export function parseRequestId(requestId: string): { orderRef: string; attempt: string | undefined } {
  const found = WITH_ATTEMPT.exec(requestId);
  return found ? { orderRef: found[1] as string, attempt: found[2] as string } : { orderRef: requestId, attempt: undefined };
}
