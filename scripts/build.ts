// npm run build: the npm ES modules (Lit external; the browser's one file per source module so bundlers
// tree-shake, the Node entries in a few files),
// the script-tag bundles (Lit inside, production mode, minified), declarations, the custom-elements
// manifest, and the SRI hash of each script-tag file.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { OutputChunk, OutputOptions } from 'rolldown';
import { transform } from 'esbuild';
import { minify as terserMinify } from 'terser';
import { build, type InlineConfig, type Plugin } from 'vite';
import { BUNDLES, CLI, CLIENT_MODULES, ENTRIES, MODAL_BUNDLE, POPUP_BUNDLE, RETURN_BUNDLE, SCRIPT_FILES, SCRIPT_TAG_ENTRIES, isExternal } from './entries.js';
import * as languages from '../src/element/languages/index.js';
import { NOTICES_BANNER, NOTICES_FILE, noticesText } from './notices.js';
import { sriOf } from './sri.js';

const root = new URL('..', import.meta.url);
const src = (name: string) => new URL(`src/${name}.ts`, root).pathname;
const bin = (name: string) => new URL(`node_modules/.bin/${name}`, root).pathname;

const quiet: InlineConfig = { configFile: false, logLevel: 'warn', root: root.pathname };

/** Rolldown warns that a module-level 'use client' may not survive bundling: with one file per module
 *  it does (checked by keptClientDirectives), and in the script-tag bundles it means nothing. */
function onLog(level: string, log: { code?: string; message: string }, handler: (level: never, log: never) => void): void {
  if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.message.includes('use client')) return;
  handler(level as never, log as never);
}

/** Next.js reads the directive from the published file, so a build that lost it must fail. */
async function keptClientDirectives(): Promise<void> {
  for (const name of CLIENT_MODULES) {
    const code = await readFile(new URL(`dist/${name}.js`, root), 'utf8');
    if (!/^["']use client["'];/.test(code)) throw new Error(`build: dist/${name}.js lost its 'use client' directive`);
  }
}

/** The ES module bundle alone fetches a language's texts from beside itself (src/element/language.ts). */
const esmBundle = (on: boolean) => ({ PAY_FORM_ESM_BUNDLE: String(on) });

/** The npm modules: browser and Node entries in one pass, since the server shares form-url with the element;
 *  then the Node entries again as a few files (buildNodeEntries). */
export async function buildModules(): Promise<void> {
  const names = [...ENTRIES.map((entry) => entry.name), CLI];
  const missing = names.filter((name) => !existsSync(src(name)));
  if (missing.length) throw new Error(`build: entry sources missing: ${missing.join(', ')}`);
  await build({
    ...quiet,
    define: esmBundle(false),
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      // The browser modules target ES2022; the server and sandbox modules also run on Node 20.
      target: ['es2022', 'node20'],
      minify: false,
      lib: { entry: Object.fromEntries(names.map((name) => [name, src(name)])), formats: ['es'] },
      rolldownOptions: {
        onLog,
        external: isExternal,
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      },
    },
  });
  await buildNodeEntries();
}

const NODE_ROOMS = ['server', 'sandbox'] as const;

/** An import of the service room: the first pass's own file, dist/service/<name>.js. Only the server and
 *  sandbox rooms import it in this pass, since a service module is never loaded here itself. */
const serviceAsBuilt: Plugin = {
  name: 'pay-form:service-as-built',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer === undefined) return null;
    const target = new URL(source, `file://${importer}`).pathname;
    const name = /\/src\/service\/([\w-]+)\.js$/.exec(target)?.[1];
    // Every file of this pass is one folder under dist/ (entries dist/server/, dist/sandbox/, chunks dist/server/).
    return name === undefined ? null : { id: `../service/${name}.js`, external: true };
  },
};

/**
 * pay-form/server, /sandbox, /testing and the sandbox command as a few files instead of one per module:
 * a Node process loads pay-form/server about three times faster and holds about 2 MiB less RSS (every
 * module file costs the loader; docs/performance.md, Loading pay-form/server). Bundlers gain nothing from
 * one file per module on the server. Code shared by these entries is in shared chunks, so each class has
 * one identity across them; the service room stays the first pass's files (dist/service/), shared with
 * the element's modules in the same way.
 */
