// The <pay-form> element. Registration lives in pay-form-define.ts so `pay-form/element` can export
// the class without defining a tag.
import { LitElement, css, html, nothing, render, type PropertyValues } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { keyed } from 'lit/directives/keyed.js';
import {
  PAY_FORM_CLOSE,
  PAY_FORM_ERROR,
  PAY_FORM_FAIL,
  PAY_FORM_OPEN,
  PAY_FORM_READY,
  PAY_FORM_REDIRECT,
  PAY_FORM_SUCCESS,
  type PayFormDisplay,
  type ElementErrorCode,
  type PayFormEventDetails,
  type PayFormEventName,
  type PayFormState,
} from './events.js';
import { baseOrigin, checkRedirectUrl, httpOrigin, openFormUrl } from '../service/form-url.js';
import { parseResult } from './result.js';
import { callFetchToken, postForToken, type FetchToken, type TokenAnswer } from './token.js';

export const DEFAULT_LOAD_TIMEOUT = 15000;
export const DEFAULT_FRAME_TITLE = 'Payment form';

/** Properties whose change means "a different form": the element decides again what to show. */
const INPUTS = ['baseUrl', 'key', 'redirectUrl', 'display', 'tokenUrl', 'fetchToken'] as const;
const TOKEN_SOURCES = ['tokenUrl', 'fetchToken'] as const;
const DISPLAYS: readonly PayFormDisplay[] = ['inline', 'modal', 'redirect'];
const FRAME_DIRECTIVES = new Set(['frame-src', 'child-src', 'default-src']);

type TokenStatus = { kind: 'pending'; controller: AbortController; timer: ReturnType<typeof setTimeout> } | { kind: 'done'; answer: TokenAnswer } | { kind: 'failed' };

interface Frame {
  id: number;
  url: string;
  display: 'inline' | 'modal';
  ready: boolean;
  result: boolean;
}

/**
 * Opens a payment service's hosted form: inline in an iframe, in a modal dialog, or as a full-page
 * redirect, with strict checks on every URL and on the result messages it accepts.
 *
 * @attr base-url - The service's base address: absolute http(s); plain http only for loopback hosts.
 * @attr key - The key from obtain_token; the form opens at `{base-url}/api/jsapi/open/{key}/`.
 * @attr redirect-url - When set, the page is sent there (after `pay-form-redirect`) instead of framing the form.
 * @attr display - `inline` (default), `modal` or `redirect`.
 * @attr token-url - The merchant's own endpoint, POSTed `{"order_ref": ...}` once when there is no key and no redirect URL.
 * @attr order-ref - The merchant's order reference sent to token-url (and passed to fetchToken).
 * @attr load-timeout - Milliseconds to wait for the form to load before `pay-form-error` `load-timeout`, and for a token answer before `token-request-failed`; default 15000.
 * @attr redirect-on-timeout - Boolean: after a load timeout, fall back to a full redirect to the same form URL.
 * @attr allowed-origins - Space-separated origins, besides the page's own, whose result messages are accepted.
 * @attr frame-sandbox - The iframe's `sandbox` attribute; absent unless set here.
 * @attr frame-title - The iframe's title (its accessible name); default "Payment form".
 * @attr state - Reflected, read-only: `idle`, `loading`, `open`, `success`, `fail`, `closed` or `error`.
 *
 * @fires pay-form-open - `{ url, display }`: the form URL is chosen, before it loads.
 * @fires pay-form-ready - `{ url }`: the iframe has loaded the form.
 * @fires pay-form-redirect - `{ url }`, cancelable: unless cancelled the page is then sent to `url`.
 * @fires pay-form-success - `{ status: 'success' }`: the framed form reached the merchant's success page.
 * @fires pay-form-fail - `{ status: 'fail' }`: the framed form reached the merchant's fail page.
 * @fires pay-form-close - `{ reason: 'user' | 'api' }`: the modal was dismissed, or `close()` removed the form.
 * @fires pay-form-error - `{ code, message }`: a refusal, a failed token request, a load timeout or a CSP block.
 *
 * @csspart frame - The iframe holding the service's form.
 * @csspart dialog - The `<dialog>` of the modal display.
 * @csspart close-button - The modal's close button (accessible name "Close").
 *
 * @cssprop [--pay-form-height=640px] - The iframe's height.
 * @cssprop [--pay-form-width=100%] - The iframe's width.
 * @cssprop [--pay-form-border=0] - The iframe's border.
 * @cssprop [--pay-form-dialog-width=min(32rem, calc(100vw - 2rem))] - The modal dialog's width.
 * @cssprop [--pay-form-backdrop=rgb(0 0 0 / 0.5)] - The modal's backdrop.
 */
