// The element's language, found as the platform finds it, and its words in that language
// (docs/element.md, Language). Read again at every render and every token request, so a single-page app
// that switches <html lang> gets its next checkout in the new language; no observer is kept. The
// languages' texts live outside the element (languages/, dist/pay-form.{tag}.js for script-tag pages),
// in one registry on the page: a text a language lacks, or a language whose texts never came, is English.
import { isShippedLanguage } from '../service/language.js';
import { ELEMENT_TEXTS, type PayFormTextKey, type PayFormTexts } from './texts.js';

declare global {
  /** Each language's texts by primary language subtag (`ru`, `de`, …): written by dist/pay-form.{tag}.js and addLanguages(). */
  // eslint-disable-next-line no-var
  var PayFormLanguages: Record<string, Partial<PayFormTexts>> | undefined;
}

/** True in the ES module bundle alone (scripts/build.ts defines it; false in every other build, and
 *  undeclared where the source runs unbuilt, as in the tests), so that bundle's fetch below costs no other
 *  build a byte: a classic script cannot import relative to itself (its page adds the language's tag), and
 *  an npm page registers its languages (pay-form/languages). */
declare const PAY_FORM_ESM_BUNDLE: boolean;

type Host = HTMLElement & { language: string | null; texts: Partial<PayFormTexts> | null };

/** The element's `language`, else its language as `:lang()` finds it: its own `lang` or the nearest
 *  ancestor's, across shadow roots up to `<html lang>`; else (none, or `lang=""`) the browser's first preferred one. */
export function languageOf(host: Host): string {
  return host.language || langAbove(host) || navigator.language;
}

/** The `lang` of the nearest element that has one, from `node` up, out of each shadow root to its host. */
const langAbove = (node: Element | undefined): string | undefined =>
  node && (node.closest<HTMLElement>('[lang]')?.lang ?? langAbove((node.getRootNode() as ShadowRoot).host));

/** The text for `key` in `lang` and the language it is in: the host's `texts`, else the language's, else English. */
export function textOf(
  host: Host & { requestUpdate(): void },
  key: PayFormTextKey,
  lang: string,
  english: Partial<PayFormTexts> = ELEMENT_TEXTS,
): [text: string, lang: string] {
  const tag = lang.split('-')[0]!.toLowerCase();
  const texts = globalThis.PayFormLanguages?.[tag];
  // The ES module bundle fetches a language it has a file for (dist/pay-form.{tag}.js, beside itself: a
  // relative import() resolves against the bundle's own URL). Every element that renders in it while the file
  // is on its way asks too, so each renders again when it comes; the browser fetches a module once however
  // many import() it while it loads. Loaded or failed (also a blob: bundle's, which has no URL to follow), the
  // language is then registered, English where the file's texts never came, so it is never asked for again
  // (browsers now fetch a failed module anew at the next import(): whatwg/html#10327). Registered before the
  // file came, only the element that asked would render again. No request for English or a language without
  // a file: a failed request is a console error.
  if (!texts && typeof PAY_FORM_ESM_BUNDLE == 'boolean' && PAY_FORM_ESM_BUNDLE && isShippedLanguage(tag)) {
    const done = () => {
      (globalThis.PayFormLanguages ??= {})[tag] ??= {};
      host.requestUpdate();
    };
    // A string, not a template literal, which Vite's import analysis would wrap in its preload helper (~600 B);
    // led by `tag &&` (never empty here), so that a bundler given this file (esbuild, Rollup's dynamic-import-vars)
    // does not read `'./…' + tag + '…'` as a glob and bundle every dist/pay-form.*.js, the bundles too (+2 B gzip).
    import(/* @vite-ignore */ tag && './pay-form.' + tag + '.js').then(done, done);
  }
  const text = host.texts?.[key] ?? texts?.[key];
  // English from the table given (the popup's module brings its own words), never an empty message for a key it holds.
  return typeof text == 'string' ? [text, lang] : [english[key] ?? '', 'en'];
}