async function buildNodeEntries(): Promise<void> {
  const names = [...ENTRIES.filter((entry) => entry.node).map((entry) => entry.name), CLI];
  for (const room of NODE_ROOMS) await rm(new URL(`dist/${room}`, root), { recursive: true, force: true });
  await build({
    ...quiet,
    define: esmBundle(false),
    plugins: [serviceAsBuilt],
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      lib: { entry: Object.fromEntries(names.map((name) => [name, src(name)])), formats: ['es'] },
      rolldownOptions: {
        onLog,
        external: isExternal,
        output: { entryFileNames: '[name].js', chunkFileNames: 'server/[name]-[hash].js' },
      },
    },
  });
}

/**
 * The element's internal property names (controllers, their callbacks, the frame record, the checked
 * URL's value), one letter each in the script-tag bundles: the minifier renames variables and #private
 * fields, never properties. Only names no page, framework, other bundle or event detail can see: never the
 * element's properties or methods, detail keys (url, origin, display, status, result, code, message), text
 * keys (offline, close), the popup's interface (popup, open, show, close, win, texts), a Response's ok, Lit's
 * controller hooks, or a name the code also reads from the DOM (ShadowRoot's host, window's opener in the
 * return page's script). A name listed here must stay internal (test/browser/bundle.test.ts and the e2e
 * tests run the bundles). The npm modules keep the names as written.
 */
const INTERNAL_PROPS = 'value frame stop answer settled failed on iframe down shown node lost timers running hasResult resulted ready begin before back answered watch request reached clear ask'.split(' ');
// Most used first (INTERNAL_PROPS is in that order), lower-case single letters, which gzip well beside the
// minified variables, then upper-case; never l or C, the only one-letter properties of Lit's ReactiveElement
// (its initializers and a method: on its own objects, but sharing no name is the simpler rule). lit-html's
// o and t are not in these bundles.
const SHORT_NAMES = 'eacbdfghijkmnpqrsuvwxyzotE';
if (INTERNAL_PROPS.length > SHORT_NAMES.length) throw new Error('build: more internal property names than short names');
const internalPropsCache = Object.fromEntries(INTERNAL_PROPS.map((name, i) => [name, SHORT_NAMES.charAt(i)]));
const internalProps: Plugin = {
  name: 'pay-form:internal-props',
  enforce: 'post',
  async transform(code, id) {
    if (!id.includes('/src/')) return null;
    const mangled = await transform(code, {
      loader: 'js',
      mangleProps: new RegExp(`^(${INTERNAL_PROPS.join('|')})$`),
      mangleCache: { ...internalPropsCache },
      target: 'esnext',
      sourcemap: true,
      sourcefile: id,
    });
    return { code: mangled.code, map: mangled.map };
  },
};

/** Lit's css-tag.js, in the page builds only, is scripts/lit-css-tag.ts (why: that file's opening comment). */
const litCssTag: Plugin = {
  name: 'pay-form:lit-css-tag',
  enforce: 'pre',
  resolveId(source, importer) {
    return source === './css-tag.js' && importer?.includes('/@lit/reactive-element/') ? new URL('scripts/lit-css-tag.ts', root).pathname : null;
  },
};

/**
 * Parts of Lit's reactive-element.js cut in the page builds only, each for engines or class authors the
 * self-contained bundles do not serve; the npm modules keep Lit as it is (an app that extends the element
 * with decorators imports it from npm, where its Lit is whole):
 * - the hook for Lit's polyfill-support.js, for engines without native shadow DOM (ShadyDOM and
 *   ShadyCSS), which the bundles do not run in (their class static blocks need engines with shadow DOM
 *   and constructed sheets), and scripts/lit-css-tag.ts has no `<style>` for ShadyCSS to scope anyway;
 * - the support of standard decorators (`addInitializer`, its initializers run at construction and
 *   inherited by subclasses, `Symbol.metadata` and the `litPropertyMetadata` map it reads declared
 *   properties from): the element declares its properties in `static properties`, and no decorator
 *   runs in the bundles.
 * Exact text of the pinned Lit (2.1.2): a Lit whose text differs fails the build rather than keep a
 * part unnoticed.
 */