export class PayForm extends LitElement {
  static override properties = {
    baseUrl: { type: String, attribute: 'base-url' },
    key: { type: String },
    redirectUrl: { type: String, attribute: 'redirect-url' },
    display: { type: String },
    tokenUrl: { type: String, attribute: 'token-url' },
    orderRef: { type: String, attribute: 'order-ref' },
    loadTimeout: { type: Number, attribute: 'load-timeout' },
    redirectOnTimeout: { type: Boolean, attribute: 'redirect-on-timeout' },
    allowedOrigins: { type: String, attribute: 'allowed-origins' },
    frameSandbox: { type: String, attribute: 'frame-sandbox' },
    frameTitle: { type: String, attribute: 'frame-title' },
    fetchToken: { attribute: false },
  };

  static override styles = css`
    :host {
      display: block;
    }
    :host([hidden]) {
      display: none;
    }
    iframe {
      display: block;
      box-sizing: border-box;
      width: var(--pay-form-width, 100%);
      height: var(--pay-form-height, 640px);
      border: var(--pay-form-border, 0);
    }
    dialog {
      width: var(--pay-form-dialog-width, min(32rem, calc(100vw - 2rem)));
      max-height: calc(100dvh - 2rem);
      padding: 0;
      border: 0;
      border-radius: 0.5rem;
      overflow: auto;
    }
    dialog::backdrop {
      background: var(--pay-form-backdrop, rgb(0 0 0 / 0.5));
    }
    .bar {
      display: flex;
      justify-content: flex-end;
      padding: 0.25rem;
    }
    button {
      min-width: 44px;
      min-height: 44px;
      font: inherit;
      font-size: 1.5rem;
      line-height: 1;
      background: transparent;
      color: #1a1a1a;
      border: 0;
      border-radius: 0.25rem;
      cursor: pointer;
    }
    button:focus-visible {
      outline: 2px solid #1a56db;
      outline-offset: 2px;
    }
  `;

  declare baseUrl: string | null;
  declare key: string | null;
  declare redirectUrl: string | null;
  /** `inline`, `modal` or `redirect`; any other value is treated as `inline`. */
  declare display: PayFormDisplay;
  declare tokenUrl: string | null;
  declare orderRef: string | null;
  declare loadTimeout: number;
  declare redirectOnTimeout: boolean;
  declare allowedOrigins: string | null;
  declare frameSandbox: string | null;
  declare frameTitle: string;
  /** For SPAs: used instead of token-url when set; resolves to `{ key }` or `{ redirect_url }`. */
  declare fetchToken: FetchToken | null;

  #state: PayFormState = 'idle';
  #frame: Frame | null = null;
  #frameIds = 0;
  #token: TokenStatus | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #needsRun = false;
  #hydrating = false;

  constructor() {
    super();
    this.baseUrl = null;
    this.key = null;
    this.redirectUrl = null;
    this.display = 'inline';
    this.tokenUrl = null;
    this.orderRef = null;
    this.loadTimeout = DEFAULT_LOAD_TIMEOUT;
    this.redirectOnTimeout = false;
    this.allowedOrigins = null;
    this.frameSandbox = null;
    this.frameTitle = DEFAULT_FRAME_TITLE;
    this.fetchToken = null;
  }

