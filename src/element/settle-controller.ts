// Asking the merchant's status-url for the verified outcome of an order, as a Lit reactive controller.
// The protocol (docs/element.md, Verified outcome): GET {status-url}?order_ref=…, one request at a
// time; 200 { status, invoice_id } settles, 204 means "not yet, ask again", 404 means the endpoint does
// not know the order, anything else is retried after a short back-off, all within settle-timeout.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PayFormSettledDetail } from './events.js';

export const DEFAULT_SETTLE_TIMEOUT = 60000;
/** Wait after a 5xx, a network error or an unreadable answer (or the server's retry-after, capped). */
const BACKOFF_MS = 1000;
const MAX_RETRY_AFTER_MS = 10000;
/** A long poll that answers 204 at once is asked again no sooner than this after the last ask began. */
const MIN_ASK_INTERVAL_MS = 250;

export interface SettleCallbacks {
  settled(detail: PayFormSettledDetail): void;
  failed(code: SettleErrorCode, message: string): void;
}

export type SettleErrorCode = 'settle-timeout' | 'invalid-status-url';

/** status-url with order_ref set, or why it cannot be asked. Same-origin only: see docs/element.md. */
export function statusRequestUrl(statusUrl: string, orderRef: string | null): URL | { code: SettleErrorCode; message: string } {
  let url: URL;
  try {
    url = new URL(statusUrl, document.baseURI);
  } catch {
    return { code: 'invalid-status-url', message: 'status-url is not a URL' };
  }
  if (url.origin !== window.location.origin) {
    const message = `status-url must be on this page's origin (${window.location.origin}), not ${url.origin}`;
    return { code: 'invalid-status-url', message };
  }
  // The status endpoint answers 404 without an order reference: say so at once instead of asking.
  if (orderRef === null || orderRef === '') {
    return { code: 'settle-timeout', message: 'order-ref is not set, so status-url cannot be asked about the order' };
  }
  url.searchParams.set('order_ref', orderRef);
  url.hash = '';
  return url;
}

/** `{ status, invoice_id }` with two non-empty strings, or null. Only these two fields go on. */
export function parseSettled(text: string): PayFormSettledDetail | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { status, invoice_id } = data as { status?: unknown; invoice_id?: unknown };
  if (typeof status !== 'string' || status === '' || typeof invoice_id !== 'string' || invoice_id === '') return null;
  return { status, invoice_id };
}

function retryDelay(response: Response | null): number {
  const seconds = Number(response?.headers.get('retry-after') ?? NaN);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : BACKOFF_MS;
}

export class SettleController implements ReactiveController {
  readonly #callbacks: SettleCallbacks;
  #run: { controller: AbortController; timer: ReturnType<typeof setTimeout> } | null = null;
  #settled = false;

  constructor(host: ReactiveControllerHost, callbacks: SettleCallbacks) {
    this.#callbacks = callbacks;
    host.addController(this);
  }

  /** True while status-url is being asked. */
  get active(): boolean {
    return this.#run !== null;
  }

  /** True once pay-form-settled fired for the current run. */
  get settled(): boolean {
    return this.#settled;
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Starts asking, unless already asking; `again` allows a new run after a settled one (a new result). */
  start(statusUrl: string, orderRef: string | null, timeoutMs: number, again = false): void {
    if (this.#run !== null || (this.#settled && !again)) return;
    this.#settled = false;
    const url = statusRequestUrl(statusUrl, orderRef);
    if (!(url instanceof URL)) return this.#callbacks.failed(url.code, url.message);
    const controller = new AbortController();
    const ms = Number.isFinite(timeoutMs) && timeoutMs >= 0 ? timeoutMs : DEFAULT_SETTLE_TIMEOUT;
    const timeout = () => this.#callbacks.failed('settle-timeout', `no verified status from status-url within ${ms} ms`);
    const timer = setTimeout(() => this.#end(controller, timeout), ms);
    this.#run = { controller, timer };
    void this.#ask(url, controller);
  }

  stop(): void {
    const run = this.#run;
    if (run === null) return;
    this.#run = null;
    clearTimeout(run.timer);
    run.controller.abort();
  }

  #end(controller: AbortController, report: () => void): void {
    if (this.#run?.controller !== controller) return;
    this.stop();
    report();
  }

  async #ask(url: URL, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    while (!signal.aborted) {
      const began = Date.now();
      let response: Response | null = null;
      try {
        response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' }, signal });
        if (response.status === 200) {
          // Read as text and parsed as JSON only: the answer never reaches the DOM.
          const detail = parseSettled(await response.text());
          if (detail !== null) {
            return this.#end(controller, () => {
              this.#settled = true;
              this.#callbacks.settled(detail);
            });
          }
        } else if (response.status === 404) {
          return this.#end(controller, () => this.#callbacks.failed('settle-timeout', 'status-url does not know this order (404)'));
        } else if (response.status === 204) {
          await pause(Math.max(0, MIN_ASK_INTERVAL_MS - (Date.now() - began)));
          continue;
        }
      } catch {
        if (signal.aborted) return;
      }
      await pause(retryDelay(response));
    }
  }
}