const LIT_CUTS = [
  'p=a.reactiveElementPolyfillSupport,',
  'p?.({ReactiveElement:y}),',
  'Symbol.metadata??=Symbol("metadata"),a.litPropertyMetadata??=new WeakMap;',
  'static addInitializer(t){this._$Ei(),(this.l??=[]).push(t)}',
  'void 0!==t.l&&(this.l=[...t.l]),',
  'const t=this[Symbol.metadata];if(null!==t){const s=litPropertyMetadata.get(t);if(void 0!==s)for(const[t,i]of s)this.elementProperties.set(t,i)}',
  ',this.constructor.l?.forEach(t=>t(this))',
];
const litCuts: Plugin = {
  name: 'pay-form:lit-cuts',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('/@lit/reactive-element/reactive-element.js')) return null;
    for (const text of LIT_CUTS) if (code.split(text).length !== 2) throw new Error(`build: Lit's reactive-element.js no longer holds ${text} once`);
    // Blanked to as many spaces, so every other byte keeps its place and Lit's own source map stays true.
    return { code: LIT_CUTS.reduce((out, text) => out.replace(text, ' '.repeat(text.length)), code), map: null };
  },
};

/** The minified browser build of an element entry (`input`, under src/), as a page gets it (not lib
 *  mode: Vite keeps white space in lib-mode ES output, and these files are for pages, not bundlers). */
function pageBuild(
  input: string,
  write: boolean,
  rolldown: { external?: (id: string) => boolean; output: OutputOptions | OutputOptions[] },
  sourcemap = false,
): InlineConfig {
  return {
    ...quiet,
    mode: 'production',
    resolve: { conditions: ['module', 'browser', 'production'] },
    plugins: [litCssTag, litCuts, internalProps],
    define: esmBundle(input === SCRIPT_TAG_ENTRIES.esm),
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      write,
      target: 'es2022',
      minify: true,
      sourcemap,
      copyPublicDir: false,
      rolldownOptions: { input: src(input), preserveEntrySignatures: 'strict', onLog, ...rolldown },
    },
  };
}

/**
 * A last pass of terser over a page build's minified output: its compressor and mangler, run three times,
 * find about 80 B of each bundle's gzip that Rolldown's minifier leaves (docs/performance.md, Size).
 * Legal comments (`/*!`) stay; ecma 2020 is the highest terser's types know (it parses the ES2022 classes
 * all the same, and 2022 gave the same bytes). `module`: an ES module, whose top-level names are its own;
 * a classic script's top-level names are the page's, and stay as they are. With `map` (a source map's
 * JSON), the map is carried through, so bench/size/size-modules.ts still finds each byte's module.
 * `hoist_funs` (function declarations first in their scope) and `keep_fargs: false` (unused trailing
 * parameters dropped: nothing in these files reads a function's length) are semantics-preserving here and
 * win 48 / 24 B of the IIFE / ES gzip; terser's `unsafe` and `pure_getters` options are left off. Terser's
 * mangler renames over Rolldown's in every build (26 B smaller in the classic scripts; in the ES module 12 B
 * smaller since its language fetch moved into language.ts, 9 B larger before: measure again when it changes).
 */
async function terse(code: string, module: boolean, map?: string): Promise<{ code: string; map?: SourceMapInput }> {
  const result = await terserMinify(code, {
    ecma: 2020,
    module,
    compress: { passes: 3, hoist_funs: true, keep_fargs: false },
    mangle: true,
    format: { comments: /^!/ },
    sourceMap: map ? { content: map } : false,
  });
  if (result.code === undefined) throw new Error('build: terser gave no code');
  return { code: result.code, map: typeof result.map === 'string' ? (JSON.parse(result.map) as SourceMapInput) : undefined };
}
/** What bench/size/size-modules.ts reads of a source map. */
type SourceMapInput = { sources: string[]; mappings: string };

/** Runs terse() over a file written to dist/. */
async function terseFile(file: string, module: boolean): Promise<void> {
  const path = new URL(`dist/${file}`, root);
  await writeFile(path, (await terse(await readFile(path, 'utf8'), module)).code);
}

/** The code chunks of a build that was not watching (one result, or one per output). */
function chunksOf(result: Awaited<ReturnType<typeof build>>): OutputChunk[] {
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((output) => ('output' in output ? output.output : [])).filter((item): item is OutputChunk => item.type === 'chunk');
}

/** The script-tag bundles, ES module and classic script, with Lit inside in production mode, and the
 *  licence notices of what they bundle beside them (named by each bundle's opening legal comment). */
