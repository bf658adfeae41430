// The documentation's generated or mirrored parts cannot go stale: the attribute and event tables (in
// the README and in docs/element.md) list exactly what custom-elements.json (from the element's JSDoc)
// lists, the script tags carry the built files' SRI hashes, the size table in docs/performance.md is
// what `npm run bench:size` prints for this build, the signature's worked example in docs/signature.md
// is what the built package computes, and every relative link and anchor leads somewhere.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { sizeRows, sizeTable } from '../../../bench/size/size.js';
import { moduleBytes, moduleTable } from '../../../bench/size/size-modules.js';
import {
  anchors,
  bundleScriptTags,
  MODULES_HEADING,
  firstTable,
  relativeLinks,
  section,
  SIZE_FILE,
  SIZE_HEADING,
  tableCells,
} from '../../../scripts/readme.js';
import { BUNDLES, SCRIPT_FILES } from '../../../scripts/entries.js';
import { sriOf } from '../../../scripts/sri.js';
import { distFile, root } from './dist.js';

const read = (path: string) => readFile(new URL(path, root), 'utf8');
const readme = await read('README.md');
const docNames = (await readdir(new URL('docs/', root))).sort();
const docPages = docNames.filter((name) => name.endsWith('.md'));
const pages = new Map<string, string>([['README.md', readme]]);
for (const name of docPages) pages.set(`docs/${name}`, await read(`docs/${name}`));
const elementDoc = pages.get('docs/element.md') ?? '';
const pkg = JSON.parse(await read('package.json')) as { version: string; customElements: string };

/** Where each page keeps the element's tables: the README one level deeper than docs/element.md. */
const ELEMENT_TABLES = [
  { page: 'README.md', text: readme, level: '###' },
  { page: 'docs/element.md', text: elementDoc, level: '##' },
] as const;

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

for (const { page, text, level } of ELEMENT_TABLES) {
  test(`the ${page} attribute table lists exactly the attributes in custom-elements.json, with their properties`, async () => {
    const rows = tableCells(firstTable(section(text, `${level} Attributes and properties`)));
    const documented = new Map<string, string | null>();
    for (const [attribute = '', property = ''] of rows) {
      const name = code(attribute);
      if (name !== null) documented.set(name, code(property));
    }
    const declaration = await payFormDeclaration();
    const manifestAttributes = new Map((declaration.attributes ?? []).map((a) => [a.name, a.fieldName ?? a.name]));
    assert.deepEqual([...documented.keys()].sort(), [...manifestAttributes.keys()].sort());
    for (const [name, property] of documented) assert.equal(property, manifestAttributes.get(name), `property of ${name}`);
  });

  test(`the ${page} event table lists exactly the events in custom-elements.json, with their exported constants`, async () => {
    const rows = tableCells(firstTable(section(text, `${level} Events`)));
    const declaration = await payFormDeclaration();
    const events = rows.map(([event = '']) => code(event));
    assert.deepEqual([...events].sort(), (declaration.events ?? []).map((e) => e.name).sort());
    const exported = (await import(distFile('element/index.js').href)) as Record<string, unknown>;
    for (const [event = '', constant = ''] of rows) assert.equal(exported[code(constant) ?? ''], code(event), constant);
  });
}

test('the README and docs/element.md list the same error codes, each one the element can fire', async () => {
  const codes = ELEMENT_TABLES.map(({ text, level }) =>
    tableCells(firstTable(section(text, `${level} Error codes`))).map(([cell = '']) => code(cell)),
  );
  assert.deepEqual(codes[0], codes[1]);
  const bundle = await readFile(distFile(BUNDLES.esm), 'utf8');
  for (const name of codes[0] ?? []) assert.match(bundle, new RegExp(`["'\`]${name}["'\`]`), `${name} in ${BUNDLES.esm}`);
});

test("the README's script tags carry each bundle's SRI hash, crossorigin and this version", async () => {
  const tags = bundleScriptTags(readme);
  assert.deepEqual([...new Set(tags.map((t) => t.file))].sort(), [...SCRIPT_FILES].sort());
  for (const tag of tags) {
    assert.equal(tag.integrity, await sriOf(distFile(tag.file)), `${tag.src}: run npm run readme:sync`);
    assert.equal(tag.crossorigin, 'anonymous', tag.src);
    assert.ok(tag.src.includes(`pay-form@${pkg.version}/dist/${tag.file}`), `${tag.src} pins version ${pkg.version}`);
  }
});

