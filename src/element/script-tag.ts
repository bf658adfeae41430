// The script-tag bundles' entry: defines <pay-form> and exposes its class, nothing more. A page without
// a build step uses attributes and the events' names as written; the constants and types are for
// code that imports the npm entries, which export them all. Exporting them here kept eight event
// names and the default texts from being inlined and cost about 220 B of each bundle's gzip.
import { PayForm } from './pay-form.js';

// Defined here rather than through pay-form-define.ts, whose check for a server without the DOM cannot
// matter in a bundle: Lit's class, bundled in, extends HTMLElement before this line runs (-11 / -11 B gzip).
// A second bundle on the page finds the tag defined, which is not an error.
customElements.get('pay-form') || customElements.define('pay-form', PayForm);

export { PayForm };
