// dist/pay-form-popup.min.js: the popup display for a script-tag page, registered on whichever <pay-form>
// class the page defines, whether this script runs before the element's bundle or after it.
import type { PayForm } from './pay-form.js';
import { registerPopup } from './popup.js';

void customElements.whenDefined('pay-form').then((defined) => registerPopup(defined as typeof PayForm));