test(`the size table in ${SIZE_FILE} is what bench/size prints for this build`, async () => {
  const table = firstTable(section(pages.get(SIZE_FILE) ?? '', SIZE_HEADING)).join('\n');
  assert.equal(table, sizeTable(await sizeRows(root)), 'run npm run readme:sync');
});

test(`the bytes-per-module table in ${SIZE_FILE} is what bench/size/size-modules.ts measures for this code`, async () => {
  const table = firstTable(section(pages.get(SIZE_FILE) ?? '', MODULES_HEADING)).join('\n');
  assert.equal(table, moduleTable(await moduleBytes()), 'run npm run readme:sync');
});

test("docs/signature.md's worked example is what the built package and node:crypto compute", async () => {
  const example = section(pages.get('docs/signature.md') ?? '', '### Worked example');
  const payload = JSON.parse(/```json\n([\s\S]*?)```/.exec(example)?.[1] ?? 'null') as Record<string, unknown>;
  const canonical = /```text\n([\s\S]*?)\n```/.exec(example)?.[1];
  const values = new Map(tableCells(firstTable(example)).map(([name = '', value = '']) => [name, code(value)]));
  const secret = values.get('secret');
  const signature = values.get('signature');
  assert.ok(payload && canonical && secret && signature, 'payload, canonical string, secret and signature on the page');

  const server = (await import(distFile('server/index.js').href)) as {
    canonicalJson(payload: Record<string, unknown>): string;
    sign(payload: Record<string, unknown>, secret: string): Promise<string>;
    verify(payload: Record<string, unknown>, secret: string): Promise<boolean>;
  };
  assert.equal(server.canonicalJson(payload), canonical);
  assert.equal(await server.sign(payload, secret), signature);
  assert.equal(createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(canonical, 'utf8')).digest('hex'), signature);
  assert.equal(await server.verify({ ...payload, signature }, secret), true);
  const bytes = /(\d+) bytes of UTF-8/.exec(example)?.[1];
  assert.equal(Number(bytes), Buffer.byteLength(canonical, 'utf8'), 'the byte count on the page');
  assert.ok(example.includes(`printf '%s' '${canonical}'`), 'the openssl command signs the same string');
  assert.ok(example.includes(`hmac ${secret}`) && example.includes(`= ${signature}`), 'the openssl command and its output');
});

test('every relative link in the README and docs/ leads to a file, and every anchor to a heading', () => {
  const problems: string[] = [];
  for (const [page, text] of pages) {
    const base = new URL(page, root);
    for (const link of relativeLinks(text)) {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? base : new URL(path, base);
      const targetName = target.href.slice(root.href.length);
      if (!existsSync(target)) {
        problems.push(`${page}: ${link}: no file ${targetName}`);
        continue;
      }
      if (anchor === undefined) continue;
      const targetText = pages.get(targetName);
      if (targetText === undefined) problems.push(`${page}: ${link}: anchor into a page not checked`);
      else if (!anchors(targetText).has(anchor)) problems.push(`${page}: ${link}: no heading #${anchor} in ${targetName}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every file of the repository the README and docs/ name in code (`test/…`, `src/…`) exists', () => {
  const named = /\b(?:test|src|bench|scripts|demo)\/[\w./-]+\.(?:ts|mjs|js|html|json|md)\b/g;
  const missing = [...pages].flatMap(([page, text]) => [...text.matchAll(named)].map(([path]) => path).filter((path) => !existsSync(new URL(path, root))).map((path) => `${page}: ${path}`));
  assert.deepEqual(missing, []);
});

test('the README links every docs/ page, and every docs/ picture is shown somewhere', () => {
  const readmeLinks = new Set(relativeLinks(readme).map((link) => link.split('#')[0]));
  for (const name of docPages) assert.ok(readmeLinks.has(`docs/${name}`), `README links docs/${name}`);
  const shown = [...pages.values()].flatMap((text) => relativeLinks(text)).map((link) => link.split('/').pop());
  for (const name of docNames.filter((n) => n.endsWith('.png'))) assert.ok(shown.includes(name), `${name} is shown`);
});

test('the README stays short, and the docs cite docs/service-contract.md, not internal notes', () => {
  assert.ok(readme.split('\n').length <= 251, `README has ${readme.split('\n').length} lines`);
  for (const [page, text] of pages) assert.doesNotMatch(text, /seed|DESIGN\.md/i, page);
});
