// npm run bench:size (bench/size/size.ts): what a page downloads. gzip at level 9 and brotli at quality 11 (node:zlib),
// as CDNs serve them, for the script-tag bundles (Lit inside), the element without Lit and the return
// page's script.
// docs/performance.md's "Size" section holds this table verbatim, and the bytes per module
// (bench/size/size-modules.ts) under MODULES_HEADING; test/node/package/readme.test.ts keeps both so.
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildElementWithoutLit } from '../../scripts/build.js';
import { BUNDLES, MODAL_BUNDLE, POPUP_BUNDLE, RETURN_BUNDLE } from '../../scripts/entries.js';
import { moduleBytes, moduleTable } from './size-modules.js';

const KIB = 1024;
/**
 * The script-tag bundles' budget, gzip: test/node/package/size-budget.test.ts fails past it, and
 * docs/performance.md ("Size") says why it is where it is. The element without Lit has no budget of its own.
 * The goal is 7.5 KiB, and the budget is the goal: what only some pages need (a language's texts, the
 * popup, the modal) is in files of their own, so the 256 B DESIGN allows one payment per order is not used.
 */
export const BUNDLE_GOAL = 7.5 * KIB;
export const BUNDLE_BUDGET = BUNDLE_GOAL;
/** The return page's script: its own, small budget (pay-form's code only, no Lit). */
export const RETURN_BUDGET = 1 * KIB;

/** A file's gzip at level 9, as CDNs serve it and as the budget counts it. */
export const gzipBytes = (code: Uint8Array): number => gzipSync(code, { level: 9 }).length;

export interface SizeRow {
  what: string;
  min: number;
  gzip: number;
  brotli: number;
  /** The gzip budget, or null where none is set. */
  target: number | null;
}

export function measure(what: string, code: string | Uint8Array, target: number | null): SizeRow {
  const bytes = typeof code === 'string' ? Buffer.from(code) : Buffer.from(code);
  return {
    what,
    min: bytes.length,
    gzip: gzipBytes(bytes),
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    target,
  };
}

const kib = (bytes: number) => `${(bytes / KIB).toFixed(2)} KiB`;

export function sizeTable(rows: readonly SizeRow[]): string {
  const lines = [
    '| file | minified | gzip | brotli | gzip budget |',
    '|---|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.what} | ${kib(row.min)} | ${kib(row.gzip)} | ${kib(row.brotli)} | ${row.target === null ? 'none' : `≤ ${kib(row.target)} ${row.gzip <= row.target ? '(within)' : '(over)'}`} |`,
    ),
  ];
  return lines.join('\n');
}

/** Measures the built bundles in dist/ (run `npm run build` first) and the element built without Lit. */
export async function sizeRows(root = new URL('../..', import.meta.url)): Promise<SizeRow[]> {
  const file = (name: string) => readFile(new URL(`dist/${name}`, root));
  return [
    measure(`script-tag bundle, ES module (\`dist/${BUNDLES.esm}\`, Lit inside)`, await file(BUNDLES.esm), BUNDLE_BUDGET),
    measure(`script-tag bundle, classic script (\`dist/${BUNDLES.iife}\`, Lit inside)`, await file(BUNDLES.iife), BUNDLE_BUDGET),
    measure('element without Lit (the `pay-form` entry, minified, Lit external)', await buildElementWithoutLit(), null),
    measure(`the return page's script (\`dist/${RETURN_BUNDLE}\`)`, await file(RETURN_BUNDLE), RETURN_BUDGET),
    measure(`the modal display's script (\`dist/${MODAL_BUNDLE}\`)`, await file(MODAL_BUNDLE), null),
    measure(`the popup display's script (\`dist/${POPUP_BUNDLE}\`)`, await file(POPUP_BUNDLE), null),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(sizeTable(await sizeRows()));
  console.log(`\nThe ES bundle by module (bench/size/size-modules.ts):\n\n${moduleTable(await moduleBytes())}`);
}
