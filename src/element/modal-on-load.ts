// dist/pay-form-modal.min.js: the modal display for a script-tag page, registered on whichever <pay-form>
// class the page defines, whether this script runs before the element's bundle or after it.
import type { PayForm } from './pay-form.js';
import { registerModal } from './modal.js';

void customElements.whenDefined('pay-form').then((defined) => registerModal(defined as typeof PayForm));
