// German (the service's DE). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const de = /* @__PURE__ */ languageTexts({
  loading: 'Zahlungsformular wird geladen…',
  success: 'Vielen Dank! Ihre Zahlung wird bestätigt…',
  fail: 'Zahlung abgelehnt. Bitte versuchen Sie es erneut.',
  close: 'Schließen',
  title: 'Zahlungsformular',
  unavailable: 'Die Zahlung ist nicht verfügbar. Bitte wenden Sie sich an den Shop.',
  notLoaded: 'Das Zahlungsformular wurde nicht geladen. Bitte versuchen Sie es später erneut.',
  notConfirmed: 'Die Zahlung ist noch nicht bestätigt. Bitte wenden Sie sich an den Shop, bevor Sie erneut zahlen.',
  orderPaid: 'Diese Bestellung ist bereits bezahlt.',
  offline: 'Sie sind offline. Die Zahlung wird geprüft, sobald Sie wieder online sind.',
  popup: 'Bitte fahren Sie im Zahlungsfenster fort.',
  popupFocus: 'Zahlungsfenster öffnen',
  popupBlocked: 'Das Zahlungsfenster wurde blockiert. Öffnen Sie es über die Schaltfläche.',
  frameRefused: 'Das Zahlungsformular kann hier nicht angezeigt werden. Bitte versuchen Sie es später erneut.',
});
