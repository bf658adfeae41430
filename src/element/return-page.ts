// The `pay-form/return` entry: what a merchant's success_url / fail_url page calls so the framing
// <pay-form> learns the result. Nothing here runs at import time, so importing it in Node is safe.
import { httpOrigin } from '../service/form-url.js';
import { ConfigError } from '../service/errors.js';
import { buildResult, isResultStatus, type ResultStatus } from './result.js';

export { RESULT_MESSAGE_TYPE, buildResult, parseResult, isResultStatus } from './result.js';
export type { ResultMessage, ResultStatus } from './result.js';

export interface ReportOptions {
  /** The window to report from; defaults to the global window. */
  window?: Window;
  /**
   * Where the framing page lives when it is not this page's origin (it must list this page's origin
   * in its allowed-origins). Must be an http(s) origin; "*" is refused so a result never leaks to a
   * page that is not the merchant's.
   */
  targetOrigin?: string;
}

/**
 * Posts `{ type: 'pay-form:result', status }` to the parent window (or, in the payment window of
 * `display="popup"`, to its opener), addressed to this page's own origin (or `options.targetOrigin`).
 * Returns false, doing nothing, when the page is neither framed nor opened by a page.
 */
export function reportResult(status: ResultStatus, options: ReportOptions = {}): boolean {
  const message = buildResult(status);
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  const to: Window | null | undefined = win && (isFramed(win) ? win.parent : win.opener);
  if (!win || !to) return false;
  const target = options.targetOrigin === undefined ? httpOrigin(win.location.href) : httpOrigin(options.targetOrigin);
  if (target === null) {
    throw new ConfigError([{ path: 'targetOrigin', message: 'must be an http(s) origin, never "*"' }], 'reportResult');
  }
  to.postMessage(message, target);
  return true;
}

/** The `status` query parameter of a return page's URL, when it is "success" or "fail". */
export function statusFromUrl(href?: string): ResultStatus | null {
  const source = href ?? (typeof location === 'undefined' ? undefined : location.href);
  if (source === undefined) return null;
  let status: string | null;
  try {
    status = new URL(source).searchParams.get('status');
  } catch {
    return null;
  }
  return isResultStatus(status) ? status : null;
}

/** Whether this page runs inside a frame (the element's iframe) rather than at the top level. */
export function isFramed(win?: Window): boolean {
  const w = win ?? (typeof window === 'undefined' ? undefined : window);
  return w !== undefined && w.parent !== w;
}

export interface ReturnOutcome {
  /** The result from the URL's `status`, or null when it is missing or unknown. */
  status: ResultStatus | null;
  /** True when the page is framed (by <pay-form>), false at the top level (a payment window too). */
  framed: boolean;
  /** True when the result was posted to the framing page, or to the page that opened the payment window. */
  reported: boolean;
}

/**
 * What a return page does on load: read `status` from its URL and, when framed or in a payment window,
 * report it to the element. At the top level of its own tab nothing is posted and the page shows the
 * result itself.
 */
export function completeReturn(options: ReportOptions = {}): ReturnOutcome {
  const win = options.window ?? (typeof window === 'undefined' ? undefined : window);
  if (win === undefined) return { status: null, framed: false, reported: false };
  const status = statusFromUrl(win.location.href);
  const framed = isFramed(win);
  const reported = status !== null ? reportResult(status, { ...options, window: win }) : false;
  return { status, framed, reported };
}