  /** What the element is doing; reflected to the `state` attribute for CSS. Read-only. */
  get state(): PayFormState {
    return this.#state;
  }

  override connectedCallback(): void {
    // Server-rendered (a declarative shadow root is already there): Lit's hydration checks the first
    // render against the server's HTML, which frames nothing, so the form opens one update later.
    if (!this.hasUpdated && this.shadowRoot !== null) this.#hydrating = true;
    super.connectedCallback();
    window.addEventListener('message', this.#onMessage);
    document.addEventListener('securitypolicyviolation', this.#onCspViolation);
    this.#setState(this.#state);
    this.#needsRun = true;
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('message', this.#onMessage);
    document.removeEventListener('securitypolicyviolation', this.#onCspViolation);
    // A new connection is a new checkout: the next one asks for its own token and frame.
    this.#forgetToken();
    this.#removeFrame();
    this.#setState('idle');
  }

  /** Shows the form again (after close, a result or an error); a token source is asked for a fresh token. */
  open(): void {
    if (!this.isConnected) return;
    if (this.key == null && this.redirectUrl == null) this.#forgetToken();
    this.#run();
  }

  /** Removes the form, inline or modal, and fires `pay-form-close` with reason `api`. */
  close(): void {
    this.#dismiss('api');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (TOKEN_SOURCES.some((name) => changed.has(name))) this.#forgetToken();
    if (!this.isConnected || this.#hydrating) return;
    if (this.#needsRun || INPUTS.some((name) => changed.has(name))) {
      this.#needsRun = false;
      this.#run();
    }
  }

  protected override updated(): void {
    if (this.#hydrating) {
      this.#hydrating = false;
      void this.updateComplete.then(() => this.requestUpdate());
      return;
    }
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open && this.isConnected) {
      // showModal() remembers the focused element and close() returns focus to it (HTML's dialog
      // focus steps), so the form is always closed through dialog.close() before it is removed.
      dialog.showModal();
    }
  }

  protected override render() {
    const frame = this.#frame;
    if (frame === null) return nothing;
    const iframe = this.#iframe(frame);
    if (frame.display === 'inline') return iframe;
    return html`<dialog
      part="dialog"
      aria-label=${this.frameTitle || DEFAULT_FRAME_TITLE}
      @cancel=${this.#onDialogCancel}
      @close=${this.#onDialogClose}
    >
      <div class="bar">
        <button part="close-button" type="button" aria-label="Close" @click=${() => this.#dismiss('user')}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      ${iframe}
    </dialog>`;
  }

  #iframe(frame: Frame) {
    return keyed(
      frame.id,
      html`<iframe
        part="frame"
        sandbox=${ifDefined(this.frameSandbox ?? undefined)}
        allow="payment"
        referrerpolicy="origin"
        title=${this.frameTitle || DEFAULT_FRAME_TITLE}
        src=${frame.url}
        @load=${() => this.#onFrameLoad(frame)}
      ></iframe>`,
    );
  }

  /**
   * Once per page, when a base URL is known before the key: prepare the frame's template and run the
   * URL checks once, in an idle moment, so the first `key` pays only for the iframe itself
   * (bench/form-open measures the cold first open against a hand-written iframe). The iframe is rendered into a detached fragment: it never loads.
   */
  #warm(): void {
    if (PayForm.#warmed) return;
    PayForm.#warmed = true;
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => {
      openFormUrl('https://warm.invalid', 'warm');
      const frame: Frame = { id: 0, url: 'about:blank', display: 'inline', ready: false, result: false };
      render(this.#iframe(frame), document.createDocumentFragment(), { host: this });
    });
  }

  static #warmed = false;

  /** Decides, from the current inputs, what to show: a redirect, a frame, a token request, or nothing yet. */
  #run(): void {
    this.#removeFrame();
    this.#preconnect();
    if (this.redirectUrl != null) return this.#redirectTo(this.redirectUrl);
    if (this.key != null) return this.#openKey(this.key);
    const token = this.#token;
    if (token?.kind === 'pending') return this.#setState('loading');
    if (token?.kind === 'failed') return this.#setState('error');
    if (token?.kind === 'done') {
      const answer = token.answer;
      return 'redirect_url' in answer ? this.#redirectTo(answer.redirect_url) : this.#openKey(answer.key);
    }
    if (this.fetchToken != null || this.tokenUrl != null) return this.#requestToken();
    this.#setState('idle');
  }

  #redirectTo(raw: string): void {
    const checked = checkRedirectUrl(raw);
    if (!checked.ok) return this.#fail(checked.code, checked.message);
    this.#navigate(checked.value);
  }

  #openKey(key: string): void {
    // No base URL yet means "wait", like no key: the attribute may still be on its way.
    if (this.baseUrl == null) return this.#setState('idle');
    const checked = openFormUrl(this.baseUrl, key);
    if (!checked.ok) return this.#fail(checked.code, checked.message);
    const url = checked.value;
    const display = DISPLAYS.includes(this.display) ? this.display : 'inline';
    this.#setState('loading');
    this.#emit(PAY_FORM_OPEN, { url, display });
    if (display === 'redirect') return this.#navigate(url);
    const frame: Frame = { id: ++this.#frameIds, url, display, ready: false, result: false };
    this.#frame = frame;
    this.#startLoadTimer(frame);
    this.requestUpdate();
  }

  #requestToken(): void {
    const controller = new AbortController();
    const ms = this.#loadTimeoutMs();
    // Without a limit a token endpoint that never answers leaves the user before a spinner for good.
    const timer = setTimeout(() => {
      if (this.#token?.kind !== 'pending' || this.#token.controller !== controller) return;
      controller.abort();
      this.#token = { kind: 'failed' };
      this.#fail('token-request-failed', `the token request got no answer within ${ms} ms`);
    }, ms);
    this.#token = { kind: 'pending', controller, timer };
    this.#setState('loading');
    const context = { orderRef: this.orderRef ?? null, signal: controller.signal };
    const request =
      this.fetchToken != null
        ? callFetchToken(this.fetchToken, context)
        : postForToken(this.tokenUrl ?? '', context.orderRef, controller.signal);
    request.then(
      (answer) => {
        if (this.#token?.kind !== 'pending' || this.#token.controller !== controller) return;
        clearTimeout(timer);
        this.#token = { kind: 'done', answer };
        this.#run();
      },
      (error: unknown) => {
        if (this.#token?.kind !== 'pending' || this.#token.controller !== controller) return;
        clearTimeout(timer);
        this.#token = { kind: 'failed' };
        this.#fail('token-request-failed', error instanceof Error ? error.message : String(error));
      },
    );
  }

  /** Aborts a pending request and drops any answer: the next decision asks again. */
  #forgetToken(): void {
    if (this.#token?.kind === 'pending') {
      clearTimeout(this.#token.timer);
      this.#token.controller.abort();
    }
    this.#token = null;
  }

  #loadTimeoutMs(): number {
    return Number.isFinite(this.loadTimeout) && this.loadTimeout >= 0 ? this.loadTimeout : DEFAULT_LOAD_TIMEOUT;
  }

  #startLoadTimer(frame: Frame): void {
    const ms = this.#loadTimeoutMs();
    this.#timer = setTimeout(() => {
      if (this.#frame !== frame || frame.ready || frame.result) return;
      this.#removeFrame();
      this.#fail('load-timeout', `the payment form did not load within ${ms} ms`);
      if (this.redirectOnTimeout) this.#navigate(frame.url);
    }, ms);
  }

