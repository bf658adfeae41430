// Every error code pay-form gives, in one union, so the browser's `pay-form-error` codes and the
// server's error classes can never name the same thing twice or differently.

/** Codes of the element's `pay-form-error` event. */
export type ElementErrorCode =
  | 'invalid-base-url'
  | 'base-url-mismatch'
  | 'invalid-key'
  | 'invalid-redirect-url'
  | 'token-request-failed'
  | 'order-paid'
  | 'load-timeout'
  | 'service-unreachable'
  | 'csp-blocked'
  | 'invalid-status-url'
  | 'settle-timeout'
  | 'popup-blocked'
  | 'frame-refused';

/** Codes of the errors pay-form throws (`PayFormError.code`): pay-form/server's classes, the sandbox's, the return helper's. */
export type ServerErrorCode =
  | 'config'
  | 'validation'
  | 'api'
  | 'authentication'
  | 'signature'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'service_address'
  | 'duplicate_payout'
  | 'payout_ledger'
  | 'store'
  | 'on_status_timeout'
  | 'body_consumed'
  | 'body_too_large'
  | 'unsignable'
  | 'port_in_use'
  | 'invoice_transition';

/** Any code pay-form gives, in the browser or on the server. */
export type PayFormErrorCode = ElementErrorCode | ServerErrorCode;

/** The URL checks' refusals, shared by the element and the server's option checks. */
export type UrlErrorCode = Extract<ElementErrorCode, 'invalid-base-url' | 'base-url-mismatch' | 'invalid-key' | 'invalid-redirect-url'>;
