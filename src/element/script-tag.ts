// The script-tag bundles' entry: defines <pay-form> and exposes its class, nothing more. A page without
// a build step uses attributes and the events' names as written; the constants and types are for
// code that imports the npm entries, which export them all. Exporting them here kept eight event
// names and the default texts from being inlined and cost about 220 B of each bundle's gzip.
export { PayForm } from './pay-form-define.js';
