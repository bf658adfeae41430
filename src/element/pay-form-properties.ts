// The element's inputs: every attribute and property with its default. PayForm (pay-form.ts) adds the
// decisions and rendering on top. The attributes are documented here, where they are declared.
import { ReactiveElement, type PropertyDeclarations } from '@lit/reactive-element';
import type { PayFormDisplay, PayFormFallback } from './events.js';
import type { FetchToken } from './token-controller.js';
import { ELEMENT_TEXTS, type PayFormTexts } from './texts.js';
import { DEFAULT_SETTLE_TIMEOUT, MAX_TIMER_MS } from './settle-controller.js';

export const DEFAULT_LOAD_TIMEOUT = 15000;
export const DEFAULT_FRAME_TITLE = ELEMENT_TEXTS.title;
export { DEFAULT_SETTLE_TIMEOUT };

/** A time limit from its attribute: the value when it is a finite number of at least 0, else the default. */
export function timeLimit(value: number, fallback: number): number {
  // Past 2^31 - 1 ms a timer fires at once: a longer limit waits as long as a timer can.
  return Number.isFinite(value) && value >= 0 ? Math.min(value, MAX_TIMER_MS) : fallback;
}

/**
 * Every property, one row each: the type its attribute converts to (none: no attribute) and its
 * default (none: null). The attribute's name is the property's in kebab case (`baseUrl` is `base-url`).
 */
const PROPERTIES: Record<string, [type?: StringConstructor | NumberConstructor | BooleanConstructor | ObjectConstructor, value?: unknown]> = {
  baseUrl: [String],
  key: [String],
  redirectUrl: [String],
  display: [String, 'inline'],
  tokenUrl: [String],
  orderRef: [String],
  loadTimeout: [Number, DEFAULT_LOAD_TIMEOUT],
  redirectOnTimeout: [Boolean, false],
  fallback: [String],
  allowedOrigins: [String],
  frameSandbox: [String],
  frameTitle: [String, DEFAULT_FRAME_TITLE],
  statusUrl: [String],
  settleTimeout: [Number, DEFAULT_SETTLE_TIMEOUT],
  awaitSettled: [Boolean, false],
  texts: [Object],
  language: [String],
  fetchToken: [],
};

/** Properties whose change means "a different form": the element decides again what to show. A change of either of the last two drops the token asked for. */
export const INPUTS = ['baseUrl', 'key', 'redirectUrl', 'display', 'tokenUrl', 'fetchToken'] as const;
export const TOKEN_SOURCES = INPUTS.slice(4);
/** Properties whose change means another order's status, with `await-settled`: it is asked for again. */
export const SETTLE_INPUTS = ['statusUrl', 'orderRef', 'awaitSettled'] as const;

/** `baseUrl` to `base-url`; custom-elements-manifest.config.mjs derives each attribute's property back. */
const attributeOf = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * The attributes of `<pay-form>` (docs/element.md, Attributes and properties).
 *
 * @attr base-url - The service's base address: absolute http(s); plain http only for loopback hosts.
 * @attr key - The key from obtain_token; the form opens at `{base-url}/api/jsapi/open/{key}/`.
 * @attr redirect-url - When set, the page is sent there (after `pay-form-redirect`) instead of framing the form.
 * @attr display - `inline` (default), `modal` or `redirect`.
 * @attr token-url - The merchant's own endpoint, POSTed `{"order_ref": ...}` once when there is no key and no redirect URL.
 * @attr order-ref - The merchant's order reference sent to token-url (and passed to fetchToken).
 * @attr load-timeout - Milliseconds to wait for the form to load before `pay-form-error` `load-timeout`, and for a token answer before `token-request-failed`; default 15000.
 * @attr redirect-on-timeout - Boolean: `fallback="redirect"` by its older name (unless `fallback` is `popup`).
 * @attr fallback - When the form cannot be framed (a load timeout, an unreachable service, the page's CSP): `redirect` sends the page to the same form URL (through `pay-form-redirect`), `popup` offers the popup display's button; none (the default) leaves the error on show.
 * @attr allowed-origins - Space-separated origins, besides the page's own, whose result messages are accepted.
 * @attr frame-sandbox - The iframe's `sandbox` attribute; absent unless set here.
 * @attr frame-title - The iframe's title (its accessible name); default "Payment form".
 * @attr status-url - The merchant's status endpoint, same origin as the page: from the moment the form is shown (or, with `await-settled`, at once) it is asked for the verified status of `order-ref`'s attempt, and `pay-form-settled` fires, with or without a return page's result.
 * @attr settle-timeout - Milliseconds to wait for the verified status after a result (or from `settle()`/`await-settled`) before `pay-form-error` `settle-timeout`; default 60000.
 * @attr await-settled - Boolean, for the return page of a redirect flow: ask `status-url` as soon as it and `order-ref` are set, without a framed result.
 * @attr texts - JSON: the words the element shows and announces, by key (`loading`, `success`, `fail`, `close`, `title`, or an error code), in place of those of its language.
 * @attr language - A BCP 47 tag (`ru`, `de-AT`): the element's language and the form's, in place of the page's `lang`.
 * @attr state - Reflected, read-only: `idle`, `loading`, `open`, `success`, `fail`, `closed` or `error`.
 */
export class PayFormProperties extends ReactiveElement {
  static override properties: PropertyDeclarations = Object.fromEntries(
    Object.entries(PROPERTIES).map(([name, [type]]) => [name, type ? { type, attribute: attributeOf(name) } : { attribute: false }]),
  );

  /** @default null */
  declare baseUrl: string | null;
  /** @default null */
  declare key: string | null;
  /** @default null */
  declare redirectUrl: string | null;
  /**
   * `inline`, `modal` or `redirect`; any other value is treated as `inline`.
   * @default 'inline'
   */
  declare display: PayFormDisplay;
  /** @default null */
  declare tokenUrl: string | null;
  /** @default null */
  declare orderRef: string | null;
  /** @default 15000 */
  declare loadTimeout: number;
  /** @default false */
  declare redirectOnTimeout: boolean;
  /**
   * `redirect` or `popup`: what to do, after `pay-form-error`, when the form cannot be framed (docs/element.md,
   * Fallback); any other value, or none, leaves the error on show.
   * @default null
   */
  declare fallback: PayFormFallback | null;
  /** @default null */
  declare allowedOrigins: string | null;
  /** @default null */
  declare frameSandbox: string | null;
  /** @default 'Payment form' */
  declare frameTitle: string;
  /** @default null */
  declare statusUrl: string | null;
  /** @default 60000 */
  declare settleTimeout: number;
  /** @default false */
  declare awaitSettled: boolean;
  /**
   * The words the element shows and announces (docs/element.md, Language), by key: any key left out
   * keeps its text in the element's language (else English, `DEFAULT_TEXTS`); a value that is not a string is English.
   * @default null
   */
  declare texts: Partial<PayFormTexts> | null;
  /**
   * The language of the element's words and of the form (docs/element.md, Language), a BCP 47 tag; null
   * (the default) follows the page: the element's `lang` or its nearest ancestor's, else the browser's.
   * @default null
   */
  declare language: string | null;
  /**
   * For SPAs: used instead of token-url when set; resolves to `{ key }` or `{ redirect_url }`.
   * @default null
   */
  declare fetchToken: FetchToken | null;

  constructor() {
    super();
    for (const [name, [, value = null]] of Object.entries(PROPERTIES)) (this as unknown as Record<string, unknown>)[name] = value;
  }
}
