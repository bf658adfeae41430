// The <pay-form> element. Registration lives in pay-form-define.ts so `pay-form/element` can export
// the class without defining a tag.
import type { PropertyValues } from '@lit/reactive-element';
import { PAY_FORM_CLOSE, PAY_FORM_ERROR, PAY_FORM_OPEN, PAY_FORM_READY, PAY_FORM_REDIRECT, PAY_FORM_SETTLED } from './events.js';
import type { ElementErrorCode, PayFormDisplay, PayFormEventDetails, PayFormEventName, PayFormState } from './events.js';
import { checkRedirectUrl, formUrlAt, parseBaseUrl, type BaseUrl, type Checked } from '../service/form-url.js';
import { FrameWatchController, type Frame } from './frame-watch-controller.js';
import { preconnect, warmUpOnce } from './preconnect.js';
import { styles } from './pay-form.styles.js';
import { createFrame, createModal, setAttributes, warmFrame } from './pay-form.dom.js';
import { SettleController } from './settle-controller.js';
import { TokenController } from './token-controller.js';
import { DEFAULT_FRAME_TITLE, DEFAULT_LOAD_TIMEOUT, DEFAULT_SETTLE_TIMEOUT, PayFormProperties, timeLimit } from './pay-form-properties.js';

export { DEFAULT_LOAD_TIMEOUT, DEFAULT_FRAME_TITLE };

/** Properties whose change means "a different form": the element decides again what to show. */
const INPUTS = ['baseUrl', 'key', 'redirectUrl', 'display', 'tokenUrl', 'fetchToken'] as const;
const TOKEN_SOURCES = ['tokenUrl', 'fetchToken'] as const;

