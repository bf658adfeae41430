// Asking the merchant's own backend for a key, as a Lit reactive controller: the POST to token-url or
// the integrator's fetchToken, one request at a time, bounded by a time limit, aborted when the host
// leaves the page or the element forgets it. Every failure is one message naming the source, so the
// element has a single code to report; a paid order is an answer (service/checkout.ts).
import { parseTokenAnswer, type TokenAnswer, type TokenRequestBody } from '../service/checkout.js';
import { RunController } from './run-controller.js';

export type { TokenAnswer };

export interface FetchTokenContext {
  /** The merchant's order reference from the order-ref attribute, or null. */
  orderRef: string | null;
  /** The page's language, a BCP 47 tag (docs/element.md, Language): for the token request's `language`. */
  language: string;
  /** Aborted when the element is removed or the request is superseded. */
  signal: AbortSignal;
}

export type FetchToken = (context: FetchTokenContext) => Promise<TokenAnswer>;

export interface TokenCallbacks {
  /** An answer arrived for the current request; `answer` now holds it. */
  answered(): void;
  /** The current request failed or timed out; `answer` is now `error`. */
  failed(message: string): void;
}

export class TokenController extends RunController<TokenCallbacks> {
  /** Unset until asked, then `loading`, the answer, or `error`: the element's state while there is no answer to act on. */
  declare answer?: TokenAnswer | 'loading' | 'error';

  /**
   * Runs fetchToken when set, else POSTs `{"order_ref": ..., "language": ...}` to token-url (the order
   * reference and the page's language, so the browser never names an amount). A throw, a rejection, a non-2xx or non-JSON answer (a 409 is the
   * answer `{ paid: true }` of a paid order), a bad shape or no answer in time all fail the request with
   * a message that says which.
   */
  async request(fetchToken: FetchToken | null, tokenUrl: string | null, orderRef: string | null, ms: number, language: string): Promise<void> {
    const source = fetchToken ? 'fetchToken' : 'token-url';
    const failed = (message: string) => () => {
      this.answer = 'error';
      this.on.failed(message);
    };
    // Without a limit a token endpoint that never answers leaves the user before a spinner for good.
    const [signal, end] = this.begin(ms, failed(`no token in ${ms} ms`));
    this.answer = 'loading';
    let data: unknown;
    try {
      if (fetchToken) data = await fetchToken({ orderRef, language, signal });
      else {
        // tokenUrl is set when fetchToken is not: the element asks only then.
        const response = await fetch(tokenUrl!, {
          // fetch's default credentials mode, same-origin, sends the page's cookies to its own backend.
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          // No order-ref: no order_ref (JSON leaves out a field that is undefined).
          body: JSON.stringify({ order_ref: orderRef ?? undefined, language } satisfies TokenRequestBody),
          signal,
        });
        if (!response.ok && response.status !== 409) throw new Error(`HTTP ${response.status}`);
        data = await response.json();
      }
    } catch (error) {
      // An Error's message, or whatever else was thrown as text.
      return end(failed(`${source} failed: ${(error as Error | null)?.message ?? error}`));
    }
    const answer = parseTokenAnswer(data);
    end(
      answer
        ? () => {
            this.answer = answer;
            this.on.answered();
          }
        : failed(`${source} gave no key or redirect_url`),
    );
  }

  /** Aborts a pending request and drops any answer: the next decision asks again (a new connection is a new checkout). */
  override stop(): void {
    super.stop();
    this.answer = undefined;
  }
}