export async function buildBundles(): Promise<void> {
  const results = [
    await build(pageBuild(SCRIPT_TAG_ENTRIES.esm, true, { output: { format: 'es', entryFileNames: BUNDLES.esm, postBanner: NOTICES_BANNER } })),
    await build(
      pageBuild(SCRIPT_TAG_ENTRIES.iife, true, {
        output: { format: 'iife', name: 'PayFormBundle', entryFileNames: BUNDLES.iife, postBanner: NOTICES_BANNER, generatedCode: { symbols: false } },
      }),
    ),
  ];
  await terseFile(BUNDLES.esm, true);
  await terseFile(BUNDLES.iife, false);
  const moduleIds = [...new Set(results.flatMap((result) => chunksOf(result).flatMap((chunk) => chunk.moduleIds)))];
  await writeFile(new URL(`dist/${NOTICES_FILE}`, root), await noticesText(moduleIds, new URL('node_modules/', root)));
  await ownBundle('element/return-on-load', RETURN_BUNDLE);
  await ownBundle('element/popup-on-load', POPUP_BUNDLE);
  // A classic script (its names kept in a function): it must run before a classic bundle upgrades an
  // element already on the page, so before a module could (docs/element.md, Modal display).
  await ownBundle('element/modal-on-load', MODAL_BUNDLE, 'iife');
  await buildLanguageFiles();
}

/** dist/pay-form.{tag}.js for each language: one statement that adds its texts to the page's registry,
 *  the same file a classic script runs and the ES module bundle imports (data only, no code of Lit's). */
export async function buildLanguageFiles(): Promise<void> {
  for (const [tag, texts] of Object.entries(languages)) {
    if (typeof texts !== 'object') continue;
    const code = `/*! pay-form (MIT) */(globalThis.PayFormLanguages??={}).${tag}=${JSON.stringify(texts)};\n`;
    await writeFile(new URL(`dist/pay-form.${tag}.js`, root), code);
  }
}

/** The return page's script and the popup's: pay-form's own code only (no Lit), so their legal comment
 *  is pay-form's; with no exports, each runs as a classic script or a module alike. */
export async function ownBundle(input: string, file: string, format: 'es' | 'iife' = 'es'): Promise<void> {
  const output = { format, entryFileNames: file, postBanner: '/*! pay-form (MIT) */' } as const;
  const result = await build(pageBuild(input, true, { output }));
  const bundled = chunksOf(result).flatMap((chunk) => chunk.moduleIds).filter((id) => id.includes('node_modules'));
  if (bundled.length > 0) throw new Error(`build: ${file} must hold pay-form's code only, not ${bundled.join(', ')}`);
  await terseFile(file, false);
}

/** The element's own code, minified like the bundle but with Lit left out: what pay-form adds to an app that already has Lit. */
export function elementOnlyConfig(): InlineConfig {
  return pageBuild('element/index', false, { external: (id) => /^(lit|@lit\/reactive-element)(\/|$)/.test(id), output: { format: 'es' } });
}

export async function buildElementWithoutLit(): Promise<string> {
  const result = await build(elementOnlyConfig());
  const chunks = chunksOf(result);
  if (chunks.length !== 1 || chunks[0] === undefined) throw new Error(`build: expected one chunk without Lit, got ${chunks.length}`);
  return (await terse(chunks[0].code, true)).code;
}

/** The ES module bundle as built, with its source map, in memory: bench/size/size-modules.ts attributes its bytes. */
export async function bundleWithMap(): Promise<{ code: string; map: { sources: string[]; mappings: string } }> {
  const result = await build(pageBuild(SCRIPT_TAG_ENTRIES.esm, false, { output: { format: 'es' } }, true));
  const [chunk] = chunksOf(result);
  if (chunk?.map == null) throw new Error('build: no bundle with a source map');
  const { code, map } = await terse(chunk.code, true, chunk.map.toString());
  if (map === undefined) throw new Error('build: terser gave no source map');
  return { code, map };
}

function declarations(): void {
  // Each room against its own lib and types (src/*/tsconfig.json); --force because dist/ was just emptied.
  execFileSync(bin('tsc'), ['-b', 'src', '--force'], { stdio: 'inherit', cwd: root });
}

function manifest(): void {
  execFileSync(bin('cem'), ['analyze', '--quiet'], {
    stdio: 'inherit',
    cwd: root,
  });
}

async function main(): Promise<void> {
  await rm(new URL('dist', root), { recursive: true, force: true });
  await buildModules();
  await keptClientDirectives();
  await buildBundles();
  declarations();
  manifest();
  console.log('Script-tag bundles (put the hash in the integrity attribute):');
  for (const file of SCRIPT_FILES) console.log(`  dist/${file}  ${await sriOf(new URL(`dist/${file}`, root))}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