  #onFrameLoad(frame: Frame): void {
    // Later loads are the form navigating on (to the return page): the form is ready only once.
    if (this.#frame !== frame || frame.ready) return;
    frame.ready = true;
    clearTimeout(this.#timer);
    if (!frame.result) this.#setState('open');
    this.#emit(PAY_FORM_READY, { url: frame.url });
  }

  #onMessage = (event: MessageEvent): void => {
    const frame = this.#frame;
    if (frame === null || frame.result) return;
    const iframe = this.renderRoot.querySelector('iframe');
    if (iframe === null || event.source === null || event.source !== iframe.contentWindow) return;
    if (!this.#acceptedOrigins().has(event.origin)) return;
    const message = parseResult(event.data);
    if (message === null) return;
    frame.result = true;
    clearTimeout(this.#timer);
    this.#setState(message.status);
    if (message.status === 'success') this.#emit(PAY_FORM_SUCCESS, { status: 'success' });
    else this.#emit(PAY_FORM_FAIL, { status: 'fail' });
  };

  #onCspViolation = (event: SecurityPolicyViolationEvent): void => {
    const frame = this.#frame;
    if (frame === null || frame.ready || !FRAME_DIRECTIVES.has(event.effectiveDirective)) return;
    const formOrigin = new URL(frame.url).origin;
    if (httpOrigin(event.blockedURI) !== formOrigin) return;
    // With several elements framing the same origin, the event's path names the one that was blocked.
    const path = event.composedPath();
    if (path.includes(this) === false && path.some((node) => node instanceof PayForm)) return;
    this.#removeFrame();
    this.#fail(
      'csp-blocked',
      `The page's Content-Security-Policy directive "${event.violatedDirective}" blocked the payment form at ${formOrigin}; add ${formOrigin} to frame-src.`,
    );
  };

