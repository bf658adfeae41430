// package.json's promises about the build: every export resolves to built files with `types` first,
// sideEffects names exactly the modules that define the tag, and the script-tag bundles are
// self-contained production builds.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { BUNDLES, ENTRIES, RETURN_BUNDLE, SCRIPT_FILES } from '../../../scripts/entries.js';
import { distFile, root } from './dist.js';

const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
  sideEffects: string[];
  unpkg: string;
  jsdelivr: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

test('every entry is exported with types first, and resolves to built files', () => {
  for (const entry of ENTRIES) {
    const target = pkg.exports[entry.subpath];
    assert.ok(typeof target === 'object', `${entry.subpath} is exported`);
    assert.deepEqual(Object.keys(target), ['types', 'default'], `${entry.subpath}: types first`);
    assert.equal(target.types, `./dist/${entry.name}.d.ts`);
    assert.equal(target.default, `./dist/${entry.name}.js`);
    distFile(`${entry.name}.d.ts`);
    distFile(`${entry.name}.js`);
  }
});

test('sideEffects names the modules that define the tag and every entry that imports them, and only the define module calls customElements.define', async () => {
  const defining = [];
  // An entry imported for its effect (`import 'pay-form/vue'`) is dropped by bundlers unless listed.
  const importingDefine: string[] = [];
  for (const file of ['index.js', 'pay-form-define.js', 'element.js', 'pay-form.js', 'return-page.js', 'react.js', 'vue.js', 'svelte.js']) {
    const code = await readFile(distFile(`element/${file}`), 'utf8');
    if (code.includes('customElements.define(')) defining.push(file);
    if (/import "\.\/(pay-form-define|index)\.js"/.test(code)) importingDefine.push(`./dist/element/${file}`);
    if (file === 'index.js') assert.match(code, /import "\.\/pay-form-define\.js"/, 'the root entry imports the define module');
  }
  assert.deepEqual(defining, ['pay-form-define.js']);
  const distSideEffects = pkg.sideEffects.filter((path) => path.startsWith('./dist/')).sort();
  assert.deepEqual(importingDefine.sort(), ['./dist/element/index.js', './dist/element/react.js', './dist/element/svelte.js', './dist/element/vue.js']);
  assert.deepEqual(distSideEffects, [...importingDefine, './dist/element/pay-form-define.js', ...SCRIPT_FILES.map((f) => `./dist/${f}`)].sort());
});

test('the script-tag bundles are self-contained production builds named by unpkg and jsdelivr', async () => {
  assert.equal(pkg.unpkg, `./dist/${BUNDLES.esm}`);
  assert.equal(pkg.jsdelivr, `./dist/${BUNDLES.esm}`);
  for (const file of Object.values(BUNDLES)) {
    const code = await readFile(distFile(file), 'utf8');
    // The ES module's one import(): a language's texts from beside it (src/element/language.ts); the classic script has none.
    const fetchLanguage = /\bimport\((\w+)&&"\.\/pay-form\."\+\1\+"\.js"\)/;
    assert.equal(fetchLanguage.test(code), file === BUNDLES.esm, `${file} fetches a language's texts only as an ES module`);
    assert.ok(!/\bfrom\s*["'`]|\bimport\s*\(|^import\s*["'`{*]/m.test(code.replace(fetchLanguage, '')), `${file} imports nothing`);
    assert.ok(!/dev mode/i.test(code), `${file}: Lit in production mode`);
    assert.ok(!code.includes('process.env'), file);
    assert.ok(/customElements\.define\([`"]pay-form[`"]/.test(code), `${file} defines the tag`);
    // Minified: what line breaks are left sit inside the element's css`` and html`` template strings.
    assert.ok(code.split('\n').length < 100, `${file} is minified`);
  }
});

test('the return page\'s script is a self-contained production build of pay-form\'s own code, reporting on load', async () => {
  const code = await readFile(distFile(RETURN_BUNDLE), 'utf8');
  assert.ok(!/\bfrom\s*["'`]|\bimport\s*\(|^import\s*["'`{*]/m.test(code), 'imports nothing');
  assert.ok(!/lit|customElements/i.test(code), 'no Lit, no element');
  assert.match(code, /pay-form:result/);
  assert.equal(code.split('\n').length, 2, 'a legal comment and one line of code');
});

test('the npm modules leave Lit and @lit/react to the app (one copy), and every dependency is pinned', async () => {
  for (const file of ['pay-form.js', 'react.js']) {
    const code = await readFile(distFile(`element/${file}`), 'utf8');
    assert.doesNotMatch(code, /class \w+ extends HTMLElement|ReactiveElement\s*=/, `${file} does not bundle Lit`);
  }
  assert.match(await readFile(distFile('element/pay-form-properties.js'), 'utf8'), /from "@lit\/reactive-element"/);
  for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    // An alias (two Node lines from one package) pins its version too.
    assert.match(version, /^(npm:(@[\w.-]+\/)?[\w.-]+@)?\d+\.\d+\.\d+$/, `${name} is pinned exactly`);
  }
});
