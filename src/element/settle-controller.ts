// Asking the merchant's status-url for the verified outcome of an order's attempt, as a Lit reactive
// controller. The protocol (service/checkout.ts; docs/element.md, Verified outcome): GET
// {status-url}?order_ref=…&attempt=…, one request at a time; 200 { status, invoice_id } settles, 204
// means "not yet, ask again", 404 means the endpoint does not know the order, anything else is asked
// again after a growing back-off. Only the page's own origin may answer: a redirect (which could hand
// the answer to another origin) or a 200 that is not JSON is an error, never a status.
import type { PayFormSettledDetail } from './events.js';
import { ATTEMPT_PARAM, ORDER_REF_PARAM, parseStatusAnswer } from '../service/checkout.js';
import { RunController } from './run-controller.js';

export const DEFAULT_SETTLE_TIMEOUT = 60000;
/** The first wait after a 5xx, a network error or an unreadable answer; it doubles with each one up to the longest. */
const BACKOFF_MS = 1000;
/** The longest wait between two asks, a retry-after included. */
const MAX_WAIT_MS = 30000;
/** The longest a browser timer waits (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2147483647;
/** After a 204 (a long poll that ran out, or an endpoint that does not wait) the next ask waits this long. */
const MIN_ASK_INTERVAL_MS = 250;

export type SettleErrorCode = 'settle-timeout' | 'invalid-status-url';

export interface SettleCallbacks {
  settled(detail: PayFormSettledDetail): void;
  failed(code: SettleErrorCode, message: string): void;
}

export class SettleController extends RunController<SettleCallbacks> {
  /** pay-form-settled fired for the last run. */
  declare settled?: boolean;

  /**
   * Asks about `attempt` of the order until its verified status arrives, for at most `ms`. Without `ms`
   * (an open form, before any result) it asks until stopped or asked again with a limit, and reports
   * nothing but the verified status: a result, or the form itself, may still come.
   */
  async ask(statusUrl: string, orderRef: string | null, attempt: string | undefined, ms?: number): Promise<void> {
    this.settled = false;
    const failed = (code: SettleErrorCode, message: string) => () => {
      if (ms !== undefined) this.on.failed(code, message);
    };
    const refuse = failed('invalid-status-url', 'status-url answered no JSON of its own');
    let url: URL | undefined;
    try {
      url = new URL(statusUrl, document.baseURI);
    } catch {}
    // Same origin only, so the page's cookies go to its own backend (docs/element.md).
    if (url?.origin !== location.origin) return refuse();
    // A fragment in status-url stays out: fetch never sends one. Without order-ref the endpoint's 404
    // says that it knows no such order.
    url.searchParams.set(ORDER_REF_PARAM, orderRef ?? '');
    if (attempt) url.searchParams.set(ATTEMPT_PARAM, attempt);
    const [signal, end] = this.begin(ms ?? MAX_TIMER_MS, failed('settle-timeout', `no status in ${ms} ms`));
    // Asks since the last 204 (or the start): the wait after a failure doubles with each.
    let failures = 0;
    // A stopped run ends here when its current wait is over, before asking again.
    while (!signal.aborted) {
      let wait = Math.min(BACKOFF_MS * 2 ** failures++, MAX_WAIT_MS);
      try {
        // fetch's default credentials mode, same-origin, sends the page's cookies to its own backend.
        const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' }, redirect: 'manual', signal });
        const { status } = response;
        // A redirect is not followed: it comes back as an opaque answer, status 0. A 200 is parsed as JSON
        // only, so the answer never reaches the DOM; one served as anything else is refused.
        if (!status || (status === 200 && !response.headers.get('content-type')?.startsWith('application/json'))) return end(refuse);
        // Two non-empty strings settle, and only these two fields go on; an unreadable answer is asked again.
        const detail = status === 200 && parseStatusAnswer(await response.json());
        if (detail) {
          return end(() => {
            this.settled = true;
            this.on.settled(detail);
          });
        }
        if (status === 404) return end(failed('settle-timeout', 'status-url: unknown order'));
        const seconds = Number(response.headers.get('retry-after'));
        if (status === 204) {
          failures = 0;
          wait = MIN_ASK_INTERVAL_MS;
        } else if (seconds > 0) wait = Math.min(seconds * 1000, MAX_WAIT_MS);
      } catch {
        // A network error is asked again after the back-off; an abort ends the loop.
      }
      // A run stopped during the request (its abort is the error above) waits for nothing; one stopped
      // during the wait cuts it short, its timer cleared with it.
      if (signal.aborted) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, wait);
        signal.addEventListener('abort', done);
      });
    }
  }
}
