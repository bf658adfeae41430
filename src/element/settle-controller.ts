// Asking the merchant's status-url for the verified outcome of an order's attempt, as a Lit reactive
// controller. The protocol (service/checkout.ts; docs/element.md, Verified outcome): GET
// {status-url}?order_ref=…&attempt=…, one request at a time; 200 { status, invoice_id } settles, 204
// means "not yet, ask again", anything else is asked again after a growing, jittered back-off. Only the
// page's own origin may answer: a redirect (which could hand the answer to another origin) or a 200 that
// is not JSON is an error, never a status. One page asks at most about once a second in every failure
// mode, and not at all while the browser is offline.
import type { PayFormSettledDetail } from './events.js';
import { ATTEMPT_PARAM, ORDER_REF_PARAM, parseStatusAnswer } from '../service/checkout.js';
import { RunController } from './run-controller.js';

export const DEFAULT_SETTLE_TIMEOUT = 60000;
/** The first wait after a failure; it doubles with each one up to the longest, a retry-after included. */
const BACKOFF_MS = 1000;
/** The longest wait between two asks: a retry-after above it is capped, so an outage is not waited out for long. */
const MAX_WAIT_MS = 30000;
/** The longest a browser timer waits (2^31 - 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2147483647;
/** After a 204 (a long poll that ran out) the next ask waits this long, jittered: short, so a callback that lands then is not held up. */
const MIN_ASK_INTERVAL_MS = 250;
/** A redirect, a 4xx or a 200 that is not JSON counts three failures, and ends the asking past this many: about four asks, slowly. */
const GIVE_UP = 6;

export type SettleErrorCode = 'settle-timeout' | 'invalid-status-url';

export interface SettleCallbacks {
  settled(detail: PayFormSettledDetail): void;
  failed(code: SettleErrorCode, message: string): void;
}

export class SettleController extends RunController<SettleCallbacks> {
  /** pay-form-settled fired for the last run. */
  declare settled?: boolean;
  /** Ends the current pause between two asks; `true` when the network came back. */
  #wake?: (online?: boolean) => void;
  /** The pause's timer, cleared when the run stops, so a removed element is not kept until it fires. */
  #pause?: ReturnType<typeof setTimeout>;

  hostConnected(): void {
    this.down = !navigator.onLine;
    addEventListener('online', this);
    addEventListener('offline', this);
  }

  override hostDisconnected(): void {
    super.hostDisconnected();
    removeEventListener('online', this);
    removeEventListener('offline', this);
  }

  /** `online` and `offline` on the window: the element says so, and a wait resumes as soon as the network is back. */
  handleEvent({ type }: Event): void {
    this.host.requestUpdate();
    if (!(this.down = type === 'offline')) {
      this.back = Date.now();
      this.#wake?.(true);
    }
  }

  /** Ends the run (its pause too) and forgets its verified status: the next run is a new attempt, or a new order. */
  override stop(): void {
    super.stop();
    clearTimeout(this.#pause);
    this.#wake?.();
    this.settled = false;
  }

  /**
   * Asks about `attempt` of the order until its verified status arrives, for at most `ms` (not counting
   * time offline). Without `ms` (an open form, before any result) it asks until stopped or asked again
   * with a limit, and reports nothing but the verified status: a result, or the form itself, may still come.
   * A failure is reported once per run.
   */
  async ask(statusUrl: string, orderRef: string | null, attempt: string | undefined, ms?: number): Promise<void> {
    let said: unknown;
    const failed = (code: SettleErrorCode, message: string) => () => {
      if (ms !== undefined && !said) this.on.failed(code, (said = message));
    };
    let url: URL | undefined;
    try {
      url = new URL(statusUrl, document.baseURI);
    } catch {}
    // Same origin only, so the page's cookies go to its own backend (docs/element.md).
    if (url?.origin !== location.origin) return failed('invalid-status-url', `status-url is not on ${location.origin}`)();
    // A fragment in status-url stays out: fetch never sends one. Without order-ref the endpoint's 404
    // says that it knows no such order.
    url.searchParams.set(ORDER_REF_PARAM, orderRef ?? '');
    if (attempt) url.searchParams.set(ATTEMPT_PARAM, attempt);
    const [signal, end] = this.begin(ms ?? MAX_TIMER_MS, failed('settle-timeout', `no status in ${ms} ms`));
    // Failures since the last 204 (or the start): the wait after one doubles with each.
    let failures = 0;
    // A stopped run ends at its next ask (stop() ends its pause), before asking again.
    for (;;) {
      let wait: number | undefined;
      try {
        // fetch's default credentials mode, same-origin, sends the page's cookies to its own backend.
        const response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' }, redirect: 'manual', signal });
        const { status } = response;
        // A redirect is not followed: it comes back as an opaque answer, status 0. A 200 is parsed as JSON
        // only, so the answer never reaches the DOM.
        const json = response.headers.get('content-type')?.startsWith('application/json');
        // Two non-empty strings settle, and only the protocol's fields go on; JSON that does not parse is asked
        // again like a network error.
        const detail = status === 200 && json && parseStatusAnswer(await response.json());
        if (detail) {
          return end(() => {
            this.settled = true;
            this.on.settled(detail);
          });
        }
        if (status === 204) {
          failures = 0;
          wait = MIN_ASK_INTERVAL_MS;
        } else {
          // A redirect, a 200 that is not the protocol's JSON or a 4xx (but 429, which asks to come back later)
          // will not mend itself soon: said once, asked again a few times, slowly (a session may come back).
          if (status < 500 && status !== 429) {
            // 0 is a redirect; a 4xx says the endpoint does not know the order (or this shopper).
            const report = failed(status % 200 ? 'settle-timeout' : 'invalid-status-url', `status-url answered ${status}`);
            if (failures > GIVE_UP) return end(report);
            report();
            failures += 2;
          }
          // The larger of the back-off and the answer's retry-after, so a full server is not asked harder.
          wait = Math.max(BACKOFF_MS * 2 ** failures++, Number(response.headers.get('retry-after')) * 1000 || 0);
        }
      } catch {
        // A network error is asked again after the back-off; an abort ends the run below.
      }
      if (signal.aborted) return;
      wait ??= BACKOFF_MS * 2 ** failures++;
      // Jittered, so pages opened together do not ask together. Offline, nothing is asked until the network
      // is back, and then at once, the back-off started again.
      if (
        await new Promise((resolve) => {
          this.#wake = resolve;
          if (!this.down) this.#pause = setTimeout(resolve, Math.min(wait, MAX_WAIT_MS) * (0.75 + Math.random() / 2));
        })
      )
        failures = 0;
    }
  }
}
