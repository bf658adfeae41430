// Watches the framed form as a Lit reactive controller: its iframe's load (the controller makes the
// iframe), the result message from the return page, the page's Content-Security-Policy blocking the
// frame, the load time limit, and whether the service can be reached at all. The listeners live on
// window and document only while the host is connected.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { httpOrigin } from '../service/form-url.js';
import { createFrame } from './pay-form.dom.js';
import { parseResult, type ResultStatus } from './result.js';

/** One framed form: a new object per open, so a late event of an old frame is never taken for the new one. */
export interface Frame {
  url: string;
  /** The form URL's origin, known from the base URL's check. */
  origin: string;
  display: 'inline' | 'modal';
  /** Its iframe, made by watch(): once in the document, its window is the only source a result may come from. */
  iframe: HTMLIFrameElement;
  /** What holds the iframe in the host's shadow root, set by the host: the iframe itself inline, the dialog in a modal. */
  node?: HTMLElement;
  /** The reachability check: settles when it has answered, or had no answer in time. */
  reached?: Promise<unknown>;
  /** A result message came from it. */
  hasResult?: boolean;
  /** Reported ready: it loaded, not about:blank, and the service answered (or a result came, which says as much). */
  shown?: boolean;
  /** Its load time limit and checks, cleared when it goes, so a removed frame is not kept until they fire. */
  timers: ReturnType<typeof setTimeout>[];
}

export type FrameErrorCode = 'csp-blocked' | 'load-timeout' | 'service-unreachable';

export interface FrameWatchCallbacks {
  /** A result message came from the frame's window, from an accepted origin. */
  resulted(status: ResultStatus): void;
  /** The frame loaded and the service answers: what it shows is the form. */
  ready(frame: Frame): void;
  /** The frame will not show the form: the page's CSP blocked it, it did not load in time, or the service is unreachable. */
  failed(frame: Frame, code: FrameErrorCode, message: string): void;
}

/** The host: an element whose allowed-origins names the origins, besides the page's, that results may come from. */
export type FrameWatchHost = ReactiveControllerHost & HTMLElement & { allowedOrigins: string | null };

const FRAME_DIRECTIVE = /^(frame|child|default)-src$/;
/** A check still unanswered after this means something took the connection: the frame is ready. */
const CHECK_WAIT_MS = 1000;

/**
 * Every check is tied to its frame object and does nothing once that frame is no longer on show or
 * has its result, so nothing needs cancelling when the host removes a frame or shows a new one.
 */
/** Only the controller writes its frame (watch and clear); to everyone else it is read-only. */
type Writable = { frame: Frame | null };

export class FrameWatchController implements ReactiveController {
  /** The frame on show, or none (unset until the first): set by watch(), and by clear() when the host
   *  removes it. Fields start unset rather than set, for the bundle's size. */
  declare readonly frame?: Frame | null;
  readonly #host: FrameWatchHost;
  readonly #on: FrameWatchCallbacks;
  /** The page's CSP blocked the reachability check of the frame on show, so its failure says nothing. */
  #blind?: boolean;

  constructor(host: FrameWatchHost, on: FrameWatchCallbacks) {
    this.#host = host;
    this.#on = on;
    host.addController(this);
  }

  hostConnected(): void {
    addEventListener('message', this);
    document.addEventListener('securitypolicyviolation', this);
  }

  hostDisconnected(): void {
    removeEventListener('message', this);
    document.removeEventListener('securitypolicyviolation', this);
  }

  /** The host removed the frame: its late loads, checks and messages now find it no longer on show. */
  clear(): void {
    this.frame?.timers.forEach(clearTimeout);
    (this as Writable).frame = null;
  }