  #onDialogCancel = (event: Event): void => {
    event.preventDefault();
    this.#dismiss('user');
  };

  #onDialogClose = (): void => {
    // The browser may close a modal on its own (a repeated Escape): treat it as the user's dismissal.
    if (this.#frame?.display === 'modal') this.#dismiss('user');
  };

  #dismiss(reason: 'user' | 'api'): void {
    const active = this.#state === 'loading' || this.#state === 'open' || this.#state === 'success' || this.#state === 'fail';
    if (!active) return;
    if (this.#token?.kind === 'pending') this.#forgetToken();
    this.#removeFrame();
    this.#setState('closed');
    this.#emit(PAY_FORM_CLOSE, { reason });
  }

  #removeFrame(): void {
    clearTimeout(this.#timer);
    const frame = this.#frame;
    if (frame === null) return;
    this.#frame = null;
    if (frame.display === 'modal') {
      const dialog = this.renderRoot.querySelector('dialog');
      if (dialog?.open) dialog.close();
    }
    this.requestUpdate();
  }

  #navigate(url: string): void {
    const proceed = this.#emit(PAY_FORM_REDIRECT, { url }, true);
    if (!proceed) {
      if (this.#state === 'loading') this.#setState('idle');
      return;
    }
    this.#setState('loading');
    window.location.assign(url);
  }

  #fail(code: ElementErrorCode, message: string): void {
    this.#setState('error');
    this.#emit(PAY_FORM_ERROR, { code, message });
  }

  #acceptedOrigins(): Set<string> {
    const origins = new Set([window.location.origin]);
    for (const entry of (this.allowedOrigins ?? '').split(/\s+/)) {
      const origin = entry === '' ? null : httpOrigin(entry);
      if (origin !== null) origins.add(origin);
    }
    return origins;
  }

  #preconnect(): void {
    const origin = baseOrigin(this.baseUrl);
    if (origin === null) return;
    if (this.key == null) this.#warm();
    const links = document.head.querySelectorAll<HTMLLinkElement>('link[rel~="preconnect"]');
    if (Array.from(links).some((link) => httpOrigin(link.href) === origin)) return;
    const link = document.createElement('link');
    link.rel = 'preconnect';
    link.href = origin;
    document.head.append(link);
  }

  #setState(state: PayFormState): void {
    this.#state = state;
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
  }

  #emit<K extends PayFormEventName>(name: K, detail: PayFormEventDetails[K], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }
}
