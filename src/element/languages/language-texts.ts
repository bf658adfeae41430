// What a language's texts hold: every key of the element's words (texts.ts), and the keys other features
// add as they land (offline, the popup display, a refused frame, a base URL that is not the token's),
// so a language file is complete the day each arrives.
import type { PayFormTextKey } from '../texts.js';

export type LanguageTextKey = PayFormTextKey | 'offline' | 'popup' | 'popup-focus' | 'popup-blocked' | 'frame-refused' | 'base-url-mismatch';

export type LanguageTexts = Readonly<Record<LanguageTextKey, string>>;

/** A language's words, each once: the error codes that say the same to a shopper share a sentence, as in texts.ts. */
export interface LanguageWords {
  loading: string;
  success: string;
  fail: string;
  close: string;
  title: string;
  /** The shop's setup is wrong: nothing the shopper can do but tell the shop. */
  unavailable: string;
  /** The form did not come: trying later may help. */
  notLoaded: string;
  /** The verified outcome did not come: paying again may pay twice. */
  notConfirmed: string;
  orderPaid: string;
  offline: string;
  popup: string;
  popupFocus: string;
  popupBlocked: string;
  frameRefused: string;
}

/** Every key's text from a language's words. */
export function languageTexts(words: LanguageWords): LanguageTexts {
  const { unavailable, notLoaded, notConfirmed } = words;
  return {
    loading: words.loading,
    success: words.success,
    fail: words.fail,
    close: words.close,
    title: words.title,
    'invalid-base-url': unavailable,
    'invalid-key': unavailable,
    'invalid-redirect-url': unavailable,
    'token-request-failed': notLoaded,
    'order-paid': words.orderPaid,
    'load-timeout': notLoaded,
    'service-unreachable': notLoaded,
    'csp-blocked': unavailable,
    'invalid-status-url': notConfirmed,
    'settle-timeout': notConfirmed,
    offline: words.offline,
    popup: words.popup,
    'popup-focus': words.popupFocus,
    'popup-blocked': words.popupBlocked,
    'frame-refused': words.frameRefused,
    'base-url-mismatch': unavailable,
  };
}
