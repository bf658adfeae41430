// pay-form/testing: signed callbacks as the service sends them (src/sandbox/api.ts's callbackPayload,
// signed as src/sandbox/callbacks.ts signs them: docs/signature.md), for a merchant's own tests of the
// code that decides an order is paid, and a way to deliver them to a handler or a running shop. Plain
// Fetch-API code with no import of node:, so the same helpers run on Node, Bun, Deno and Workers; an
// entry of its own, so nothing of it reaches a production bundle that does not import it.
import type { CallbackPayload } from '../service/callback.js';
import { attemptRequestId, newAttemptId } from '../service/checkout.js';
import { hmacSigner, signed } from '../service/signature.js';
import { DEFAULT_MERCHANT_ID } from './options.js';

export type { CallbackPayload };

/** A callback as it goes over the wire: the payload and its signature. */
export type SignedCallback = CallbackPayload & { signature: string };

export interface CallbackOptions {
  /** The merchant's secret (the sandbox's `secret`, the server's `PAY_SECRET`). */
  secret: string;
  /** The merchant's order reference; default a made-up `test-order-…`. */
  order?: string;
  /**
   * The attempt the callback is for: an attempt id of 12 characters of [0-9a-z] (a new one by default),
   * or `null` for a callback that names the order alone (a key obtained without createTokenHandler).
   */
  attempt?: string | null;
  /** Default a new UUID, as the sandbox makes them. */
  invoiceId?: string;
  /** Minor units; default 1000. */
  amount?: number;
  /** Default `USD`. */
  currency?: string;
  /** Default 1. */
  siteId?: number;
  /** Default `test-shopper`. */
  siteLogin?: string;
  /** Default the sandbox's `sandbox-merchant`. */
  merchantId?: string;
}

/** A made-up order reference, for a callback that needs one and was given none. */
export function madeUpOrder(): string {
  return `test-order-${newAttemptId()}`;
}

/** The payload the service sends for an invoice of `status` (no signature): every field the sandbox sends. */
export function callbackPayload(status: string, options: Omit<CallbackOptions, 'secret'> = {}): CallbackPayload {
  const order = options.order ?? madeUpOrder();
  const attempt = options.attempt === undefined ? newAttemptId() : options.attempt;
  return {
    invoice_id: options.invoiceId ?? crypto.randomUUID(),
    request_id: attempt === null ? order : attemptRequestId(order, attempt),
    status,
    amount: options.amount ?? 1000,
    currency: options.currency ?? 'USD',
    site_id: options.siteId ?? 1,
    site_login: options.siteLogin ?? 'test-shopper',
    merchant_id: options.merchantId ?? DEFAULT_MERCHANT_ID,
  };
}

/** `payload` signed with `secret` by the default scheme, as the service signs its callbacks. */
export async function signCallback(payload: CallbackPayload, secret: string): Promise<SignedCallback> {
  return signed(payload, hmacSigner(secret));
}

/** A signed callback of any status. */
export async function signedCallback(status: string, options: CallbackOptions): Promise<SignedCallback> {
  return signCallback(callbackPayload(status, options), options.secret);
}

/** A signed `success` callback: the invoice is paid. */
export function successCallback(options: CallbackOptions): Promise<SignedCallback> {
  return signedCallback('success', options);
}

/** A signed `fail` callback: the payment was declined. */
export function failCallback(options: CallbackOptions): Promise<SignedCallback> {
  return signedCallback('fail', options);
}

/** The callback with its amount changed after signing: what a forger sends. A shop must refuse it (401). */
export function tampered(callback: SignedCallback): SignedCallback {
  const amount = typeof callback.amount === 'number' ? callback.amount : 0;
  return { ...callback, amount: amount + 1 };
}

/** What the shop's answer means to the service: 2xx taken, 4xx refused (the callback is wrong), anything else retried (delivered again). */
export type CallbackOutcome = 'taken' | 'refused' | 'retried';

export function outcomeOf(status: number): CallbackOutcome {
  return status >= 200 && status < 300 ? 'taken' : status >= 400 && status < 500 ? 'refused' : 'retried';
}

/** The shop's answer to one delivery. */
export interface CallbackAnswer {
  /** HTTP status; 0 when nothing answered (`error` says why). */
  status: number;
  /** The answer's body as text (the first 2,000 characters). */
  body: string;
  outcome: CallbackOutcome;
  /** The network error's message, when the shop could not be reached. */
  error?: string;
}

/** A Fetch-API handler, as pay-form/server's createCallbackHandler makes. */
export type CallbackTarget = string | URL | ((request: Request) => Response | Promise<Response>);

/** Where a handler given as a function is told the request went. */
const HANDLER_URL = 'http://shop.test/api/pay-callback';

/** The POST the service makes: the callback as JSON (a string is sent as it is, for bodies no payload can give). */
export function callbackRequest(url: string | URL, callback: SignedCallback | string): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof callback === 'string' ? callback : JSON.stringify(callback),
    redirect: 'manual',
  });
}

/**
 * Delivers a callback as the service does: to a handler function (no server needed) or POSTed to a URL
 * (a running shop). Never throws for the shop's failure: an unreachable shop is status 0, retried.
 */
export async function deliverCallback(target: CallbackTarget, callback: SignedCallback | string, timeoutMs = 10_000): Promise<CallbackAnswer> {
  try {
    const response =
      typeof target === 'function'
        ? await target(callbackRequest(HANDLER_URL, callback))
        : await fetch(callbackRequest(target, callback), { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await response.text()).slice(0, 2000);
    return { status: response.status, body, outcome: outcomeOf(response.status) };
  } catch (error) {
    return { status: 0, body: '', outcome: 'retried', error: error instanceof Error ? error.message : String(error) };
  }
}
