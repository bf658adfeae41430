// Kazakh in Cyrillic (the service's KZ). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const kk = /* @__PURE__ */ languageTexts({
  loading: 'Төлем формасы жүктелуде…',
  success: 'Рахмет! Төлеміңіз расталуда…',
  fail: 'Төлем қабылданбады. Қайталап көріңіз.',
  close: 'Жабу',
  title: 'Төлем формасы',
  unavailable: 'Төлем қолжетімсіз. Дүкенге хабарласыңыз.',
  notLoaded: 'Төлем формасы жүктелмеді. Кейінірек қайталап көріңіз.',
  notConfirmed: 'Төлем әлі расталған жоқ. Қайта төлемес бұрын дүкенге хабарласыңыз.',
  orderPaid: 'Бұл тапсырыс төленіп қойған.',
  offline: 'Интернет байланысы жоқ. Байланыс қалпына келгенде төлем тексеріледі.',
  popup: 'Төлем терезесінде жалғастырыңыз.',
  popupFocus: 'Төлем терезесін ашу',
  popupBlocked: 'Төлем терезесі бұғатталды. Оны ашу үшін батырманы басыңыз.',
  frameRefused: 'Төлем формасын мұнда көрсету мүмкін емес. Кейінірек қайталап көріңіз.',
});
