// Gives <pay-form> its popup display (popup-controller.ts) once the tag is defined, whichever copy of the
// element defined it. `pay-form` and the framework entries import it; a script-tag page loads it as
// dist/pay-form-popup.min.js beside the element's bundle, which does not hold it: the popup's code is
// for the pages that use it (docs/element.md, Popup display).
import type { PayForm } from './pay-form.js';
import { PopupController } from './popup-controller.js';

if (typeof customElements !== 'undefined') {
  void customElements.whenDefined('pay-form').then((defined) => {
    (defined as typeof PayForm).popup ??= (host, on) => new PopupController(host, on);
  });
}
