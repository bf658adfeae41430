// The ES module bundle's entry: what script-tag.ts gives, and the page's language fetched on demand from beside the
// bundle (dist/pay-form.{tag}.js), so a module page needs no tag per language (docs/element.md,
// Language). The classic script cannot import relative to itself: its page adds the language's script tag.
import { fetchLanguagesWith } from './language.js';
import { SHIPPED_LANGUAGES } from '../service/language.js';

export { PayForm } from './pay-form-define.js';

// Not written inline in new URL(): Vite would take `new URL(`…${tag}…`, import.meta.url)` for an asset glob.
const base = import.meta.url;

fetchLanguagesWith(async (tag, done) => {
  // A language without texts of its own, or a failed fetch, is English from then on: asked once.
  if (SHIPPED_LANGUAGES.test(tag)) {
    // Beside this module, as the browser resolves it (a URL the bundler leaves alone: nothing to bundle or
    // preload); inside the try, so a base no URL can follow (a blob: bundle) is a failed fetch, not a throw.
    try {
      await import(new URL(`pay-form.${tag}.js`, base).href);
    } catch {}
    (globalThis.PayFormLanguages ??= {})[tag] ??= {};
    done();
  }
});
