// Ukrainian (the service's UA). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const uk = /* @__PURE__ */ languageTexts({
  loading: 'Завантажуємо форму оплати…',
  success: 'Дякуємо! Підтверджуємо оплату…',
  fail: 'Оплату відхилено. Спробуйте ще раз.',
  close: 'Закрити',
  title: 'Форма оплати',
  unavailable: 'Оплата недоступна. Зверніться до магазину.',
  notLoaded: 'Форма оплати не завантажилася. Спробуйте пізніше.',
  notConfirmed: 'Оплату ще не підтверджено. Перш ніж платити знову, зв’яжіться з магазином.',
  orderPaid: 'Це замовлення вже оплачено.',
  offline: 'Немає з’єднання з інтернетом. Оплату перевіримо, щойно зв’язок відновиться.',
  popup: 'Продовжте у вікні оплати.',
  popupFocus: 'Відкрити вікно оплати',
  popupBlocked: 'Вікно оплати заблоковано. Натисніть кнопку, щоб відкрити його.',
  frameRefused: 'Форму оплати тут показати не можна. Спробуйте пізніше.',
});
