// The test tree mirrors src/ (docs/testing.md, "Where a file's tests are"): each server test is named
// after the source file it proves, in the same sub-room, or is listed in that page's index. A test
// named after a file that no longer exists fails here instead of misleading a newcomer.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';

const repo = new URL('../../', import.meta.url);

/** Paths of the files under `dir` (relative to the repository), relative to `dir`. */
async function filesUnder(dir: string): Promise<string[]> {
  const root = new URL(dir, repo).pathname;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => `${e.parentPath}/${e.name}`.slice(root.length).replace(/^\/+/, ''));
}

/** The server tests (relative to test/node/server/) named after no source file and missing from the index. */
function strays(tests: readonly string[], sources: ReadonlySet<string>, index: string): string[] {
  return tests.filter((file) => !sources.has(file.replace(/\.test\.ts$/, '.ts')) && !index.includes(`test/node/server/${file}`));
}

test("every server test is named after a source file of its sub-room, or is in docs/testing.md's index", async () => {
  const sources = new Set(await filesUnder('src/server/'));
  const index = await readFile(new URL('docs/testing.md', repo), 'utf8');
  const tests = (await filesUnder('test/node/server/')).filter((f) => f.endsWith('.test.ts'));
  assert.ok(tests.length > 20, `found only ${tests.length} server tests`);
  assert.deepEqual(strays(tests, sources, index), [], 'name these after the file they prove, or list them in docs/testing.md');
});

test('the check catches a test named after a file that is gone, or in the wrong sub-room', () => {
  const sources = new Set(['http/token-handler.ts', 'stores/redis-callback-store.ts']);
  const tests = ['http/token-handler.test.ts', 'stores/redis-store.test.ts', 'client/token-handler.test.ts', 'http/listed.test.ts'];
  assert.deepEqual(strays(tests, sources, 'see `test/node/server/http/listed.test.ts`'), ['stores/redis-store.test.ts', 'client/token-handler.test.ts']);
});
