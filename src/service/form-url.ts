// Pure checks for every address pay-form frames, navigates to or sends a request to: the element's
// base URL, key and redirect URL, and the server's base URL, success_url and fail_url all pass the one
// http(s) rule here. Expected refusals come back as values, not exceptions, so the element can turn
// each one into a pay-form-error with its code and the server into a typed error.
import type { UrlErrorCode } from './error-codes.js';
import { OPEN_FORM_PATH, encodeKeySegment } from './paths.js';

export { OPEN_FORM_PATH, encodeKeySegment } from './paths.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; code: UrlErrorCode; message: string };

/** The longest key the element accepts, in UTF-16 code units (String#length). */
export const MAX_KEY_LENGTH = 1024;

// \s covers Unicode white space (incl. U+2028/9, U+FEFF), \p{Cc} the C0/C1 controls and DEL.
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

const refuse = <T>(code: UrlErrorCode, message: string): Checked<T> => ({ ok: false, code, message });
const NOT_A_STRING = 'must be a string';
const HTTP = /^https?:$/;
const HOLDS_WHITESPACE = 'has white space or control characters';

/** `localhost`, 127.0.0.0/8 and [::1]: the only hosts where plain http cannot be intercepted on the wire. */
export function isLoopbackHost(hostname: string): boolean {
  // The URL parser has already normalised IPv4 forms (127.1, 0x7f.1 ...) to dotted decimal.
  return /^(localhost|\[::1\]|127(\.\d{1,3}){3})$/.test(hostname);
}

/**
 * An absolute http(s) URL without credentials, plain http only for loopback hosts, that also passes
 * `rule` when given (its answer is the problem, or false). Returns the parsed URL; `javascript:`,
 * `data:`, relative and unparsable strings are refused.
 */
export function checkHttpUrl(raw: unknown, code: UrlErrorCode, what: string, rule?: (url: URL) => string | false): Checked<URL> {
  let url: URL | undefined;
  try {
    url = new URL(raw as string);
  } catch {}
  // The URL parser strips leading/trailing C0 and space and drops tabs and newlines anywhere, so a raw
  // string can differ from what it parses to; refusing them keeps header and log injection out.
  const problem =
    typeof raw !== 'string'
      ? NOT_A_STRING
      : WHITESPACE_OR_CONTROL.test(raw)
        ? HOLDS_WHITESPACE
        : !url
          ? 'is not absolute'
          : !HTTP.test(url.protocol)
            ? `is ${url.protocol}, not https`
            : url.username || url.password
              ? 'carries credentials'
              : url.protocol === 'http:' && !isLoopbackHost(url.hostname)
                ? `is http to ${url.hostname}, not loopback`
                : rule?.(url);
  return problem ? refuse(code, `${what} ${problem}`) : { ok: true, value: url as URL };
}

/** A checked base address: `value` normalised without a trailing slash, `origin` its origin. */
export interface BaseUrl {
  value: string;
  origin: string;
}

/** The service's base address, parsed once: its normalised value and its origin, or the refusal. */
export function parseBaseUrl(raw: unknown): Checked<BaseUrl> {
  const checked = checkHttpUrl(raw, 'invalid-base-url', 'base-url', (url) =>
    // The form path is appended to the base path: a query or fragment would end up in front of it.
    // Node 20's URL parser can leave a dot segment in a parsed path ("/a/.~/." stays) that a later parse
    // of the form URL removes, moving the form out of its path. A correct parser never leaves one, so
    // any that remains is refused here, with the base URL's code.
    url.search || url.hash ? 'has a query or fragment' : /\/(\.|%2e){1,2}(\/|$)/i.test(url.pathname) && 'has a dot segment',
  );
  if (!checked.ok) return checked;
  const { origin, pathname } = checked.value;
  return { ok: true, value: { value: `${origin}${pathname.replace(/\/+$/, '')}`, origin } };
}

/**
 * Where to frame a token answer's key: the page's base-url (`base`, null when unset), else the answer's
 * `base_url` (createTokenHandler sends it as parseBaseUrl writes it, so it compares as it is); both, and
 * different, is `base-url-mismatch`: the page never frames an address the shop did not make the key for.
 */
export function baseFor(base: Checked<BaseUrl> | null, told: string | undefined): Checked<BaseUrl> | null {
  return told == null ? base : !base ? parseBaseUrl(told) : base.ok && base.value.value != told ? refuse('base-url-mismatch', told) : base;
}

/** The service's base address, normalised without a trailing slash and with its own path kept. */
export function checkBaseUrl(raw: unknown): Checked<string> {
  const checked = parseBaseUrl(raw);
  return checked.ok ? { ok: true, value: checked.value.value } : checked;
}

/** Where the element may send the whole page: the normalised href of an allowed URL. */
export function checkRedirectUrl(raw: unknown): Checked<string> {
  const checked = checkHttpUrl(raw, 'invalid-redirect-url', 'redirect-url');
  return checked.ok ? { ok: true, value: checked.value.href } : checked;
}

/**
 * Whether a string holds no lone surrogate (encodeURIComponent throws on one). isWellFormed where the
 * engine has it: JavaScriptCore's /\p{Cs}/u misses a lead surrogate before some characters ("\uD800\uFF0E").
 * Read code point by code point (the u flag), a surrogate pair is one character; only a lone surrogate is Cs.
 */
const wellFormed = (s: string & { isWellFormed?(): boolean }): boolean => s.isWellFormed?.() ?? !/\p{Cs}/u.test(s);

/** A key from obtain_token, refused when it could not be one path segment of the form URL. */
export function checkKey(raw: unknown): Checked<string> {
  const problem =
    typeof raw !== 'string'
      ? NOT_A_STRING
      : /^\.{0,2}$/.test(raw)
        ? 'is empty, "." or ".."'
        : raw.length > MAX_KEY_LENGTH
          ? `is over ${MAX_KEY_LENGTH} characters`
          : WHITESPACE_OR_CONTROL.test(raw)
            ? HOLDS_WHITESPACE
            : !wellFormed(raw) && 'is not well-formed Unicode';
  return problem ? refuse('invalid-key', `key ${problem}`) : { ok: true, value: raw as string };
}

/** `{base}/api/jsapi/open/{key}/`, or the refusal of the base URL or the key. */
export function openFormUrl(base: unknown, key: unknown): Checked<string> {
  const checkedBase = parseBaseUrl(base);
  return checkedBase.ok ? formUrlAt(checkedBase.value, key) : checkedBase;
}

/** The open-form URL under a base already checked by parseBaseUrl, or the key's refusal. */
export function formUrlAt(base: BaseUrl, key: unknown): Checked<string> {
  const checkedKey = checkKey(key);
  if (!checkedKey.ok) return checkedKey;
  // openFormPath's text, written here with the key itself (checkKey passes it as it is, a string), so the
  // bundles' minifier writes it in place: through openFormPath it kept a function wrapper (-9 / -10 B of gzip).
  const expected = `${base.value}${OPEN_FORM_PATH}${encodeKeySegment(key as string)}/`;
  // A belt to the braces above: the parser must give back exactly `{base}/api/jsapi/open/{key}/`
  // (which starts with the open-form path), whatever it would otherwise have made of it.
  return new URL(expected).href === expected ? { ok: true, value: expected } : refuse('invalid-key', 'key leaves the open-form path');
}

/** The origin of an absolute http(s) URL, or null for anything else (including "*" and opaque origins). */
export function httpOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (HTTP.test(url.protocol)) return url.origin;
  } catch {}
  return null;
}
