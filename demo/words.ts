// The demo page's own words in the service's eight form languages, for its language picker: the picker
// sets <html lang>, which the element follows (docs/element.md, Language), and the page's words follow it
// too. Keyed by the English, which index.html holds as written (data-word) and checkout.ts says.

/** The page's languages as BCP 47 tags, each with its own name. */
export const PAGE_LANGUAGES: readonly (readonly [tag: string, name: string])[] = [
  ['en', 'English'], ['de', 'Deutsch'], ['uk', 'Українська'], ['ru', 'Русский'],
  ['kk', 'Қазақша'], ['az', 'Azərbaycanca'], ['id', 'Bahasa Indonesia'], ['hi', 'हिन्दी'],
];

const ENGLISH = [
  'Demo shop: checkout', 'Language', 'Your order', 'Product', 'Currency', 'Payment method', 'Form language',
  'As the page', 'Display', 'Total:', 'Pay', 'Payment successful', 'Payment failed', 'Payment window closed',
  'Payment cancelled', 'Cancel payment', 'Pay this order again', 'What happened', 'Element events',
  'Callbacks received by the backend (signature verified)', 'Payment confirmed by the shop',
  'The shop recorded the payment as declined', 'We could not create your order. Please try again.',
] as const;

/** Each language's words, in ENGLISH's order. */
const WORDS: Readonly<Record<string, readonly string[]>> = {
  de: [
    'Demo-Shop: Kasse', 'Sprache', 'Ihre Bestellung', 'Produkt', 'Währung', 'Zahlungsart', 'Sprache des Formulars',
    'Wie die Seite', 'Anzeige', 'Summe:', 'Bezahlen', 'Zahlung erfolgreich', 'Zahlung fehlgeschlagen', 'Zahlungsfenster geschlossen',
    'Zahlung abgebrochen', 'Zahlung abbrechen', 'Diese Bestellung erneut bezahlen', 'Was geschah', 'Ereignisse des Elements',
    'Vom Backend empfangene Callbacks (Signatur geprüft)', 'Zahlung vom Shop bestätigt',
    'Der Shop hat die Zahlung als abgelehnt erfasst', 'Wir konnten Ihre Bestellung nicht anlegen. Bitte versuchen Sie es erneut.',
  ],
  uk: [
    'Демо-магазин: оформлення', 'Мова', 'Ваше замовлення', 'Товар', 'Валюта', 'Спосіб оплати', 'Мова форми',
    'Як у сторінки', 'Показ', 'Разом:', 'Оплатити', 'Оплата успішна', 'Оплата не вдалася', 'Вікно оплати закрито',
    'Оплату скасовано', 'Скасувати оплату', 'Оплатити це замовлення ще раз', 'Що сталося', 'Події елемента',
    'Зворотні виклики, отримані бекендом (підпис перевірено)', 'Магазин підтвердив оплату',
    'Магазин записав оплату як відхилену', 'Не вдалося створити замовлення. Спробуйте ще раз.',
  ],
  ru: [
    'Демо-магазин: оформление', 'Язык', 'Ваш заказ', 'Товар', 'Валюта', 'Способ оплаты', 'Язык формы',
    'Как у страницы', 'Показ', 'Итого:', 'Оплатить', 'Оплата прошла', 'Оплата не прошла', 'Окно оплаты закрыто',
    'Оплата отменена', 'Отменить оплату', 'Оплатить этот заказ ещё раз', 'Что произошло', 'События элемента',
    'Колбэки, полученные бэкендом (подпись проверена)', 'Магазин подтвердил оплату',
    'Магазин записал оплату как отклонённую', 'Не удалось создать заказ. Попробуйте ещё раз.',
  ],
  kk: [
    'Демо-дүкен: тапсырысты рәсімдеу', 'Тіл', 'Сіздің тапсырысыңыз', 'Тауар', 'Валюта', 'Төлем тәсілі', 'Форма тілі',
    'Беттегідей', 'Көрсету', 'Барлығы:', 'Төлеу', 'Төлем сәтті өтті', 'Төлем өтпеді', 'Төлем терезесі жабылды',
    'Төлемнен бас тартылды', 'Төлемді болдырмау', 'Бұл тапсырысты қайта төлеу', 'Не болды', 'Элемент оқиғалары',
    'Бэкенд алған кері қоңыраулар (қолтаңба тексерілді)', 'Дүкен төлемді растады',
    'Дүкен төлемді қабылданбаған деп тіркеді', 'Тапсырысты жасау мүмкін болмады. Қайталап көріңіз.',
  ],
  az: [
    'Demo mağaza: sifarişin rəsmiləşdirilməsi', 'Dil', 'Sifarişiniz', 'Məhsul', 'Valyuta', 'Ödəniş üsulu', 'Formanın dili',
    'Səhifədəki kimi', 'Göstərmə', 'Cəmi:', 'Ödə', 'Ödəniş uğurludur', 'Ödəniş alınmadı', 'Ödəniş pəncərəsi bağlandı',
    'Ödəniş ləğv edildi', 'Ödənişi ləğv et', 'Bu sifarişi yenidən ödə', 'Nə baş verdi', 'Elementin hadisələri',
    'Backend-in aldığı callback-lər (imza yoxlanılıb)', 'Mağaza ödənişi təsdiqlədi',
    'Mağaza ödənişi rədd edilmiş kimi qeydə aldı', 'Sifarişinizi yaratmaq alınmadı. Yenidən cəhd edin.',
  ],
  id: [
    'Toko demo: checkout', 'Bahasa', 'Pesanan Anda', 'Produk', 'Mata uang', 'Metode pembayaran', 'Bahasa formulir',
    'Sama dengan halaman', 'Tampilan', 'Total:', 'Bayar', 'Pembayaran berhasil', 'Pembayaran gagal', 'Jendela pembayaran ditutup',
    'Pembayaran dibatalkan', 'Batalkan pembayaran', 'Bayar pesanan ini lagi', 'Yang terjadi', 'Peristiwa elemen',
    'Callback yang diterima backend (tanda tangan terverifikasi)', 'Pembayaran dikonfirmasi oleh toko',
    'Toko mencatat pembayaran sebagai ditolak', 'Pesanan Anda tidak dapat dibuat. Silakan coba lagi.',
  ],
  hi: [
    'डेमो दुकान: चेकआउट', 'भाषा', 'आपका ऑर्डर', 'उत्पाद', 'मुद्रा', 'भुगतान का तरीका', 'फ़ॉर्म की भाषा',
    'पेज के अनुसार', 'दिखाने का तरीका', 'कुल:', 'भुगतान करें', 'भुगतान सफल रहा', 'भुगतान विफल रहा', 'भुगतान विंडो बंद हुई',
    'भुगतान रद्द किया गया', 'भुगतान रद्द करें', 'इस ऑर्डर का फिर से भुगतान करें', 'क्या हुआ', 'एलिमेंट के इवेंट',
    'बैकएंड को मिले कॉलबैक (हस्ताक्षर सत्यापित)', 'स्टोर ने भुगतान की पुष्टि की',
    'स्टोर ने भुगतान को अस्वीकृत दर्ज किया', 'आपका ऑर्डर नहीं बन सका। कृपया फिर से कोशिश करें।',
  ],
};

/** `english` in the page's language (<html lang>), or as it is where the demo has no word for it. */
export function word(english: string): string {
  const i = (ENGLISH as readonly string[]).indexOf(english);
  return WORDS[document.documentElement.lang]?.[i] ?? english;
}

/** Sets the page's language and says every marked word of the page in it. */
export function setPageLanguage(tag: string): void {
  document.documentElement.lang = tag;
  for (const node of document.querySelectorAll<HTMLElement>('[data-word]')) node.textContent = word(node.dataset['word'] ?? '');
}
