// The token request as a Lit reactive controller: one request at a time to token-url or fetchToken,
// bounded by a time limit, aborted when the host leaves the page or the element forgets it.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { callFetchToken, postForToken, type FetchToken, type TokenAnswer } from './token.js';

export type TokenStatus =
  | { kind: 'pending'; controller: AbortController; timer: ReturnType<typeof setTimeout> }
  | { kind: 'done'; answer: TokenAnswer }
  | { kind: 'failed' };

/** Where a token comes from: the integrator's function wins over token-url. */
export interface TokenSource {
  fetchToken: FetchToken | null;
  tokenUrl: string | null;
  orderRef: string | null;
}

export interface TokenCallbacks {
  /** An answer arrived for the current request; `status` now holds it. */
  answered(): void;
  /** The current request failed or timed out; `status` is now `failed`. */
  failed(message: string): void;
}

export class TokenController implements ReactiveController {
  #status: TokenStatus | null = null;
  readonly #callbacks: TokenCallbacks;

  constructor(host: ReactiveControllerHost, callbacks: TokenCallbacks) {
    this.#callbacks = callbacks;
    host.addController(this);
  }

  /** null until asked, then pending, done or failed. */
  get status(): TokenStatus | null {
    return this.#status;
  }

  hostDisconnected(): void {
    // A new connection is a new checkout: the next one asks for its own token.
    this.forget();
  }

  request(source: TokenSource, ms: number): void {
    this.forget();
    const controller = new AbortController();
    const current = () => this.#status?.kind === 'pending' && this.#status.controller === controller;
    const fail = (message: string) => {
      this.#status = { kind: 'failed' };
      this.#callbacks.failed(message);
    };
    // Without a limit a token endpoint that never answers leaves the user before a spinner for good.
    const timer = setTimeout(() => {
      if (!current()) return;
      controller.abort();
      fail(`the token request got no answer within ${ms} ms`);
    }, ms);
    this.#status = { kind: 'pending', controller, timer };
    const context = { orderRef: source.orderRef, signal: controller.signal };
    const request =
      source.fetchToken != null
        ? callFetchToken(source.fetchToken, context)
        : postForToken(source.tokenUrl ?? '', context.orderRef, controller.signal);
    request.then(
      (answer) => {
        if (!current()) return;
        clearTimeout(timer);
        this.#status = { kind: 'done', answer };
        this.#callbacks.answered();
      },
      (error: unknown) => {
        if (!current()) return;
        clearTimeout(timer);
        fail(error instanceof Error ? error.message : String(error));
      },
    );
  }

  /** Aborts a pending request and drops any answer: the next decision asks again. */
  forget(): void {
    if (this.#status?.kind === 'pending') {
      clearTimeout(this.#status.timer);
      this.#status.controller.abort();
    }
    this.#status = null;
  }
}
