// Indonesian (the service's IN, as it describes it). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const id = /* @__PURE__ */ languageTexts({
  loading: 'Memuat formulir pembayaran…',
  success: 'Terima kasih! Pembayaran Anda sedang dikonfirmasi…',
  fail: 'Pembayaran ditolak. Silakan coba lagi.',
  close: 'Tutup',
  title: 'Formulir pembayaran',
  unavailable: 'Pembayaran tidak tersedia. Silakan hubungi toko.',
  notLoaded: 'Formulir pembayaran gagal dimuat. Silakan coba lagi nanti.',
  notConfirmed: 'Pembayaran belum dikonfirmasi. Hubungi toko sebelum membayar lagi.',
  orderPaid: 'Pesanan ini sudah dibayar.',
  offline: 'Anda sedang offline. Pembayaran akan diperiksa saat Anda kembali online.',
  popup: 'Lanjutkan di jendela pembayaran.',
  popupFocus: 'Buka jendela pembayaran',
  popupBlocked: 'Jendela pembayaran diblokir. Tekan tombol untuk membukanya.',
  frameRefused: 'Formulir pembayaran tidak dapat ditampilkan di sini. Silakan coba lagi nanti.',
});
