// The recipes in docs/recipes.md are the tested files themselves: each code block marked
// `<!-- recipe: PATH -->` must equal that file, and every recipe file must be quoted somewhere. (The
// Next.js app of docs/frameworks.md goes the other way: its test builds the app from the page's text.)
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { root } from './dist.js';

const PAGES = ['docs/recipes.md', 'docs/frameworks.md'];
const MARKED = /<!-- recipe: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g;

async function quoted(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const page of PAGES) {
    const text = await readFile(new URL(page, root), 'utf8');
    for (const [, path, body] of text.matchAll(MARKED)) found.set(path!, body!);
  }
  return found;
}

test('every quoted recipe is its file, word for word', async () => {
  const found = await quoted();
  assert.ok(found.size > 0, 'the docs quote recipes');
  for (const [path, body] of found) {
    const file = (await readFile(new URL(path, root), 'utf8')).replace(/\n$/, '');
    assert.equal(body, file, `${path} differs from its quote in the docs`);
  }
});

test('every server recipe is quoted in the docs', async () => {
  const found = await quoted();
  const recipes = (await readdir(new URL('test/fixtures/recipes/', root), { recursive: true }))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `test/fixtures/recipes/${name}`);
  for (const path of recipes) assert.ok(found.has(path), `${path} is not quoted in ${PAGES.join(' or ')}`);
});
