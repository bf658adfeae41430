// No secret and no server code in what the browser loads: each browser entry is bundled the way a
// merchant ships it (esbuild, production) and both its input files and its code are searched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildBrowserBundle } from '../../scripts/element-bundle.js';

const BROWSER_ENTRIES = ['src/element/index.ts', 'src/element/element.ts', 'src/element/return-page.ts'];
/** Signs of signing or of a secret: none of them has a reason to be in browser code. */
const FORBIDDEN_CODE = [/createHmac/, /crypto\.subtle/, /subtle\.(sign|importKey)/, /\bHMAC\b/, /secret/i, /signature/i, /node:/];
const SERVER_INPUTS = /^src\/(server|sandbox)\//;

for (const entry of BROWSER_ENTRIES) {
  test(`${entry}: the production bundle holds no server module and no signing or secret code`, async () => {
    const { code, inputs } = await buildBrowserBundle(entry);
    assert.ok(inputs.includes(entry), `the bundle was built from ${entry}`);
    assert.deepEqual(inputs.filter((file) => SERVER_INPUTS.test(file)), []);
    for (const pattern of FORBIDDEN_CODE) assert.doesNotMatch(code, pattern);
  });
}

test('the check can fail: the server entry bundled for the browser is caught', async () => {
  const { code, inputs } = await buildBrowserBundle('src/server/index.ts');
  assert.ok(inputs.some((file) => SERVER_INPUTS.test(file)));
  assert.ok(FORBIDDEN_CODE.some((pattern) => pattern.test(code)));
});
