// Watches the framed form as a Lit reactive controller: the result message from the return page,
// the page's Content-Security-Policy blocking the frame, the load time limit, and whether the service
// can be reached at all. The listeners live on window and document only while the host is connected.
import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import { httpOrigin } from '../service/form-url.js';
import { parseResult, type ResultStatus } from './result.js';

/** One framed form: a new id per open, so a late event of an old frame is never taken for the new one. */
export interface Frame {
  id: number;
  url: string;
  /** The form URL's origin, known from the base URL's check. */
  origin: string;
  display: 'inline' | 'modal';
  ready: boolean;
  result: boolean;
}

export interface FrameWatchDelegate {
  /** The frame on show, or null. */
  frame(): Frame | null;
  /** The window inside the element's iframe, the only source a result may come from. */
  frameWindow(): Window | null;
  /** The origins whose result messages are accepted. */
  acceptedOrigins(): Set<string>;
  result(frame: Frame, status: ResultStatus): void;
  blocked(frame: Frame, message: string): void;
  loadTimeout(frame: Frame, ms: number): void;
  /** The service's origin refused the connection or could not be resolved. */
  unreachable(frame: Frame): void;
}

const FRAME_DIRECTIVE = /^(frame|child|default)-src$/;

export class FrameWatchController implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #delegate: FrameWatchDelegate;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The frame whose reachability check starts once it is rendered, so the form's request goes first. */
  #toProbe: Frame | null = null;
  #probe: AbortController | undefined;
  #connectBlocked = false;

  constructor(host: ReactiveControllerHost & HTMLElement, delegate: FrameWatchDelegate) {
    this.#host = host;
    this.#delegate = delegate;
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

  hostUpdated(): void {
    const frame = this.#toProbe;
    this.#toProbe = null;
    if (frame !== null && this.#delegate.frame() === frame) this.#probeService(frame);
  }

  /** Starts the load time limit for a new frame, and its reachability check after it renders. */
  watch(frame: Frame, ms: number): void {
    this.stop();
    this.#toProbe = frame;
    this.#timer = setTimeout(() => {
      if (this.#delegate.frame() !== frame || frame.ready || frame.result) return;
      this.stop();
      this.#delegate.loadTimeout(frame, ms);
    }, ms);
  }

  /** The frame fired load: true the first time only, since later loads are the form navigating on. */
  loaded(frame: Frame): boolean {
    if (this.#delegate.frame() !== frame || frame.ready) return false;
    frame.ready = true;
    // Only the timer: Chromium fires load for its own error page too, so the check goes on.
    clearTimeout(this.#timer);
    return true;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#probe?.abort();
    this.#probe = undefined;
    this.#toProbe = null;
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
        if (probe.signal.aborted || this.#connectBlocked || this.#delegate.frame() !== frame || frame.result) return;
        this.stop();
        this.#delegate.unreachable(frame);
      }, 0);
    });
  }

  #onMessage = (event: MessageEvent): void => {
    const frame = this.#delegate.frame();
    if (frame === null || frame.result) return;
    const source = this.#delegate.frameWindow();
    if (source === null || event.source === null || event.source !== source) return;
    if (!this.#delegate.acceptedOrigins().has(event.origin)) return;
    const message = parseResult(event.data);
    if (message === null) return;
    frame.result = true;
    this.stop();
    this.#delegate.result(frame, message.status);
  };

  #onCspViolation = (event: SecurityPolicyViolationEvent): void => {
    const frame = this.#delegate.frame();
    if (frame !== null && event.effectiveDirective === 'connect-src' && httpOrigin(event.blockedURI) === frame.origin) {
      this.#connectBlocked = true;
    }
    if (frame === null || frame.ready || !FRAME_DIRECTIVE.test(event.effectiveDirective)) return;
    if (httpOrigin(event.blockedURI) !== frame.origin) return;
    // With several elements framing the same origin, the event's path names the one that was blocked.
    const host = this.#host;
    const path = event.composedPath();
    if (!path.includes(host) && path.some((node) => node instanceof HTMLElement && node.localName === host.localName)) return;
    this.stop();
    this.#delegate.blocked(
      frame,
      `the page's CSP (${event.violatedDirective}) blocked the payment form: add ${frame.origin} to frame-src`,
    );
  };
}

/** The page's own origin and the valid http(s) origins in allowed-origins (space-separated). */
export function acceptedOrigins(allowed: string | null): Set<string> {
  const origins = new Set([window.location.origin]);
  for (const entry of (allowed ?? '').split(/\s+/)) {
    const origin = entry === '' ? null : httpOrigin(entry);
    if (origin !== null) origins.add(origin);
  }
  return origins;
}
