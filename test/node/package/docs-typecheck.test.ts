// Every TypeScript block of README.md and docs/ type-checks, as a reader would paste it, against the
// built package, under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes. A block marked
// `<!-- recipe: PATH -->` or `<!-- next: PATH -->` is written at that path (so its relative imports find
// the other blocks); any other block is a module of its own, and the few names a fragment takes from
// its surroundings (an Express `app`, a `client`, a `store`, a typed order table) are declared once in
// test/support/apps/docs-context.d.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { docBlocks } from '../../support/apps/doc-blocks.js';
import { angularToolchain } from '../../support/apps/toolchain.js';
import { distFile, root } from './dist.js';

const ROOT = root.pathname;
const COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  jsx: 'react-jsx',
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  allowImportingTsExtensions: true,
  experimentalDecorators: true,
  noEmit: true,
  skipLibCheck: true,
  // Angular lives in its own toolchain (test/toolchains/angular, installed on first use), not in
  // the root node_modules.
  baseUrl: '.',
  paths: { '@angular/*': [path.join(angularToolchain(), 'node_modules/@angular/*')] },
};

let dir: string | undefined;
after(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

test('every TypeScript block of README.md and docs/ type-checks (strict, noUncheckedIndexedAccess, exactOptionalPropertyTypes)', { timeout: 300_000 }, async () => {
  distFile('server/index.d.ts');
  const blocks = (await docBlocks()).map((block) => ({
    ...block,
    // A Next.js file sits in the app's folder; any other unmarked block is a module of its own.
    file: block.kind === 'next' ? `next/${block.file}` : block.kind === 'recipe' ? block.file : `blocks/${block.file}`,
    text: block.kind === undefined ? `${block.text}\nexport {};\n` : `${block.text}\n`,
  }));
  assert.ok(blocks.length >= 25, `the pages hold their TypeScript blocks (found ${blocks.length})`);
  // Inside the repository, so `pay-form` is the package itself (its exports: the build) and every other
  // import resolves from the repository's node_modules.
  await mkdir(path.join(ROOT, '.consumers'), { recursive: true });
  dir = await mkdtemp(path.join(ROOT, '.consumers', 'docs-'));
  // The Next.js app's pay.ts is the recipes' shared module, as installConsumer puts it beside the app.
  const shared = blocks.find((block) => block.file === 'test/fixtures/recipes/pay.ts');
  assert.ok(shared, 'docs/recipes.md quotes the shared pay.ts');
  for (const block of [...blocks, { ...shared, file: 'next/pay.ts' }]) {
    await mkdir(path.dirname(path.join(dir, block.file)), { recursive: true });
    await writeFile(path.join(dir, block.file), block.text);
  }
  await copyFile(new URL('test/support/apps/docs-context.d.ts', root), path.join(dir, 'docs-context.d.ts'));
  const files = ['docs-context.d.ts', ...blocks.map((block) => block.file), 'next/pay.ts'];
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files }, null, 2));
  let output = '';
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // Name each error by its page, not by the temporary file.
  const byPage = output.replace(/^(\S+?)\((\d+),\d+\)/gm, (_, file: string, line: string) => {
    const block = blocks.find((b) => path.normalize(b.file) === path.normalize(file));
    return block ? `${block.page} (${block.file}, line ${line} of the block)` : `${file}:${line}`;
  });
  assert.equal(byPage, '', `the documentation's TypeScript does not type-check:\n${byPage}`);
});
