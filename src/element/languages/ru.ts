// Russian (the service's RU). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const ru = /* @__PURE__ */ languageTexts({
  loading: 'Загружаем форму оплаты…',
  success: 'Спасибо! Подтверждаем оплату…',
  fail: 'Оплата отклонена. Попробуйте ещё раз.',
  close: 'Закрыть',
  title: 'Форма оплаты',
  unavailable: 'Оплата недоступна. Обратитесь в магазин.',
  notLoaded: 'Форма оплаты не загрузилась. Попробуйте позже.',
  notConfirmed: 'Оплата ещё не подтверждена. Прежде чем платить снова, свяжитесь с магазином.',
  orderPaid: 'Этот заказ уже оплачен.',
  offline: 'Нет подключения к интернету. Оплату проверим, когда связь восстановится.',
  popup: 'Продолжите в окне оплаты.',
  popupFocus: 'Открыть окно оплаты',
  popupBlocked: 'Окно оплаты заблокировано. Нажмите кнопку, чтобы открыть его.',
  frameRefused: 'Форму оплаты здесь показать нельзя. Попробуйте позже.',
});
