// Asking the merchant's own backend for a key: the POST to token-url, or the integrator's fetchToken.
// Every failure becomes one TokenRequestError, so the element has a single code to report.

export type TokenAnswer = { key: string } | { redirect_url: string };

export interface FetchTokenContext {
  /** The merchant's order reference from the order-ref attribute, or null. */
  orderRef: string | null;
  /** Aborted when the element is removed or the request is superseded. */
  signal: AbortSignal;
}

export type FetchToken = (context: FetchTokenContext) => Promise<TokenAnswer>;

export class TokenRequestError extends Error {
  override name = 'TokenRequestError';
}

/**
 * `{ key }` or `{ redirect_url }` with a string value; anything else is not an answer. When both
 * are present redirect_url wins, as the service's own rule says (docs/service-contract.md, Endpoints).
 */
export function parseTokenAnswer(data: unknown): TokenAnswer | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { key, redirect_url } = data as { key?: unknown; redirect_url?: unknown };
  if (typeof redirect_url === 'string') return { redirect_url };
  if (typeof key === 'string') return { key };
  return null;
}

/** The POST body: the order reference only, so the browser never names an amount. */
export function tokenRequestBody(orderRef: string | null): string {
  return JSON.stringify(orderRef === null ? {} : { order_ref: orderRef });
}

export async function postForToken(tokenUrl: string, orderRef: string | null, signal: AbortSignal): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: tokenRequestBody(orderRef),
      signal,
    });
  } catch (error) {
    throw new TokenRequestError(`token-url could not be reached: ${String(error)}`);
  }
  if (!response.ok) throw new TokenRequestError(`token-url answered HTTP ${response.status}`);
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new TokenRequestError('token-url did not answer JSON');
  }
  return requireAnswer(data, 'token-url');
}

export function requireAnswer(data: unknown, source: string): TokenAnswer {
  const answer = parseTokenAnswer(data);
  if (answer === null) throw new TokenRequestError(`${source} answered neither { key } nor { redirect_url }`);
  return answer;
}

/** Runs the integrator's function, turning a throw, a rejection or a bad shape into a TokenRequestError. */
export async function callFetchToken(fetchToken: FetchToken, context: FetchTokenContext): Promise<TokenAnswer> {
  let data: unknown;
  try {
    data = await fetchToken(context);
  } catch (error) {
    throw new TokenRequestError(`fetchToken failed: ${String(error)}`);
  }
  return requireAnswer(data, 'fetchToken');
}
