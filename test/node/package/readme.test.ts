// The README's generated or mirrored parts cannot go stale: its attribute and event tables list
// exactly what custom-elements.json (from the element's JSDoc) lists, the script tags carry the built
// files' SRI hashes, and the size table is what `npm run bench:size` prints for this build.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { sizeRows, sizeTable } from '../../../bench/size.js';
import { bundleScriptTags, firstTable, section, SIZE_HEADING, tableCells } from '../../../scripts/readme.js';
import { BUNDLES } from '../../../scripts/entries.js';
import { sriOf } from '../../../scripts/sri.js';
import { distFile, root } from './dist.js';

const readme = await readFile(new URL('README.md', root), 'utf8');
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { version: string; customElements: string };

interface ManifestDeclaration {
  tagName?: string;
  attributes?: { name: string; fieldName?: string }[];
  events?: { name: string }[];
}

async function payFormDeclaration(): Promise<ManifestDeclaration> {
  const manifest = JSON.parse(await readFile(distFile('custom-elements.json'), 'utf8')) as {
    modules: { declarations?: ManifestDeclaration[] }[];
  };
  const found = manifest.modules.flatMap((mod) => mod.declarations ?? []).filter((d) => d.tagName === 'pay-form');
  assert.equal(found.length, 1, 'one pay-form declaration in the manifest');
  return found[0]!;
}

const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1] ?? null;

test("package.json's customElements names the built manifest", async () => {
  // The analyzer writes this field itself, in this spelling.
  assert.equal(pkg.customElements, 'dist/custom-elements.json');
  await payFormDeclaration();
});

test('the README attribute table lists exactly the attributes in custom-elements.json, with their properties', async () => {
  const rows = tableCells(firstTable(section(readme, '### Attributes and properties')));
  const readmeAttributes = new Map<string, string | null>();
  for (const [attribute = '', property = ''] of rows) {
    const name = code(attribute);
    if (name !== null) readmeAttributes.set(name, code(property));
  }
  const declaration = await payFormDeclaration();
  const manifestAttributes = new Map((declaration.attributes ?? []).map((a) => [a.name, a.fieldName ?? a.name]));
  assert.deepEqual([...readmeAttributes.keys()].sort(), [...manifestAttributes.keys()].sort());
  for (const [name, property] of readmeAttributes) assert.equal(property, manifestAttributes.get(name), `property of ${name}`);
});

test('the README event table lists exactly the events in custom-elements.json, with their exported constants', async () => {
  const rows = tableCells(firstTable(section(readme, '### Events')));
  const declaration = await payFormDeclaration();
  const events = rows.map(([event = '']) => code(event));
  assert.deepEqual([...events].sort(), (declaration.events ?? []).map((e) => e.name).sort());
  const exported = (await import(distFile('element/index.js').href)) as Record<string, unknown>;
  for (const [event = '', constant = ''] of rows) assert.equal(exported[code(constant) ?? ''], code(event), constant);
});

test("the README's script tags carry each bundle's SRI hash, crossorigin and this version", async () => {
  const tags = bundleScriptTags(readme);
  assert.deepEqual([...new Set(tags.map((t) => t.file))].sort(), Object.values(BUNDLES).sort());
  for (const tag of tags) {
    assert.equal(tag.integrity, await sriOf(distFile(tag.file)), `${tag.src}: run npm run readme:sync`);
    assert.equal(tag.crossorigin, 'anonymous', tag.src);
    assert.ok(tag.src.includes(`pay-form@${pkg.version}/dist/${tag.file}`), `${tag.src} pins version ${pkg.version}`);
  }
});

test("the README's size table is what bench/size prints for this build", async () => {
  const table = firstTable(section(readme, SIZE_HEADING)).join('\n');
  assert.equal(table, sizeTable(await sizeRows(root)), 'run npm run readme:sync');
});
