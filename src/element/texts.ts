// The words the element shows and announces, keyed by what they are for, in English: the other
// languages are in languages/, and a page replaces any text with the `texts` property (or attribute,
// as JSON) (docs/element.md, Language). They speak to the shopper: the error code and the developer's
// message stay in the event's detail and are never shown.
import type { ElementErrorCode } from '../service/error-codes.js';

/**
 * A status (`loading`, `success`, `fail`, `offline` while a status wait waits for the network, and `popup`
 * while the payment window is open), the modal's Close button's accessible name (`close`), the form's
 * default accessible name (`title`, in place of the default `frame-title`), the popup display's button
 * (`popup-focus`), or an error in the shopper's words, one per error code.
 */
export type PayFormTextKey = 'loading' | 'success' | 'fail' | 'offline' | 'close' | 'title' | PopupTextKey | ElementErrorCode;

/** The words of the popup display (its panel's status and button, its blocked window) and of a refused frame:
 *  only pages that use them load them (popup-controller.ts). */
export type PopupTextKey = 'popup' | 'popup-focus' | 'popup-blocked' | 'frame-refused';

export type PayFormTexts = Record<PayFormTextKey, string>;

const UNAVAILABLE = 'Payment is unavailable. Please contact the shop.';
const NOT_LOADED = 'The payment form did not load. Please try again later.';
const NOT_CONFIRMED = 'Payment not confirmed yet. Please contact the shop before paying again.';

/** The element's texts in English but the popup display's: one row per key, so a new error code is one new
 *  row; rows that share a text stand together. */
export const ELEMENT_TEXTS: Readonly<Omit<PayFormTexts, PopupTextKey>> = {
  loading: 'Loading the payment form…',
  success: 'Thank you! Confirming your payment…',
  fail: 'Payment declined. Please try again.',
  offline: 'You are offline. The payment will be checked when you are back online.',
  close: 'Close',
  title: 'Payment form',
  'invalid-base-url': UNAVAILABLE,
  'base-url-mismatch': UNAVAILABLE,
  'invalid-key': UNAVAILABLE,
  'invalid-redirect-url': UNAVAILABLE,
  'csp-blocked': UNAVAILABLE,
  'token-request-failed': NOT_LOADED,
  'load-timeout': NOT_LOADED,
  'service-unreachable': NOT_LOADED,
  'invalid-status-url': NOT_CONFIRMED,
  'settle-timeout': NOT_CONFIRMED,
  'order-paid': 'This order is already paid.',
};

/** The popup display's texts, apart so that the element's bundle holds them only with the popup's module
 *  (popup-controller.ts hands them to the element). */
export const POPUP_TEXTS: Readonly<Pick<PayFormTexts, PopupTextKey>> = {
  popup: 'Continue in the payment window.',
  'popup-focus': 'Open the payment window',
  'popup-blocked': 'The payment window was blocked. Press the button to open it.',
  'frame-refused': 'The payment form cannot be shown here. Please try again later.',
};

/** Every text in English, by key. Marked pure so that a bundle that never reads it leaves the popup's texts out. */
export const DEFAULT_TEXTS: Readonly<PayFormTexts> = /* @__PURE__ */ Object.assign({}, ELEMENT_TEXTS, POPUP_TEXTS);
