// Watches the framed form as a Lit reactive controller: the result message from the return page,
// the page's Content-Security-Policy blocking the frame, the load time limit, and whether the service
// can be reached at all. The listeners live on window and document only while the host is connected.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { httpOrigin } from '../service/form-url.js';
import { parseResult, type ResultStatus } from './result.js';

/** One framed form: a new object per open, so a late event of an old frame is never taken for the new one. */
export interface Frame {
  url: string;
  /** The form URL's origin, known from the base URL's check. */
  origin: string;
  display: 'inline' | 'modal';
  ready: boolean;
  result: boolean;
}

export type FrameErrorCode = 'csp-blocked' | 'load-timeout' | 'service-unreachable';

export interface FrameWatchCallbacks {
  /** A result message came from the frame's window, from an accepted origin. */
  result(status: ResultStatus): void;
  /** The frame will not show the form: the page's CSP blocked it, it did not load in time, or the service is unreachable. */
  failed(frame: Frame, code: FrameErrorCode, message: string): void;
}

/** The host: an element whose allowed-origins names the origins, besides the page's, that results may come from. */
export type FrameWatchHost = ReactiveControllerHost & HTMLElement & { allowedOrigins: string | null };

const FRAME_DIRECTIVE = /^(frame|child|default)-src$/;

export class FrameWatchController implements ReactiveController {
  /** The frame on show, or null: set by watch(), set back to null by the host when it removes the frame. */
  frame: Frame | null = null;
  readonly #host: FrameWatchHost;
  readonly #on: FrameWatchCallbacks;
  /** The frame's iframe once in the document: its window is the only source a result may come from. */
  #iframe: HTMLIFrameElement | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #probe: AbortController | undefined;
  #connectBlocked = false;

  constructor(host: FrameWatchHost, on: FrameWatchCallbacks) {
    this.#host = host;
    this.#on = on;
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('message', this.#onMessage);
    document.addEventListener('securitypolicyviolation', this.#onCspViolation);
  }

  hostDisconnected(): void {
    window.removeEventListener('message', this.#onMessage);
    document.removeEventListener('securitypolicyviolation', this.#onCspViolation);
    this.stop();
  }

  /** Shows a new frame: starts its load time limit; its reachability check waits until it is in the document. */
  watch(frame: Frame, ms: number): void {
    this.stop();
    this.frame = frame;
    this.#iframe = null;
    this.#timer = setTimeout(() => {
      if (this.frame === frame && !frame.ready && !frame.result) this.#fail(frame, 'load-timeout', `the form did not load in ${ms} ms`);
    }, ms);
  }

  /** The frame's iframe is in the document (so the form's request went first): check that the service answers. */
  shown(frame: Frame, iframe: HTMLIFrameElement): void {
    this.#iframe = iframe;
    this.#probeService(frame);
  }

  /** The frame fired load: true the first time only, since later loads are the form navigating on. */
  loaded(frame: Frame): boolean {
    if (this.frame !== frame || frame.ready) return false;
    frame.ready = true;
    // Only the timer: Chromium fires load for its own error page too, so the check goes on.
    clearTimeout(this.#timer);
    return true;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#probe?.abort();
    this.#probe = undefined;
  }

  #fail(frame: Frame, code: FrameErrorCode, message: string): void {
    this.stop();
    this.#on.failed(frame, code, message);
  }

  /**
   * A frame at a closed port or an unknown host shows the browser's error page and fires load, so
   * the frame cannot tell. A no-cors HEAD to the service's origin (not the form: the key is never
   * sent twice) fails only when nothing answers; any HTTP answer, even an opaque 404, means reachable.
   * A page whose CSP connect-src leaves out the service makes the check fail too: that violation
   * marks the check as blind and nothing is reported (docs/element.md, Error codes).
   */
  #probeService(frame: Frame): void {
    const probe = new AbortController();
    this.#probe = probe;
    this.#connectBlocked = false;
    const init: RequestInit = { method: 'HEAD', mode: 'no-cors', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer', signal: probe.signal };
    fetch(`${frame.origin}/`, init).catch(() => {
      // The CSP violation event is queued before the rejection settles: look after it has run.
      setTimeout(() => {
        if (probe.signal.aborted || this.#connectBlocked || this.frame !== frame || frame.result) return;
        this.#fail(frame, 'service-unreachable', `${frame.origin} is unreachable`);
      }, 0);
    });
  }

  #onMessage = (event: MessageEvent): void => {
    const frame = this.frame;
    const source = this.#iframe?.contentWindow;
    if (frame === null || frame.result || source == null || event.source !== source) return;
    if (!accepts(this.#host.allowedOrigins, event.origin)) return;
    const message = parseResult(event.data);
    if (message === null) return;
    frame.result = true;
    this.stop();
    this.#on.result(message.status);
  };

  #onCspViolation = (event: SecurityPolicyViolationEvent): void => {
    const frame = this.frame;
    const directive = event.effectiveDirective;
    if (frame === null || httpOrigin(event.blockedURI) !== frame.origin) return;
    if (directive === 'connect-src') this.#connectBlocked = true;
    if (frame.ready || !FRAME_DIRECTIVE.test(directive)) return;
    // With several elements framing the same origin, the event's path names the one that was blocked.
    const host = this.#host;
    const path = event.composedPath();
    if (!path.includes(host) && path.some((node) => node instanceof HTMLElement && node.localName === host.localName)) return;
    this.#fail(frame, 'csp-blocked', `CSP ${event.violatedDirective} blocked ${frame.origin}: add it to frame-src`);
  };
}

/** Whether a result may come from `origin`: the page's own, or one of the http(s) origins in allowed-origins (space-separated). */
function accepts(allowed: string | null, origin: string): boolean {
  // httpOrigin never returns the empty entries of the split, nor anything else that is not an origin.
  return origin === window.location.origin || (allowed ?? '').split(/\s+/).some((entry) => httpOrigin(entry) === origin);
}
