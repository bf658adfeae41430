// The script-tag bundles hold Lit, whose BSD-3-Clause licence asks that its notice travel with every
// copy: each bundle opens with a legal comment naming the notices file, and that file, shipped beside
// the bundles, holds each bundled Lit package's licence text word for word.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { BUNDLES } from '../../../scripts/entries.js';
import { distFile, root } from './dist.js';

// The element is built on Lit's ReactiveElement alone (no lit-html templates), so that is the Lit
// package the bundles hold.
const LIT_PACKAGES = ['@lit/reactive-element'];
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { files: string[] };

test('each script-tag bundle opens with a legal comment naming Lit, its licence and the notices file', async () => {
  for (const file of Object.values(BUNDLES)) {
    const firstLine = (await readFile(distFile(file), 'utf8')).split('\n')[0]!;
    assert.match(firstLine, /^\/\*!.*\*\/$/, `${file} opens with a legal comment`);
    assert.match(firstLine, /Lit, Copyright 2017 Google LLC, BSD-3-Clause/, file);
    const named = firstLine.match(/: see (\S+) \*\/$/)?.[1];
    assert.ok(named !== undefined, `${file} names its notices file`);
    distFile(named);
  }
});

test('the notices file holds the licence of every bundled Lit package, word for word, and ships', async () => {
  const notices = await readFile(distFile('pay-form.bundle-licenses.txt'), 'utf8');
  for (const name of LIT_PACKAGES) {
    const licence = (await readFile(new URL(`node_modules/${name}/LICENSE`, root), 'utf8')).trim();
    const { version } = JSON.parse(await readFile(new URL(`node_modules/${name}/package.json`, root), 'utf8')) as { version: string };
    assert.ok(notices.includes(`${name}@${version} (BSD-3-Clause)\n\n${licence}`), `${name}'s notice is in the file`);
  }
  assert.doesNotMatch(notices, /^lit-html@/m, 'lit-html is not bundled, so not listed');
  assert.ok(pkg.files.includes('dist'), 'dist/, and so the notices file, is published');
});