/**
 * Opens a payment service's hosted form: inline in an iframe, in a modal dialog, or as a full-page
 * redirect, with strict checks on every URL and on the result messages it accepts. Its attributes
 * are declared and documented in pay-form-properties.ts.
 *
 * @fires pay-form-open - `{ url, display }`: the form URL is chosen, before it loads.
 * @fires pay-form-ready - `{ url }`: the iframe has loaded the form.
 * @fires pay-form-redirect - `{ url }`, cancelable: unless cancelled the page is then sent to `url`.
 * @fires pay-form-success - `{ status: 'success' }`: the framed form reached the merchant's success page.
 * @fires pay-form-fail - `{ status: 'fail' }`: the framed form reached the merchant's fail page.
 * @fires pay-form-settled - `{ status, invoice_id }`: status-url holds the service's verified callback for the order; the event to trust for money.
 * @fires pay-form-close - `{ reason: 'user' | 'api', result }`: the modal was dismissed, or `close()` removed the form; `result` is the result reached before (`success`, `fail`, or null), which then stays the state.
 * @fires pay-form-error - `{ code, message }`: a refusal, a failed token request, a load timeout, an unreachable service or a CSP block.
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
export class PayForm extends PayFormProperties {
  static override styles = styles;

  #state: PayFormState = 'idle';
  #needsRun = false;
  /** The frame in the shadow root and its nodes; differs from the watched frame until the next update. */
  #shown: { frame: Frame; node: HTMLElement; iframe: HTMLIFrameElement } | null = null;
  readonly #token = new TokenController(this, {
    answered: () => this.#run(),
    failed: (message) => this.#fail({ code: 'token-request-failed', message }),
  });
  readonly #watch = new FrameWatchController(this, {
    result: (status) => {
      this.#setState(status);
      this.#emit(`pay-form-${status}`, { status });
      // The framed result is the browser's word: ask the merchant's backend for the verified one.
      this.#askSettled(true);
    },
    ready: (frame) => {
      if (!frame.result) this.#setState('open');
      this.#emit(PAY_FORM_READY, { url: frame.url });
    },
    failed: (frame, code, message) => {
      this.#removeFrame();
      this.#fail({ code, message });
      // A blocked frame would be blocked again; a slow or unreachable one may still open as a page.
      if (code !== 'csp-blocked' && this.redirectOnTimeout) this.#navigate(frame.url);
    },
  });

  readonly #settle = new SettleController(this, {
    settled: (detail) => this.#emit(PAY_FORM_SETTLED, detail),
    failed: (code, message) => this.#fail({ code, message }, true),
  });

  /** What the element is doing; reflected to the `state` attribute for CSS. Read-only. */
  get state(): PayFormState {
    return this.#state;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // A declarative shadow root (markup cached from an older server render) holds only stale nodes.
    this.shadowRoot?.replaceChildren();
    return super.createRenderRoot();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#setState(this.#state);
    this.#needsRun = true;
    this.requestUpdate();
  }

  override disconnectedCallback(): void {
    // The controllers drop the token request and the watchers; a new connection is a new checkout.
    super.disconnectedCallback();
    this.#removeFrame();
    this.#setState('idle');
  }

  /** Shows the form again (after close, a result or an error); a token source is asked for a fresh token. */
  open(): void {
    if (!this.isConnected) return;
    if (this.key == null && this.redirectUrl == null) this.#token.stop();
    this.#run();
  }

  /**
   * Asks status-url for order-ref's verified status now (as `await-settled` does on connection), for a
   * return page that sets things up from script. Does nothing while asking or once settled.
   */
  settle(): void {
    if (this.isConnected) this.#askSettled(false);
  }

  /** Removes the form, inline or modal, and fires `pay-form-close` with reason `api`. */
  close(): void {
    this.#dismiss('api');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (TOKEN_SOURCES.some((name) => changed.has(name))) this.#token.stop();
    if (!this.isConnected) return;
    if (this.awaitSettled) this.settle();
    if (this.#needsRun || INPUTS.some((name) => changed.has(name))) {
      this.#needsRun = false;
      this.#run();
    }
  }

  /** Puts the current frame in the shadow root (new nodes for a new frame) and gives it the current title and sandbox. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const frame = this.#watch.frame;
    let shown = this.#shown;
    const isNew = shown?.frame !== frame;
    if (isNew) {
      shown?.node.remove();
      shown = this.#shown = frame && this.#nodes(frame);
    }
    if (!shown) return;
    const { iframe, node } = shown;
    const title = this.frameTitle || DEFAULT_FRAME_TITLE;
    // Set before the iframe is inserted, so before it starts loading.
    setAttributes(iframe, { title, sandbox: this.frameSandbox });
    if (node !== iframe) setAttributes(node, { 'aria-label': title });
    if (!isNew) return;
    this.renderRoot.append(node);
    this.#watch.shown(iframe);
    // showModal() remembers the focused element and close() returns focus to it (HTML's dialog
    // focus steps), so the form is always closed through dialog.close() before it is removed.
    if (node instanceof HTMLDialogElement && this.isConnected) node.showModal();
  }

  #nodes(frame: Frame): { frame: Frame; node: HTMLElement; iframe: HTMLIFrameElement } {
    const iframe = createFrame(frame.url, () => this.#watch.loaded(frame));
    // Only while this frame is on show: the browser closing its dialog on its own (a repeated Escape) is the user's dismissal too.
    const dismiss = () => this.#watch.frame === frame && this.#dismiss('user');
    return { frame, iframe, node: frame.display === 'inline' ? iframe : createModal(iframe, dismiss) };
  }

  /** Decides, from the current inputs, what to show: a redirect, a frame, a token request, or nothing yet. */
  #run(): void {
    this.#removeFrame();
    // Checked once per decision; null means "no base URL yet".
    const base = this.baseUrl == null ? null : parseBaseUrl(this.baseUrl);
    if (base?.ok) {
      // Preconnects to the service and, while the key is still on its way, warms the frame's code once.
      preconnect(base.value.origin);
      if (this.key == null) warmUpOnce(warmFrame);
    }
    if (this.redirectUrl != null) return this.#redirectTo(this.redirectUrl);
    if (this.key != null) return this.#openKey(base, this.key);
    const token = this.#token.status;
    if (token === 'pending') return this.#setState('loading');
    if (token === 'failed') return this.#setState('error');
    if (token) return 'redirect_url' in token ? this.#redirectTo(token.redirect_url) : this.#openKey(base, token.key);
    if (this.fetchToken != null || this.tokenUrl != null) {
      // A base URL that cannot frame the key is refused before the merchant's backend creates an invoice.
      if (base !== null && !base.ok) return this.#fail(base);
      this.#setState('loading');
      void this.#token.request(this.fetchToken, this.tokenUrl, this.orderRef ?? null, this.#loadTimeoutMs());
    } else this.#setState('idle');
  }

  #redirectTo(raw: string): void {
    const checked = checkRedirectUrl(raw);
    if (!checked.ok) return this.#fail(checked);
    this.#navigate(checked.value);
  }

  #openKey(base: Checked<BaseUrl> | null, key: string): void {
    // No base URL yet means "wait", like no key: the attribute may still be on its way.
    if (base === null) return this.#setState('idle');
    if (!base.ok) return this.#fail(base);
    const checked = formUrlAt(base.value, key);
    if (!checked.ok) return this.#fail(checked);
    const url = checked.value;
    const display: PayFormDisplay = this.display === 'modal' || this.display === 'redirect' ? this.display : 'inline';
    this.#setState('loading');
    this.#emit(PAY_FORM_OPEN, { url, display });
    if (display === 'redirect') return this.#navigate(url);
    this.#watch.watch({ url, origin: base.value.origin, display }, this.#loadTimeoutMs());
    this.requestUpdate();
  }

  #loadTimeoutMs(): number {
    return timeLimit(this.loadTimeout, DEFAULT_LOAD_TIMEOUT);
  }

  /** Asks status-url, when set, for order-ref's verified status; `again` after a new framed result. */
  #askSettled(again: boolean): void {
    if (this.statusUrl != null) void this.#settle.start(this.statusUrl, this.orderRef, timeLimit(this.settleTimeout, DEFAULT_SETTLE_TIMEOUT), again);
  }

  #dismiss(reason: 'user' | 'api'): void {
    const state = this.#state;
    // A result, once reached, stays: closing then only removes the form (the return page).
    const result = state === 'success' || state === 'fail' ? state : null;
    if (result === null ? state !== 'loading' && state !== 'open' : this.#watch.frame === null) return;
    if (this.#token.status === 'pending') this.#token.stop();
    this.#removeFrame();
    if (result === null) this.#setState('closed');
    this.#emit(PAY_FORM_CLOSE, { reason, result });
  }

  #removeFrame(): void {
    const watch = this.#watch;
    if (watch.frame === null) return;
    watch.clear();
    const dialog = this.#shown?.node;
    if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
    this.requestUpdate();
  }

  /** Fires pay-form-redirect and, unless it is cancelled, sends the page to `url`. */
  #navigate(url: string): void {
    if (this.#emit(PAY_FORM_REDIRECT, { url }, true)) {
      this.#setState('loading');
      location.assign(url);
    } else if (this.#state === 'loading') this.#setState('idle');
  }

  /**
   * Reports a refusal or a failure as pay-form-error (only its code and message). `keepResult` when
   * only the verified status is missing: a result already reached then stays the state.
   */
  #fail({ code, message }: { code: ElementErrorCode; message: string }, keepResult = false): void {
    if (!keepResult || (this.#state !== 'success' && this.#state !== 'fail')) this.#setState('error');
    this.#emit(PAY_FORM_ERROR, { code, message });
  }

  #setState(state: PayFormState): void {
    this.#state = state;
    if (this.getAttribute('state') !== state) this.setAttribute('state', state);
  }

  #emit<K extends PayFormEventName>(name: K, detail: PayFormEventDetails[K], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }
}
