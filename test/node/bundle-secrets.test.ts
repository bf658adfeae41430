// No secret and no server code in what the browser loads, searched in the shipped files (npm run build
// first): the script-tag bundles, and every module each browser entry of dist/ reaches through relative
// imports (bare imports such as lit are the merchant's own install).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { ENTRIES, SCRIPT_FILES } from '../../scripts/entries.js';

const DIST = new URL('../../dist/', import.meta.url);
/** Signs of signing or of a secret: none of them has a reason to be in browser code. */
const FORBIDDEN_CODE = [/createHmac/, /crypto\.subtle/, /subtle\.(sign|importKey)/, /\bHMAC\b/, /secret/i, /signature/i, /["'`]node:/];
const SERVER_FILES = /^(server|sandbox)\/|^service\/signature\.js$/;
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The dist/ files `entry` (relative to dist/) reaches, and their code joined. */
async function moduleGraph(entry: string): Promise<{ files: string[]; code: string }> {
  const files: string[] = [];
  const code: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.includes(file)) continue;
    files.push(file);
    const text = await readFile(new URL(file, DIST), 'utf8');
    code.push(text);
    for (const [, specifier] of text.matchAll(RELATIVE_IMPORT)) {
      queue.push(new URL(specifier!, new URL(file, 'file:///')).pathname.slice(1));
    }
  }
  return { files, code: code.join('\n') };
}

for (const { name } of ENTRIES.filter((e) => !e.node)) {
  test(`dist/${name}.js: the modules it loads hold no server module and no signing or secret code`, async () => {
    const { files, code } = await moduleGraph(`${name}.js`);
    assert.ok(files.length > 0 && files[0] === `${name}.js`);
    assert.deepEqual(files.filter((file) => SERVER_FILES.test(file)), []);
    for (const pattern of FORBIDDEN_CODE) assert.doesNotMatch(code, pattern);
  });
}

for (const file of SCRIPT_FILES) {
  test(`dist/${file}: the script-tag bundle holds no signing or secret code`, async () => {
    const code = await readFile(new URL(file, DIST), 'utf8');
    for (const pattern of FORBIDDEN_CODE) assert.doesNotMatch(code, pattern);
  });
}

test('the check can fail: the server entry is caught, by its files and by its code', async () => {
  const { files, code } = await moduleGraph('server/index.js');
  assert.ok(files.length > 5, 'the graph follows relative imports');
  assert.ok(files.some((file) => SERVER_FILES.test(file)));
  assert.ok(FORBIDDEN_CODE.some((pattern) => pattern.test(code)));
});
