// Asking the merchant's status-url for the verified outcome of an order, as a Lit reactive controller.
// The protocol (docs/element.md, Verified outcome): GET {status-url}?order_ref=…, one request at a
// time; 200 { status, invoice_id } settles, 204 means "not yet, ask again", 404 means the endpoint does
// not know the order, anything else is retried after a short back-off, all within settle-timeout. Only
// the page's own origin may answer: a redirect (which could hand the answer to another origin) or a
// 200 that is not JSON is an error, never a status.
import type { PayFormSettledDetail } from './events.js';
import { RunController } from './run-controller.js';

export const DEFAULT_SETTLE_TIMEOUT = 60000;
/** Wait after a 5xx, a network error or an unreadable answer (or the server's retry-after, capped). */
const BACKOFF_MS = 1000;
const MAX_RETRY_AFTER_MS = 10000;
/** A long poll that answers 204 at once is asked again no sooner than this after the last ask began. */
const MIN_ASK_INTERVAL_MS = 250;

export type SettleErrorCode = 'settle-timeout' | 'invalid-status-url';

export interface SettleCallbacks {
  settled(detail: PayFormSettledDetail): void;
  failed(code: SettleErrorCode, message: string): void;
}

export class SettleController extends RunController<SettleCallbacks> {
  /** pay-form-settled fired for the last run. */
  #settled = false;

  /** Starts asking for at most `ms`, unless already asking; `again` allows a new run after a settled one (a new result). */
  async start(statusUrl: string, orderRef: string | null, ms: number, again: boolean): Promise<void> {
    if (this.running || (this.#settled && !again)) return;
    this.#settled = false;
    const { failed } = this.on;
    const refuse = () => failed('invalid-status-url', 'status-url must answer JSON from this origin');
    let url: URL | undefined;
    try {
      url = new URL(statusUrl, document.baseURI);
    } catch {}
    // Same origin only, so the page's cookies go to its own backend (docs/element.md).
    if (url?.origin !== location.origin) return refuse();
    // The status endpoint answers 404 without an order reference: say so at once instead of asking.
    if (!orderRef) return failed('settle-timeout', 'no order-ref to ask status-url about');
    // A fragment in status-url stays out: fetch never sends one.
    url!.searchParams.set('order_ref', orderRef);
    const [signal, end] = this.begin(ms, () => failed('settle-timeout', `no status from status-url in ${ms} ms`));
    // A stopped run ends here when its current wait is over, before asking again.
    while (!signal.aborted) {
      const began = Date.now();
      let wait = BACKOFF_MS;
      try {
        // fetch's default credentials mode, same-origin, sends the page's cookies to its own backend.
        const response = await fetch(url!, { cache: 'no-store', headers: { accept: 'application/json' }, redirect: 'manual', signal });
        const { status: code } = response;
        // A redirect is not followed: it comes back as an opaque answer, status 0. A 200 is parsed as JSON
        // only, so the answer never reaches the DOM; one served as anything else is refused.
        if (!code || (code === 200 && !response.headers.get('content-type')?.startsWith('application/json'))) return end(refuse);
        if (code === 200) {
          // Two non-empty strings settle, and only these two fields go on; an unreadable answer is retried.
          const { status, invoice_id } = Object(await response.json()) as { status?: unknown; invoice_id?: unknown };
          if (typeof status === 'string' && status && typeof invoice_id === 'string' && invoice_id) {
            return end(() => {
              this.#settled = true;
              this.on.settled({ status, invoice_id });
            });
          }
        }
        if (code === 404) return end(() => failed('settle-timeout', 'status-url does not know this order (404)'));
        const seconds = Number(response.headers.get('retry-after'));
        if (code === 204) wait = began + MIN_ASK_INTERVAL_MS - Date.now();
        else if (seconds > 0) wait = Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
      } catch {
        // A network error is retried after the back-off; an abort ends the loop.
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
