// The words the element shows and announces, keyed by what they are for, in English: the other
// languages are in languages/, and a page replaces any text with the `texts` property (or attribute,
// as JSON) (docs/element.md, Language). They speak to the shopper: the error code and the developer's
// message stay in the event's detail and are never shown.
import type { ElementErrorCode } from '../service/error-codes.js';

/**
/**
 * A status (`loading`, `success`, `fail`, and `offline` while a status wait waits for the network), the
 * modal's Close button's accessible name (`close`), the form's default accessible name (`title`, in
 * place of the default `frame-title`), or an error in the shopper's words, one per error code.
 */
export type PayFormTextKey = 'loading' | 'success' | 'fail' | 'offline' | 'close' | 'title' | ElementErrorCode;

export type PayFormTexts = Record<PayFormTextKey, string>;

const UNAVAILABLE = 'Payment is unavailable. Please contact the shop.';
const NOT_LOADED = 'The payment form did not load. Please try again later.';
const NOT_CONFIRMED = 'Payment not confirmed yet. Please contact the shop before paying again.';

/** The texts in English: one row per key, so a new error code is one new row. */
export const DEFAULT_TEXTS: Readonly<PayFormTexts> = {
  loading: 'Loading the payment form…',
  success: 'Thank you! Confirming your payment…',
  fail: 'Payment declined. Please try again.',
  offline: 'You are offline. The payment will be checked when you are back online.',
  close: 'Close',
  title: 'Payment form',
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
};
