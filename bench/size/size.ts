// npm run bench:size (bench/size/size.ts): what a page downloads. gzip at level 9 and brotli at quality 11 (node:zlib),
// as CDNs serve them, for the script-tag bundles (Lit inside) and for the element without Lit.
// docs/performance.md's "Size" section holds this table verbatim, and the bytes per module
// (bench/size/size-modules.ts) under MODULES_HEADING; test/node/package/readme.test.ts keeps both so.
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildElementWithoutLit } from '../../scripts/build.js';
import { BUNDLES, RETURN_BUNDLE } from '../../scripts/entries.js';
import { moduleBytes, moduleTable } from './size-modules.js';

const KIB = 1024;
/** The targets, gzip. */
export const TARGETS = { bundle: 7 * KIB, elementWithoutLit: 2.5 * KIB, returnPage: 1 * KIB } as const;

export interface SizeRow {
  what: string;
  min: number;
  gzip: number;
  brotli: number;
  target: number;
}

export function measure(what: string, code: string | Uint8Array, target: number): SizeRow {
  const bytes = typeof code === 'string' ? Buffer.from(code) : Buffer.from(code);
  return {
    what,
    min: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    target,
  };
}

const kib = (bytes: number) => `${(bytes / KIB).toFixed(2)} KiB`;

export function sizeTable(rows: readonly SizeRow[]): string {
  const lines = [
    '| file | minified | gzip | brotli | gzip target |',
    '|---|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.what} | ${kib(row.min)} | ${kib(row.gzip)} | ${kib(row.brotli)} | ≤ ${kib(row.target)} ${row.gzip <= row.target ? '(met)' : '(over)'} |`,
    ),
  ];
  return lines.join('\n');
}

/** Measures the built bundles in dist/ (run `npm run build` first) and the element built without Lit. */
export async function sizeRows(root = new URL('../../', import.meta.url)): Promise<SizeRow[]> {
  const file = (name: string) => readFile(new URL(`dist/${name}`, root));
  return [
    measure(`script-tag bundle, ES module (\`dist/${BUNDLES.esm}\`, Lit inside)`, await file(BUNDLES.esm), TARGETS.bundle),
    measure(`script-tag bundle, classic script (\`dist/${BUNDLES.iife}\`, Lit inside)`, await file(BUNDLES.iife), TARGETS.bundle),
    measure('element without Lit (the `pay-form` entry, minified, Lit external)', await buildElementWithoutLit(), TARGETS.elementWithoutLit),
    measure(`the return page's script (\`dist/${RETURN_BUNDLE}\`)`, await file(RETURN_BUNDLE), TARGETS.returnPage),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(sizeTable(await sizeRows()));
  console.log(`\nThe ES bundle by module (bench/size/size-modules.ts):\n\n${moduleTable(await moduleBytes())}`);
}
