// The token request as a Lit reactive controller: one request at a time to token-url or fetchToken,
// bounded by a time limit, aborted when the host leaves the page or the element forgets it.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { requestToken, type FetchToken, type TokenAnswer } from './token.js';

export interface TokenCallbacks {
  /** An answer arrived for the current request; `status` now holds it. */
  answered(): void;
  /** The current request failed or timed out; `status` is now `failed`. */
  failed(message: string): void;
}

export class TokenController implements ReactiveController {
  /** null until asked, then `pending`, the answer, or `failed`. */
  status: TokenAnswer | 'pending' | 'failed' | null = null;
  /** Ends the pending request: aborts it and drops its time limit. */
  #abort: (() => void) | null = null;
  readonly #callbacks: TokenCallbacks;

  constructor(host: ReactiveControllerHost, callbacks: TokenCallbacks) {
    this.#callbacks = callbacks;
    host.addController(this);
  }

  hostDisconnected(): void {
    // A new connection is a new checkout: the next one asks for its own token.
    this.forget();
  }

  request(fetchToken: FetchToken | null, tokenUrl: string | null, orderRef: string | null, ms: number): void {
    this.forget();
    const controller = new AbortController();
    // Without a limit a token endpoint that never answers leaves the user before a spinner for good.
    const timer = setTimeout(() => end(null, `the token request got no answer within ${ms} ms`), ms);
    const abort = () => (clearTimeout(timer), controller.abort());
    const end = (answer: TokenAnswer | null, message = '') => {
      if (this.#abort !== abort) return;
      clearTimeout(timer);
      this.#abort = null;
      if (answer === null) controller.abort();
      this.status = answer ?? 'failed';
      if (answer === null) this.#callbacks.failed(message);
      else this.#callbacks.answered();
    };
    this.#abort = abort;
    this.status = 'pending';
    requestToken(fetchToken, tokenUrl ?? '', orderRef, controller.signal).then(end, (error: Error) => end(null, error.message));
  }

  /** Aborts a pending request and drops any answer: the next decision asks again. */
  forget(): void {
    this.#abort?.();
    this.#abort = null;
    this.status = null;
  }
}
