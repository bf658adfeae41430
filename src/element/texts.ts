// The words the element shows and announces, keyed by what they are for, in English. A page replaces
// any of them with the `texts` property (or attribute, as JSON) (docs/element.md, Accessibility). They speak to the shopper: the error code and the developer's
// message stay in the event's detail and are never shown.
import type { ElementErrorCode } from '../service/error-codes.js';

/**
 * A status (`loading`, `success`, `fail`, and `popup` while the payment window is open), the modal's Close
 * button's accessible name (`close`), the popup display's button (`popup-focus`), or an error in the
 * shopper's words, one per error code.
 */
export type PayFormTextKey = 'loading' | 'success' | 'fail' | 'close' | 'popup' | 'popup-focus' | ElementErrorCode;

export type PayFormTexts = Record<PayFormTextKey, string>;

const UNAVAILABLE = 'Payment is unavailable. Please contact the shop.';
const NOT_LOADED = 'The payment form did not load. Please try again later.';
const NOT_CONFIRMED = 'Payment not confirmed yet. Please contact the shop before paying again.';

/** The texts in English: one row per key, so a new error code is one new row. */
export const DEFAULT_TEXTS: Readonly<PayFormTexts> = {
  loading: 'Loading the payment form…',
  success: 'Thank you! Confirming your payment…',
  fail: 'Payment declined. Please try again.',
  close: 'Close',
  popup: 'Continue in the payment window.',
  'popup-focus': 'Open the payment window',
  'invalid-base-url': UNAVAILABLE,
  'invalid-key': UNAVAILABLE,
  'invalid-redirect-url': UNAVAILABLE,
  'token-request-failed': NOT_LOADED,
  'order-paid': 'This order is already paid.',
  'load-timeout': NOT_LOADED,
  'service-unreachable': NOT_LOADED,
  'csp-blocked': UNAVAILABLE,
  'invalid-status-url': NOT_CONFIRMED,
  'settle-timeout': NOT_CONFIRMED,
  'popup-blocked': 'The payment window was blocked. Press the button to open it.',
  'frame-refused': 'The payment form cannot be shown here. Please try again later.',
};
