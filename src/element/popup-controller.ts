// The popup display (display="popup"), as a Lit reactive controller: the payment window opened inside
// the shopper's click, its neutral loading page, the panel that brings it back, the result message its
// return page posts to the opener, and its closing. It lives in a module of its own, registered on the
// element by popup.ts, so pages that never use a popup do not load it (docs/element.md, Popup display).
import type { ReactiveController } from '@lit/reactive-element';
import { element, say } from './pay-form.dom.js';
import { parseResult, type ResultStatus } from './result.js';
import { accepts, type FrameWatchHost } from './frame-watch-controller.js';
import { languageOf, textOf } from './language.js';
import { DEFAULT_TEXTS, POPUP_TEXTS, type PayFormTextKey, type PayFormTexts, type PopupTextKey } from './texts.js';

/** Tells the element of a result message from the window (from an accepted origin; the window is then
 *  closed), or, with none, that the shopper closed the window. One function: the element's bundle stays small. */
export type PopupReport = (status?: ResultStatus) => void;

/** What the element needs of the popup display (pay-form.ts holds it as `PayForm.popup`). */
export interface PopupDisplay {
  /** The payment window, while it is open. */
  readonly win?: Window | null;
  /** The popup display's words in English, for the keys the page's `texts` leaves out. */
  readonly texts: Readonly<Pick<PayFormTexts, PopupTextKey>>;
  /** Opens the window (or focuses the open one); only inside a click, synchronously. False when the browser blocked it. */
  open(): boolean;
  /** Sends the open window to the form. */
  show(url: string): void;
  /** Closes the window, reporting nothing. */
  close(): void;
}

/** The element: its display and state say whether the panel's button is on show, its texts name it, and its open() is the button's. */
export type PopupHost = FrameWatchHost & { display: string; state: string; language: string | null; texts: Partial<PayFormTexts> | null; open(): void; requestUpdate(): void };

/** How often the window is looked at: a cross-origin window fires nothing the opener hears when it closes. */
const CLOSED_POLL_MS = 500;
/** Big enough for the form, small enough to stay a window beside the page (`popup` asks for a minimal one). */
const FEATURES = 'popup,width=480,height=720';

export class PopupController implements ReactiveController, PopupDisplay {
  win?: Window | null;
  readonly texts = POPUP_TEXTS;
  #poll?: ReturnType<typeof setInterval>;
  #panel?: HTMLElement;
  readonly #host: PopupHost;
  readonly #on: PopupReport;

  constructor(host: PopupHost, on: PopupReport) {
    this.#host = host;
    this.#on = on;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('message', this);
  }

  hostUpdated(): void {
    // The panel: one button, in the shadow root after the live regions, named in the page's words.
    const button = (this.#panel ??= element('button', { part: 'popup-button', type: 'button' }));
    button.onclick = () => this.#host.open();
    say(button, this.#text('popup-focus'));
    // Nothing to open once paid (a declined payment may be tried again), nor in another display.
    button.hidden = this.#host.display !== 'popup' || this.#host.state === 'success';
    if (!button.isConnected) this.#host.shadowRoot?.append(button);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this);
    this.#panel?.remove();
    this.#panel = undefined;
    this.close();
  }

  open(): boolean {
    const open = this.win;
    if (open && !open.closed) {
      open.focus();
      return true;
    }
    // A blank window of this page's origin: its loading words are set as text, never parsed as HTML.
    // Not noopener: the return page reports to its opener, and the window is navigated from here.
    let win: Window | null = null;
    try {
      win = window.open('', '_blank', FEATURES);
    } catch {
      // Firefox throws where the others answer null: in a frame sandboxed without allow-popups.
    }
    if (!(this.win = win)) return false;
    const [text, lang] = this.#text('loading');
    win.document.title = text;
    win.document.documentElement.lang = lang;
    win.document.body?.replaceChildren(text);
    clearInterval(this.#poll);
    this.#poll = setInterval(() => {
      // The element closes it (close()) on hearing it closed.
      if (win.closed && this.win === win) this.#on();
    }, CLOSED_POLL_MS);
    return true;
  }

  show(url: string): void {
    this.win?.location.replace(url);
  }

  close(): void {
    clearInterval(this.#poll);
    const win = this.win;
    this.win = null;
    if (!win) return;
    win.close();
    // A close() that lands while the window's cross-origin navigation to the form commits can be lost
    // (Chromium, rarely): looked at once more a moment later, and closed again if it is still open.
    setTimeout(() => win.closed || win.close(), CLOSED_POLL_MS);
  }

  handleEvent(event: MessageEvent): void {
    const win = this.win;
    if (!win || event.source !== win || !accepts(this.#host.allowedOrigins, event.origin)) return;
    const message = parseResult(event.data);
    if (!message) return;
    this.close();
    this.#on(message.status);
  }

  /** The page's word for `key`, else its language's, else the English default, with the language it is in. */
  #text(key: PayFormTextKey): [string, string] {
    return textOf(this.#host, key, languageOf(this.#host), DEFAULT_TEXTS);
  }
}
