// The words the element shows and announces, keyed by what they are for, in English. A page replaces
// any of them with the `texts` property (or attribute, as JSON) and puts its own markup in a slot
// (docs/element.md, Accessibility). They speak to the shopper: the error code and the developer's
// message stay in the event's detail and are never shown.
import type { ElementErrorCode } from '../service/error-codes.js';

/**
 * A status (`loading`, `success`, `fail`), the modal's Close button's accessible name (`close`), or an
 * error in the shopper's words, one per error code.
 */
export type PayFormTextKey = 'loading' | 'success' | 'fail' | 'close' | ElementErrorCode;

export type PayFormTexts = Record<PayFormTextKey, string>;

const CANNOT_OPEN = 'The payment form cannot open on this page. Please contact the shop.';
const TRY_AGAIN = 'The payment form did not load. Please try again.';
const NOT_CONFIRMED = 'We could not confirm your payment yet. Please check your email or contact the shop before you pay again.';

/** The texts in English: one row per key, so a new error code is one new row. */
export const DEFAULT_TEXTS: Readonly<PayFormTexts> = {
  loading: 'Loading the payment form…',
  success: 'Thank you. Your payment is being confirmed.',
  fail: 'The payment did not go through. Please try again.',
  close: 'Close',
  'invalid-base-url': CANNOT_OPEN,
  'invalid-key': CANNOT_OPEN,
  'invalid-redirect-url': CANNOT_OPEN,
  'token-request-failed': TRY_AGAIN,
  'load-timeout': TRY_AGAIN,
  'service-unreachable': 'The payment service cannot be reached right now. Please try again in a few minutes.',
  'csp-blocked': CANNOT_OPEN,
  'invalid-status-url': NOT_CONFIRMED,
  'settle-timeout': NOT_CONFIRMED,
};
