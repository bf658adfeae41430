// The shopper's language as the service's form language (docs/service-contract.md, Form languages).
// Written once here: the token handler sends the form's `language` from the page's BCP 47 tag, and the
// element picks its own words by the same primary language subtag.
import type { FormLanguage } from './fields.js';

/**
 * Each form language by its BCP 47 primary language subtag. The service describes IN as Indonesian
 * (`id`) and ID as Hindi (`hi`); the table follows the service, not the look of the codes.
 */
export const FORM_LANGUAGE_OF = { en: 'EN', de: 'DE', uk: 'UA', ru: 'RU', kk: 'KZ', az: 'AZ', id: 'IN', hi: 'ID' } as const satisfies Record<string, FormLanguage>;

/** Whether the element has texts for a primary language subtag besides English (dist/pay-form.{tag}.js):
 *  FORM_LANGUAGE_OF's subtags but `en`, as a pattern, which costs the ES module bundle less than the table
 *  (test/node/service/language.test.ts keeps them equal); a function, so the bundle's minifier writes the
 *  pattern where it is tested rather than keep a constant for it. */
export function isShippedLanguage(tag: string): boolean {
  return /^(de|uk|ru|kk|az|id|hi)$/.test(tag);
}

/** A primary language subtag the service's form speaks. */
export type FormLanguageTag = keyof typeof FORM_LANGUAGE_OF;

/** A language tag's primary subtag in lower case (`de-AT` and `de_AT` give `de`); '' for no tag. */
export function primaryLanguage(tag: string): string {
  return tag.split(/[-_]/)[0]!.toLowerCase();
}

/** The tag's primary subtag when the service's form speaks it, else undefined. */
export function formLanguageTag(tag: string): FormLanguageTag | undefined {
  const primary = primaryLanguage(tag);
  return Object.hasOwn(FORM_LANGUAGE_OF, primary) ? (primary as FormLanguageTag) : undefined;
}

/** The form language for a BCP 47 tag: `de-AT` DE, `uk` UA, `kk` KZ, `az-Latn` AZ, `id` IN, `hi` ID; any other EN, the service's default. */
export function formLanguage(tag: string): FormLanguage {
  return FORM_LANGUAGE_OF[formLanguageTag(tag) ?? 'en'];
}
