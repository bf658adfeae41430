// What bundlers and React Server Components read from the published files: an entry imported for its
// effect must survive tree-shaking (package.json "sideEffects"), and the entries React may meet in a
// Server Component must start with 'use client'. The full production builds of real apps are in
// test/fixtures/consumers/; these are the quick checks of the same two facts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { build } from 'esbuild';
import { distFile, root } from './dist.js';

const PEERS = ['lit', 'lit/*', '@lit/react', 'react', 'vue', 'svelte', 'svelte/*'];

for (const entry of ['pay-form', 'pay-form/vue', 'pay-form/svelte', 'pay-form/react']) {
  test(`import '${entry}' for its effect defines <pay-form> in a tree-shaken production bundle`, async () => {
    distFile('element/index.js');
    const result = await build({
      stdin: { contents: `import '${entry}';`, resolveDir: root.pathname },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      minify: false,
      external: PEERS,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    assert.match(code, /customElements\.define\(\s*["']pay-form["']/, `${entry} was dropped from the bundle`);
  });
}

for (const name of ['element/react.js']) {
  test(`dist/${name} starts with 'use client', so a Server Component hands it to the browser`, async () => {
    const code = await readFile(distFile(name), 'utf8');
    assert.match(code, /^["']use client["'];/);
  });
}

test("pay-form/languages: a bundle keeps the languages a page imports and drops the others", async () => {
  distFile('element/languages/index.js');
  const result = await build({
    stdin: { contents: `import { addLanguages, ru } from 'pay-form/languages'; addLanguages({ ru });`, resolveDir: root.pathname },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    minify: true,
    charset: 'utf8',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  assert.ok(code.includes('Загружаем форму оплаты…'), 'Russian is kept');
  for (const other of ['Zahlungsformular', 'Завантажуємо', 'Төлем', 'Ödəniş', 'Memuat', 'भुगतान']) assert.ok(!code.includes(other), `${other}… is dropped`);
});
