// The `pay-form/languages` entry: the element's words in the service's other seven form languages, one
// export each, named by BCP 47 primary language subtag, so a bundler keeps only those imported
// (docs/element.md, Language). The script-tag pages get the same texts as dist/pay-form.{tag}.js.
import type { PayFormTexts } from '../texts.js';

export { az } from './az.js';
export { de } from './de.js';
export { hi } from './hi.js';
export { id } from './id.js';
export { kk } from './kk.js';
export { ru } from './ru.js';
export { uk } from './uk.js';
export type { LanguageTextKey, LanguageTexts } from './language-texts.js';

/**
 * Gives every `<pay-form>` on the page the texts of a language, by primary language subtag (`ru`, `de`,
 * or any other, `pt` for one the element does not ship), adding it or replacing the one there.
 */
export function addLanguages(languages: Readonly<Record<string, Partial<PayFormTexts>>>): void {
  Object.assign((globalThis.PayFormLanguages ??= {}), languages);
}
