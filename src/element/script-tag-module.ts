// The ES module bundle's entry: what script-tag.ts gives; built with PAY_FORM_ESM_BUNDLE, so the page's
// language is fetched on demand from beside the bundle (dist/pay-form.{tag}.js; language.ts) and a module
// page needs no tag per language (docs/element.md, Language).
export { PayForm } from './script-tag.js';
