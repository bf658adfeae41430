// Event names, detail types and the global event-map entries for <pay-form>.
// Every event bubbles and is composed, so a listener on document sees events from any element.
import type { StatusAnswer } from '../service/checkout.js';
import type { ElementErrorCode } from '../service/error-codes.js';

export const PAY_FORM_OPEN = 'pay-form-open';
export const PAY_FORM_READY = 'pay-form-ready';
export const PAY_FORM_REDIRECT = 'pay-form-redirect';
export const PAY_FORM_SUCCESS = 'pay-form-success';
export const PAY_FORM_FAIL = 'pay-form-fail';
export const PAY_FORM_SETTLED = 'pay-form-settled';
export const PAY_FORM_CLOSE = 'pay-form-close';
export const PAY_FORM_ERROR = 'pay-form-error';

/** Every event the element fires, in the order of the contract's table. */
export const PAY_FORM_EVENTS = [
  PAY_FORM_OPEN,
  PAY_FORM_READY,
  PAY_FORM_REDIRECT,
  PAY_FORM_SUCCESS,
  PAY_FORM_FAIL,
  PAY_FORM_SETTLED,
  PAY_FORM_CLOSE,
  PAY_FORM_ERROR,
] as const;

export type PayFormDisplay = 'inline' | 'modal' | 'redirect' | 'popup';
/** What the element does when the form cannot be framed: the whole page goes to the form, or the popup display takes over. */
export type PayFormFallback = 'redirect' | 'popup';
export type PayFormState = 'idle' | 'loading' | 'open' | 'success' | 'fail' | 'closed' | 'error';

export type { ElementErrorCode, PayFormErrorCode } from '../service/error-codes.js';

export interface PayFormOpenDetail {
  url: string;
  display: PayFormDisplay;
}
export interface PayFormReadyDetail {
  url: string;
}
export interface PayFormRedirectDetail {
  url: string;
}
export interface PayFormSuccessDetail {
  status: 'success';
}
export interface PayFormFailDetail {
  status: 'fail';
}
/**
 * The verified outcome, the merchant's status-url answer as service/checkout.ts reads it: `status` (the
 * invoice status from the service's verified callback, `success` or `fail` for a payment) and `invoice_id`,
 * and whatever else the protocol's StatusAnswer carries.
 */
export type PayFormSettledDetail = StatusAnswer;
export interface PayFormCloseDetail {
  reason: 'user' | 'api';
  /** The result reached before closing (the state stays `success` or `fail`), or null. */
  result: 'success' | 'fail' | null;
}
export interface PayFormErrorDetail {
  code: ElementErrorCode;
  message: string;
}

/** Event name to detail type, one row per event. */
export interface PayFormEventDetails {
  [PAY_FORM_OPEN]: PayFormOpenDetail;
  [PAY_FORM_READY]: PayFormReadyDetail;
  [PAY_FORM_REDIRECT]: PayFormRedirectDetail;
  [PAY_FORM_SUCCESS]: PayFormSuccessDetail;
  [PAY_FORM_FAIL]: PayFormFailDetail;
  [PAY_FORM_SETTLED]: PayFormSettledDetail;
  [PAY_FORM_CLOSE]: PayFormCloseDetail;
  [PAY_FORM_ERROR]: PayFormErrorDetail;
}

export type PayFormEventName = keyof PayFormEventDetails;

/** Event name to the CustomEvent it is, for addEventListener on the element, document or window. */
export type PayFormEventMap = { [K in PayFormEventName]: CustomEvent<PayFormEventDetails[K]> };

// The events bubble and are composed, so listeners on document and window are typed too
// (GlobalEventHandlersEventMap is what DocumentEventMap and WindowEventMap extend).
declare global {
  interface HTMLElementEventMap extends PayFormEventMap {}
  interface GlobalEventHandlersEventMap extends PayFormEventMap {}
}
