// Defines <pay-form> once; loading this module twice (two bundles on one page) is not an error.
import { PayForm } from './pay-form.js';

if (typeof customElements !== 'undefined' && !customElements.get('pay-form')) {
  customElements.define('pay-form', PayForm);
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-form': PayForm;
  }
}

export { PayForm };
