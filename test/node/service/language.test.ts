// The table from a page's BCP 47 tag to the service's form language (src/service/language.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORM_LANGUAGES } from '../../../src/service/fields.js';
import { FORM_LANGUAGE_OF, formLanguage, formLanguageTag, isShippedLanguage } from '../../../src/service/language.js';

test('each tag maps to the form language the service gives it, by its primary subtag', () => {
  const table: [string, string][] = [
    ['en', 'EN'], ['en-GB', 'EN'], ['de', 'DE'], ['de-AT', 'DE'], ['de-CH', 'DE'], ['DE-de', 'DE'],
    ['uk', 'UA'], ['uk-UA', 'UA'], ['ru', 'RU'], ['ru-KZ', 'RU'], ['kk', 'KZ'], ['kk-Cyrl-KZ', 'KZ'],
    ['az', 'AZ'], ['az-Latn', 'AZ'], ['az-Latn-AZ', 'AZ'],
    // The service describes IN as Indonesian and ID as Hindi (docs/service-contract.md, Form languages).
    ['id', 'IN'], ['id-ID', 'IN'], ['hi', 'ID'], ['hi-IN', 'ID'],
    // A POSIX locale, as some systems write it.
    ['ru_RU', 'RU'],
  ];
  for (const [tag, code] of table) assert.equal(formLanguage(tag), code, tag);
});

test('anything else is EN, the service default: other languages, country codes taken for languages, empty, junk', () => {
  for (const tag of ['pt-BR', 'fr', 'zh-Hans-CN', 'ua', 'kz', 'in', 'IN', 'ID-x', 'x-klingon', '', '-', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    assert.equal(formLanguage(tag), tag === 'ID-x' ? 'IN' : 'EN', tag);
  }
  assert.equal(formLanguageTag('constructor'), undefined);
});

test('the table covers every form language once', () => {
  assert.deepEqual(Object.values(FORM_LANGUAGE_OF).sort(), [...FORM_LANGUAGES].sort());
});

test("the languages the ES module bundle fetches are the table's subtags but en, and nothing else (a failed request is a console error)", () => {
  const shipped = Object.keys(FORM_LANGUAGE_OF).filter((tag) => tag !== 'en');
  for (const tag of shipped) assert.ok(isShippedLanguage(tag), tag);
  for (const tag of ['en', '', 'd', 'e', 'de-at', 'de ', ' de', 'de uk', 'pt', 'constructor', 'DE']) assert.ok(!isShippedLanguage(tag), tag);
});
