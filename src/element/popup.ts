// Gives the element class its popup display (popup-controller.ts). `pay-form` and `pay-form/react` call
// it for the class they define (`pay-form/vue` and `pay-form/svelte` through `pay-form`); a script-tag page
// loads dist/pay-form-popup.min.js (popup-on-load.ts) beside the element's bundle, which leaves the popup
// out so that pages that never use it do not load it (docs/element.md, Popup display).
import type { PayForm } from './pay-form.js';
import { PopupController } from './popup-controller.js';

/** Lets `display="popup"` open the payment window for every element of this class. */
export function registerPopup(payForm: typeof PayForm): void {
  payForm.popup ??= (host, report) => new PopupController(host, report);
}