  /**
   * Shows a new frame: makes its iframe (for the host to insert), starts its load time limit, and the
   * reachability check for a frame that has not loaded within CHECK_WAIT_MS (Firefox and WebKit fire
   * no load for a closed port or an unknown host).
   */
  watch(form: Pick<Frame, 'url' | 'origin' | 'display'>, ms: number): void {
    const frame = form as Frame;
    (this as Writable).frame = frame;
    // Loaded, it is ready once the check has answered. A frame the page's CSP blocked holds an empty
    // about:blank, which WebKit reports loaded (during the insertion) before the violation: that is not
    // the form (a cross-origin form's document is not readable at all).
    const iframe = (frame.iframe = createFrame(frame.url, () => {
      if (this.frame === frame && iframe.contentDocument?.URL !== 'about:blank') void this.#reach(frame).then(() => this.#ready(frame));
    }));
    this.#blind = false;
    frame.timers = [
      setTimeout(() => frame.shown || this.#check(frame, 'load-timeout', `form not loaded in ${ms} ms`), ms),
      setTimeout(() => this.frame === frame && this.#reach(frame), CHECK_WAIT_MS),
    ];
  }

  /**
   * The reachability check, started once per frame: at its load, or CHECK_WAIT_MS after it was shown,
   * whichever comes first; not earlier, so that it never competes with the form's own request
   * (docs/performance.md). A frame at a closed port or an unknown host shows the browser's error page,
   * which Chromium reports loaded, so the frame cannot tell. A no-cors HEAD to the service's origin
   * (not the form: the key is never sent twice) fails only when nothing answers; any HTTP answer, even
   * an opaque 404, means reachable. A page whose CSP connect-src leaves out the service makes the check
   * fail too: that violation marks the check as blind, and it counts as answered (docs/element.md,
   * Error codes), as does a check with no answer within CHECK_WAIT_MS.
   */
  #reach(frame: Frame): Promise<unknown> {
    return (frame.reached ??= new Promise<void | Response>((reached) => {
      let failed = false;
      frame.timers.push(setTimeout(() => failed || reached(), CHECK_WAIT_MS));
      const init: RequestInit = { method: 'HEAD', mode: 'no-cors', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' };
      fetch(`${frame.origin}/`, init).then(reached, () => {
        // The CSP violation event is queued near the rejection, but a busy Firefox dispatches it later
        // than the next task: it gets as long as the check did before an unreachable service is said,
        // and meanwhile the check is not taken as answered (the frame is not ready).
        failed = true;
        frame.timers.push(setTimeout(() => (this.#blind ? reached() : this.#check(frame, 'service-unreachable', `${frame.origin} is unreachable`)), CHECK_WAIT_MS));
      });
    }));
  }

  /** Reports the frame on show ready, once. */
  #ready(frame: Frame): void {
    if (this.frame !== frame || frame.shown) return;
    frame.shown = true;
    this.#on.ready(frame);
  }

  /** Reports a failure of the frame on show, unless a result has come. */
  #check(frame: Frame, code: FrameErrorCode, message: string): void {
    if (this.frame === frame && !frame.hasResult) this.#on.failed(frame, code, message);
  }

  handleEvent(event: Event): void {
    const frame = this.frame;
    if (!frame) return;
    if (event instanceof MessageEvent) {
      const source = frame.iframe.contentWindow;
      if (frame.hasResult || source == null || event.source !== source || !accepts(this.#host.allowedOrigins, event.origin)) return;
      const message = parseResult(event.data);
      if (message === null) return;
      // A page of the service's flow posted it, so the form was there: ready comes first, even when
      // the frame has fired no load (a page that navigates at once never does).
      this.#ready(frame);
      frame.hasResult = true;
      return this.#on.resulted(message.status);
    }
    const { effectiveDirective, blockedURI } = event as SecurityPolicyViolationEvent;
    if (httpOrigin(blockedURI) !== frame.origin) return;
    if (effectiveDirective === 'connect-src') this.#blind = true;
    if (frame.shown || !FRAME_DIRECTIVE.test(effectiveDirective)) return;
    // Every engine dispatches a frame-src violation at the document, not at the blocked iframe: the
    // origin is what ties it to a frame.
    this.#check(frame, 'csp-blocked', `CSP ${effectiveDirective} blocked ${frame.origin}: add it to frame-src`);
  }
}

/** Whether a result may come from `origin`: the page's own, or one of the http(s) origins in allowed-origins (space-separated). */
export function accepts(allowed: string | null, origin: string): boolean {
  // httpOrigin never returns the empty entries of the split, nor anything else that is not an origin.
  return origin === location.origin || (allowed ?? '').split(/\s+/).some((entry) => httpOrigin(entry) === origin);
}
