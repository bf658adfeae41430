// Telling "the service failed" from "this is not the service" (docs/troubleshooting.md): an answer below
// 500 of another content type or JSON without a boolean `success`, or obtain_token answered 404 or 405 (no such endpoint at this
// address: a wrong baseUrl, or its path), is the merchant's setup. A 5xx page stays the service's failure
// (a proxy in front of a service that is down), and a payout's 404 stays an ApiError, whose verified
// refusal the payout ledger reads as "not paid".
import { BadResponseError, ServiceAddressError, type Operation } from '../errors.js';

/** The error to throw for a BadResponseError from the transport: a ServiceAddressError when it is the address. */
export function addressOrBad(error: unknown, url: string, baseUrl: string): unknown {
  if (!(error instanceof BadResponseError) || error.status >= 500 || error.status === 429) return error;
  // Truncated or broken JSON served as JSON is the service's (or the network's) failure, not the address.
  if (error.reason !== 'content-type' && error.reason !== 'shape') return error;
  const { operation, status, reason, detail, attempts, outcomeUnknown } = error;
  return new ServiceAddressError(
    { operation, status, reason, detail, attempts, outcomeUnknown },
    url,
    baseUrl,
  );
}

/**
 * A JSON object answer that is not the service's: no boolean `success` (below 500), or obtain_token
 * answered 404 or 405 (nothing at this address takes it). Checked before the signature, since what
 * answered signs nothing.
 */
export function notTheService(operation: Operation, status: number, body: Record<string, unknown>, attempts: number, url: string, baseUrl: string): ServiceAddressError | undefined {
  const message = typeof body['message'] === 'string' ? body['message'] : 'no message';
  const init = { operation, status, attempts, outcomeUnknown: operation === 'payout' };
  if (typeof body['success'] !== 'boolean' && status < 500) return new ServiceAddressError({ ...init, reason: 'shape', detail: 'success is not a boolean' }, url, baseUrl);
  if (operation === 'obtain_token' && (status === 404 || status === 405)) return new ServiceAddressError({ ...init, reason: 'not-found', detail: message }, url, baseUrl);
  return undefined;
}
