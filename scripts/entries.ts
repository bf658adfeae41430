// The package's entry points, one row each: the source file, the subpath it is published under and
// whether it runs in Node only. scripts/build.ts, package.json's exports and the package tests agree
// on this table.
import { FORM_LANGUAGE_OF } from '../src/service/language.js';
export interface Entry {
  /** The subpath in package.json's exports ('.' for the root). */
  subpath: string;
  /** The source file, relative to src/, without extension; dist/<name>.js and dist/<name>.d.ts. */
  name: string;
  node: boolean;
}

export const ENTRIES: readonly Entry[] = [
  { subpath: '.', name: 'element/index', node: false },
  { subpath: './element', name: 'element/element', node: false },
  { subpath: './return', name: 'element/return-page', node: false },
  { subpath: './react', name: 'element/react', node: false },
  { subpath: './vue', name: 'element/vue', node: false },
  { subpath: './svelte', name: 'element/svelte', node: false },
  { subpath: './languages', name: 'element/languages/index', node: false },
  { subpath: './server', name: 'server/index', node: true },
  { subpath: './sandbox', name: 'sandbox/index', node: true },
  { subpath: './testing', name: 'sandbox/testing', node: true },
];

/** Modules that start with 'use client' (React Server Components must run them in the browser); the
 *  build keeps the directive and fails if it is lost. */
export const CLIENT_MODULES = ['element/react'] as const;

/** The sandbox command's module; bin/pay-form-sandbox.js imports dist/sandbox/cli.js. */
export const CLI = 'sandbox/cli';

/** The script-tag bundles: self-contained, minified, Lit inside. */
export const BUNDLES = { esm: 'pay-form.min.js', iife: 'pay-form.iife.min.js' } as const;

/** The script-tag bundles' entries (under src/): each defines the tag and exposes the class only; the ES
 *  module's also fetches the page's language from beside itself (script-tag-module.ts). */
export const SCRIPT_TAG_ENTRIES = { esm: 'element/script-tag-module', iife: 'element/script-tag' } as const;

/** The element's words in each form language but English, one script-tag file each (dist/pay-form.{tag}.js,
 *  from src/element/languages/), for a classic-script page's tag or the ES module bundle's fetch. */
export const LANGUAGE_FILES: readonly string[] = Object.keys(FORM_LANGUAGE_OF)
  .filter((tag) => tag !== 'en')
  .map((tag) => `pay-form.${tag}.js`);

/** The return page's script (src/element/return-on-load.ts): self-contained, minified, no Lit. */
export const RETURN_BUNDLE = 'pay-form-return.min.js';

/** The popup display's script (src/element/popup-on-load.ts) for script-tag pages: self-contained, no Lit;
 *  the element's bundles leave the popup out (docs/element.md, Popup display). */
export const POPUP_BUNDLE = 'pay-form-popup.min.js';

/** The modal display's script (src/element/modal-on-load.ts) for script-tag pages: self-contained, no Lit;
 *  the element's bundles leave the modal out (docs/element.md, Modal display). */
export const MODAL_BUNDLE = 'pay-form-modal.min.js';

/** Every file a page loads by a script tag, each with its SRI hash in the README. */
export const SCRIPT_FILES: readonly string[] = [...Object.values(BUNDLES), RETURN_BUNDLE, POPUP_BUNDLE, MODAL_BUNDLE, ...LANGUAGE_FILES];

/** What npm users install beside pay-form: never bundled into the npm modules. @opentelemetry/api above
 *  all: the application's own copy is the one its SDK registered with, and a copy of another minor
 *  version would not see that registration (docs/observability.md, How it is loaded). */
export const EXTERNAL_PACKAGES = ['lit', '@lit/reactive-element', '@lit/react', 'react', 'vue', 'svelte', '@opentelemetry/api'] as const;

export function isExternal(id: string): boolean {
  return id.startsWith('node:') || EXTERNAL_PACKAGES.some((name) => id === name || id.startsWith(`${name}/`));
}
