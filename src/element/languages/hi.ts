// Hindi in Devanagari (the service's ID, as it describes it). Written for a shopper, short and plain, as the English is (texts.ts).
import { languageTexts } from './language-texts.js';

// Pure: a bundler drops the languages a page does not import.
export const hi = /* @__PURE__ */ languageTexts({
  loading: 'भुगतान फ़ॉर्म लोड हो रहा है…',
  success: 'धन्यवाद! आपके भुगतान की पुष्टि की जा रही है…',
  fail: 'भुगतान अस्वीकार हो गया। कृपया फिर से कोशिश करें।',
  close: 'बंद करें',
  title: 'भुगतान फ़ॉर्म',
  unavailable: 'भुगतान उपलब्ध नहीं है। कृपया स्टोर से संपर्क करें।',
  notLoaded: 'भुगतान फ़ॉर्म लोड नहीं हुआ। कृपया बाद में फिर से कोशिश करें।',
  notConfirmed: 'भुगतान की अभी पुष्टि नहीं हुई है। दोबारा भुगतान करने से पहले स्टोर से संपर्क करें।',
  orderPaid: 'इस ऑर्डर का भुगतान हो चुका है।',
  offline: 'आप ऑफ़लाइन हैं। ऑनलाइन होते ही भुगतान की जाँच की जाएगी।',
  popup: 'भुगतान विंडो में आगे बढ़ें।',
  popupFocus: 'भुगतान विंडो खोलें',
  popupBlocked: 'भुगतान विंडो ब्लॉक हो गई। उसे खोलने के लिए बटन दबाएँ।',
  frameRefused: 'भुगतान फ़ॉर्म यहाँ नहीं दिखाया जा सकता। कृपया बाद में फिर से कोशिश करें।',
});
