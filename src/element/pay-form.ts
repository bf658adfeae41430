// The <pay-form> element; pay-form-define.ts registers it, so `pay-form/element` can export the class alone.
import type { PropertyValues } from '@lit/reactive-element';
import type { ElementErrorCode, PayFormDisplay, PayFormEventDetails, PayFormState } from './events.js';
import { baseFor, checkHttpUrl, formUrlAt, parseBaseUrl, type BaseUrl, type Checked } from '../service/form-url.js';
import { focusReturn } from './focus-return-controller.js';
import { FrameWatchController, type Frame } from './frame-watch-controller.js';
import { languageOf, textOf } from './language.js';
import { isResultStatus, type ResultStatus } from './result.js';
import { styles } from './pay-form.styles.js';
import { element, say, showFrame, type EventSuffix } from './pay-form.dom.js';
import { SettleController } from './settle-controller.js';
import { TokenController } from './token-controller.js';
import type { PopupDisplay, PopupReport } from './popup-controller.js';
import type { createModal } from './modal.js';
import { DEFAULT_FRAME_TITLE, DEFAULT_LOAD_TIMEOUT, DEFAULT_SETTLE_TIMEOUT, INPUTS, PayFormProperties, SETTLE_INPUTS, TOKEN_SOURCES, timeLimit } from './pay-form-properties.js';
import { ELEMENT_TEXTS, type PayFormTextKey } from './texts.js';

/**
 * Opens a payment service's hosted form: inline in an iframe, in a modal dialog, or as a full-page
 * redirect, with strict checks on every URL and on the result messages it accepts. Its attributes
 * are declared and documented in pay-form-properties.ts.
 *
 * @fires pay-form-open - `{ url, display }`: the form URL is chosen, before it loads.
 * @fires pay-form-ready - `{ url }`: the iframe has loaded the form.
 * @fires pay-form-redirect - `{ url }`, cancelable: unless cancelled the page is then sent to `url`.
 * @fires pay-form-success - `{ status: 'success' }`: the framed form reached the merchant's success page; never after pay-form-settled for the same attempt.
 * @fires pay-form-fail - `{ status: 'fail' }`: the framed form reached the merchant's fail page; never after pay-form-settled for the same attempt.
 * @fires pay-form-settled - `{ status, invoice_id, extra? }` (StatusAnswer): status-url holds the service's verified callback for this attempt of the order, with or without a return page's result; the event to trust for money, and the attempt's last result event. A `success` or `fail` becomes the state, the form kept as after a result, or removed on a `success` it had not reached itself (paid in another tab).
 * @fires pay-form-close - `{ reason: 'user' | 'api', result }`: the modal was dismissed, or `close()` removed the form; `result` is the result reached before (`success`, `fail`, or null), which then stays the state.
 * @fires pay-form-error - `{ code, message }`, cancelable: a refusal, a failed token request, an order already paid, a load timeout, an unreachable service or a CSP block; unless cancelled the element shows the error in the shopper's words (`role="alert"`).
 *
 * @csspart frame - The iframe holding the service's form.
 * @csspart dialog - The `<dialog>` of the modal display.
 * @csspart close-button - The modal's close button (accessible name "Close", the `close` text).
 * @csspart status - The status (`role="status"`): loading, then the result; empty otherwise. In the modal's bar while the modal is open.
 * @csspart alert - The error message (`role="alert"`) shown in place of the form; empty otherwise.
 *
 * @cssprop [--pay-form-height=640px] - The iframe's height.
 * @cssprop [--pay-form-width=100%] - The iframe's width.
 * @cssprop [--pay-form-border=0] - The iframe's border.
 * @cssprop [--pay-form-dialog-width=32rem] - The modal dialog's width; the browser keeps a modal dialog within the viewport less 2em.
 * @cssprop [--pay-form-backdrop=#00000080] - The modal's backdrop.
 */
