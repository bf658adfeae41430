// Azerbaijani in Latin script (the service's AZ). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const az = /* @__PURE__ */ languageTexts({
  loading: 'Ödəniş forması yüklənir…',
  success: 'Təşəkkür edirik! Ödənişiniz təsdiqlənir…',
  fail: 'Ödəniş rədd edildi. Yenidən cəhd edin.',
  close: 'Bağla',
  title: 'Ödəniş forması',
  unavailable: 'Ödəniş mümkün deyil. Mağaza ilə əlaqə saxlayın.',
  notLoaded: 'Ödəniş forması yüklənmədi. Bir az sonra yenidən cəhd edin.',
  notConfirmed: 'Ödəniş hələ təsdiqlənməyib. Yenidən ödəməzdən əvvəl mağaza ilə əlaqə saxlayın.',
  orderPaid: 'Bu sifariş artıq ödənilib.',
  offline: 'İnternet bağlantısı yoxdur. Bağlantı bərpa olunanda ödəniş yoxlanılacaq.',
  popup: 'Ödəniş pəncərəsində davam edin.',
  popupFocus: 'Ödəniş pəncərəsini aç',
  popupBlocked: 'Ödəniş pəncərəsi bloklandı. Onu açmaq üçün düyməni basın.',
  frameRefused: 'Ödəniş forması burada göstərilə bilməz. Bir az sonra yenidən cəhd edin.',
});
