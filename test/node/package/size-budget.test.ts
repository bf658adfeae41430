// The script-tag bundles stay within their gzip budget (docs/performance.md, Size): growth past it is a
// decision someone makes here, not a drift. Counted as bench:size counts them, on the built files.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { BUNDLES, RETURN_BUNDLE } from '../../../scripts/entries.js';
import { BUNDLE_BUDGET, RETURN_BUDGET, gzipBytes } from '../../../bench/size/size.js';
import { distFile } from './dist.js';

for (const name of [BUNDLES.esm, BUNDLES.iife]) {
  test(`dist/${name} is within the ${BUNDLE_BUDGET / 1024} KiB gzip budget`, async (t) => {
    const gzip = gzipBytes(await readFile(distFile(name)));
    t.diagnostic(`${name}: ${gzip} B gzip of ${BUNDLE_BUDGET} B (${BUNDLE_BUDGET - gzip} B to spare)`);
    assert.ok(gzip <= BUNDLE_BUDGET, `${name} is ${gzip} B gzip, ${gzip - BUNDLE_BUDGET} B over the ${BUNDLE_BUDGET} B budget`);
  });
}

test(`dist/${RETURN_BUNDLE}, the return page's script, is within its ${RETURN_BUDGET / 1024} KiB gzip budget`, async (t) => {
  const gzip = gzipBytes(await readFile(distFile(RETURN_BUNDLE)));
  t.diagnostic(`${RETURN_BUNDLE}: ${gzip} B gzip of ${RETURN_BUDGET} B`);
  assert.ok(gzip <= RETURN_BUDGET, `${RETURN_BUNDLE} is ${gzip} B gzip, over its ${RETURN_BUDGET} B budget`);
});

test('the budget check counts bytes as gzip sees them: a file past the budget is caught', () => {
  const incompressible = crypto.getRandomValues(new Uint8Array(BUNDLE_BUDGET));
  assert.ok(gzipBytes(incompressible) > BUNDLE_BUDGET);
  assert.ok(gzipBytes(new Uint8Array(BUNDLE_BUDGET * 4)) < BUNDLE_BUDGET);
});