export class PayForm extends PayFormProperties {
  static override styles = styles;

  #state: PayFormState = 'idle';
  #needsRun?: boolean;
  /** The live regions, made with the shadow root: the status (polite) and the alert (assertive). */
  #status!: HTMLElement;
  #alert!: HTMLElement;
  /** The error on show: the code of the last pay-form-error not cancelled since the last decision. */
  #error?: PayFormTextKey | null;
  /** The frame in the shadow root; differs from the watched frame until the next update. */
  #shown?: Frame | null;
  readonly #focus = focusReturn(this);
  readonly #token = new TokenController(this, {
    answered: () => this.#run(),
    failed: (message) => this.#fail('token-request-failed', message),
  });
  readonly #watch = new FrameWatchController(this, {
    resulted: (status) => this.#result(status),
    // Always before a result: a result means the form was shown.
    ready: (frame) => (this.#setState('open'), this.#emit('ready', { url: frame.url })),
    failed: (frame, code, message) => {
      this.#removeFrame();
      this.#fail(code, message);
      // The page's choice (docs/element.md, Fallback); a popup without its module leaves the error on show.
      if (this.fallback == 'popup') PayForm.popup && (this.display = 'popup');
      else if (this.fallback == 'redirect' || this.redirectOnTimeout) this.#navigate(frame.url);
    },
  });

  readonly #settle = new SettleController(this, {
    settled: (detail) => {
      // Verified, with or without a return page's result: the form is handled as after one. Paid before this
      // form reached its own success (in another tab, on the same attempt), the form goes: no Pay button is left.
      if (detail.status === 'success' && this.#state !== 'success') this.#removeFrame();
      if (isResultStatus(detail.status)) this.#setState(detail.status);
      this.#emit('settled', detail);
    },
    failed: (code, message) => this.#fail(code, message, true),
  });

  /** The popup display, set by its module (popup.ts, which `pay-form` and the framework entries load;
   *  a script-tag page adds pay-form-popup.min.js). Without it `display="popup"` gives `popup-blocked`. */
  static popup?: (host: PayForm, on: PopupReport) => PopupDisplay;
  /** The modal display, set by its module (modal.ts, which `pay-form` and the framework entries load;
   *  a script-tag page adds pay-form-modal.min.js). Without it `display="modal"` shows the form inline. */
  static modal?: typeof createModal;
  #window?: PopupDisplay;

  /** What the element is doing; reflected to the `state` attribute for CSS. Read-only. */
  get state(): PayFormState {
    return this.#state;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    // A declarative shadow root (markup cached from an older server render) holds only stale nodes.
    this.shadowRoot?.replaceChildren();
    const root = super.createRenderRoot();
    // In the tree from the start and never replaced: a live region reads out changes to its content.
    const region = (role: string) => element('div', { id: role, part: role, role });
    root.append((this.#status = region('status')), (this.#alert = region('alert')));
    return root;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#needsRun = true;
    this.#setState(this.#state);
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
    // Inside the shopper's click, before anything is awaited: a window opened later is blocked.
    if (this.display === 'popup' && !this.#popup()?.open()) return this.#fail('popup-blocked', 'the browser blocked the payment window');
    if (this.key == null && this.redirectUrl == null) this.#token.stop();
    // A new attempt: the last one's verified status is no longer awaited.
    this.#settle.stop();
    this.#run();
  }

  /** Asks status-url for order-ref's verified status now, for at most settle-timeout, as `await-settled` does; does nothing while asking or once settled. */
  settle(): void {
    if (this.isConnected && !this.#settle.running && !this.#settle.settled) this.#ask(timeLimit(this.settleTimeout, DEFAULT_SETTLE_TIMEOUT));
  }

  /** Removes the form, inline or modal, and fires `pay-form-close` with reason `api`. */
  close(): void {
    this.#dismiss('api');
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (TOKEN_SOURCES.some((name) => changed.has(name))) this.#token.stop();
    if (!this.isConnected) return;
    if (this.#needsRun || INPUTS.some((name) => changed.has(name))) this.#run();
    // On connection or for another order, never on every update; after the decision, which clears the error on show.
    if (this.awaitSettled && (this.#needsRun || SETTLE_INPUTS.some((name) => changed.has(name)))) {
      if (!this.#needsRun) this.#settle.stop();
      this.settle();
    }
    this.#needsRun = false;
  }

  /** Says the state and the error; puts the current frame in the shadow root (pay-form.dom.ts) with the current title and sandbox. */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const frame = this.#watch.frame;
    const status = this.#status;
    const lang = languageOf(this);
    const text = (key: PayFormTextKey) => textOf(this, key, lang, { ...ELEMENT_TEXTS, ...this.#window?.texts });
    const said = this.#settle.down && this.#settle.running ? 'offline' : this.#window?.win ? 'popup' : this.#state;
    say(status, said in ELEMENT_TEXTS || said === 'popup' ? text(said as PayFormTextKey) : ['']);
    say(this.#alert, this.#error ? text(this.#error) : ['']);
    // A frame-title of the page's own, else the `title` text in the element's language.
    const own = this.frameTitle !== DEFAULT_FRAME_TITLE && this.frameTitle;
    // Only while this frame is on show: the browser closing its dialog on its own (a repeated Escape) is the user's dismissal too.
    const dismiss = () => this.#watch.frame === frame && this.#dismiss('user');
    this.#shown = showFrame(this.renderRoot as ShadowRoot, status, this.#shown, frame, own ? [own, lang] : text('title'), text('close'), this.frameSandbox, PayForm.modal, dismiss);
  }

  /** Decides, from the current inputs, what to show: a redirect, a frame, a token request, or nothing yet. */
  #run(): void {
    this.#removeFrame();
    this.#error = null;
    // Checked once per decision; null means "no base URL yet".
    const base = this.baseUrl == null ? null : parseBaseUrl(this.baseUrl);
    if (this.redirectUrl != null) return this.#redirectTo(this.redirectUrl);
    // The popup display waits for a click (open() or its button) and then for nothing else.
    if (this.display === 'popup' && !this.#popup()?.win) return this.#setState('idle');
    if (this.key != null) return this.#openKey(base, this.key);
    const token = this.#token.answer;
    if (typeof token === 'string') return this.#setState(token);
    if (token) {
      return 'paid' in token
        ? this.#fail('order-paid', 'order already paid')
        : 'key' in token
          ? this.#openKey(baseFor(base, token.base_url), token.key)
          : this.#redirectTo(token.redirect_url);
    }
    if (this.fetchToken != null || this.tokenUrl != null) {
      // A base URL that cannot frame the key is refused before the merchant's backend creates an invoice.
      if (base?.ok === false) return this.#fail(base.code, base.message);
      this.#setState('loading');
      void this.#token.request(this.fetchToken, this.tokenUrl, this.orderRef ?? null, timeLimit(this.loadTimeout, DEFAULT_LOAD_TIMEOUT), languageOf(this));
    } else this.#setState('idle');
  }

  #redirectTo(raw: string): void {
    // checkRedirectUrl's rule, its URL's href read here: its wrapper would cost the bundle 15 B of gzip.
    const checked = checkHttpUrl(raw, 'invalid-redirect-url', 'redirect-url');
    if (checked.ok) this.#navigate(checked.value.href);
    else this.#fail(checked.code, checked.message);
  }

  #openKey(base: Checked<BaseUrl> | null, key: string): void {
    // No base URL yet means "wait", like no key: the attribute may still be on its way.
    if (base === null) return this.#setState('idle');
    if (!base.ok) return this.#fail(base.code, base.message);
    const checked = formUrlAt(base.value, key);
    if (!checked.ok) return this.#fail(checked.code, checked.message);
    const url = checked.value;
    const display: PayFormDisplay = /^(modal|redirect|popup)$/.test(this.display) ? this.display : 'inline';
    this.#setState('loading');
    this.#emit('open', { url, display });
    if (display === 'redirect') return this.#navigate(url);
    if (display === 'popup') {
      this.#window!.show(url);
      this.#setState('open');
    } else this.#watch.watch({ url, origin: base.value.origin, display }, timeLimit(this.loadTimeout, DEFAULT_LOAD_TIMEOUT));
    // The verified status is asked for from now on, with or without a return page (docs/element.md).
    this.#ask();
  }

  /** Asks status-url, when set, about the order's attempt (the token answer's, if any), for at most `ms`, or until stopped. */
  #ask(ms?: number): void {
    if (this.statusUrl != null) void this.#settle.ask(this.statusUrl, this.orderRef, (this.#token.answer as { attempt?: string } | undefined)?.attempt, ms);
  }

  /** Removes the form on show or the token request under way (nothing else is there to close). */
  #dismiss(reason: 'user' | 'api'): void {
    const asking = this.#token.answer === 'loading';
    if (!asking && !this.#watch.frame && !this.#window?.win) return;
    if (asking) this.#token.stop();
    this.#window?.close();
    // A result, once reached, stays: closing then only removes the form (the return page).
    const state = this.#state;
    const result = isResultStatus(state) ? state : null;
    this.#removeFrame();
    if (!result) {
      // Closed before a result: nothing awaits this attempt's verified status any more.
      this.#settle.stop();
      this.#setState('closed');
    }
    this.#emit('close', { reason, result });
  }

  #removeFrame(): void {
    const watch = this.#watch;
    if (!watch.frame) return;
    watch.clear();
    this.#focus.lost = true;
    // An iframe has no close(); a dialog's closes it if open (modal.ts), before it is removed.
    (this.#shown?.node as Partial<HTMLDialogElement> | undefined)?.close?.();
    this.requestUpdate();
  }

  #navigate(url: string): void {
    if (this.#emit('redirect', { url }, true)) {
      this.#setState('loading');
      location.assign(url);
    } else if (this.#state === 'loading') this.#setState('idle');
  }

  /** Reports a failure as pay-form-error, shown in the shopper's words unless cancelled; `keepResult`: a result reached stays the state. */
  #fail(code: ElementErrorCode, message: string, keepResult?: boolean): void {
    const state = this.#state;
    this.#setState(keepResult && isResultStatus(state) ? state : 'error');
    this.#window?.close();
    this.#focus.lost = true;
    if (this.#emit('error', { code, message }, true)) this.#error = code;
  }

  /** A result from the framed form or the payment window: the browser's word, dropped once the verified status came
   *  (pay-form-settled ends the attempt: docs/element.md, Events); else the verified one is awaited for at most
   *  settle-timeout, asked anew (the asking since the form opened has no limit). */
  #result(status: ResultStatus): void {
    if (this.#settle.settled) return;
    this.#setState(status);
    this.#emit(status, { status });
    this.#settle.stop();
    this.settle();
  }

  /** The popup display, made on first use (its module may load after the element). */
  #popup(): PopupDisplay | undefined {
    return (this.#window ??= PayForm.popup?.(this, (status) => (status ? this.#result(status) : this.#dismiss('user'))));
  }

  #setState(state: PayFormState): void {
    if (state === 'loading') this.#focus.before = document.activeElement; // to give focus back there
    this.setAttribute('state', (this.#state = state));
    this.requestUpdate();
  }

  /** Fires `pay-form-{name}`: every event is named after the tag, bubbles and is composed. */
  #emit<N extends EventSuffix>(name: N, detail: PayFormEventDetails[`pay-form-${N}`], cancelable?: boolean): boolean {
    return this.dispatchEvent(new CustomEvent(`pay-form-${name}`, { detail, bubbles: true, composed: true, cancelable }));
  }
}
