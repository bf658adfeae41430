// A web-test-runner plugin that lets browser tests mount the framework entries (src/element/react.ts,
// vue.ts, svelte.ts) with the real React, Vue and Svelte from node_modules, built at test time with the
// tools already installed (nothing is downloaded), while the element's own code is still served from
// /src/element/ (the leak counter tells the element's timers by that path):
//   react, react-dom/client, react-dom  one module, /__frameworks/react.js: React's CommonJS (development
//                build, where StrictMode mounts twice) bundled by esbuild into ES modules, so the test and
//                the entry share one React
//   vue          Vue's own ES build with the template compiler, development build (vue.esm-browser.js)
//   *.svelte     compiled by svelte/compiler; its runtime (ES modules) is resolved by nodeResolve, but for
//                `svelte` itself, whose browser build nodeResolve's conditions would miss
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { compile } from 'svelte/compiler';

const require = createRequire(import.meta.url);
const REACT = '/__frameworks/react.js';
const VUE = '/node_modules/vue/dist/vue.esm-browser.js';
const SVELTE = `/node_modules/svelte/${require('svelte/package.json').exports['.'].browser.replace(/^\.\//, '')}`;

/** React's names as named exports of one ES module, with react-dom's the tests and apps use. */
async function reactModule() {
  // Read from its source, not require()d: React's development build wraps the console of the process that loads it.
  const source = await readFile(new URL('cjs/react.development.js', pathToFileURL(require.resolve('react'))), 'utf8');
  const names = [...new Set([...source.matchAll(/\bexports\.([A-Za-z_$][\w$]*)\s*=/g)].map((match) => match[1]))];
  const entry = [
    "import React from 'react';",
    "import { createRoot, hydrateRoot } from 'react-dom/client';",
    "import { flushSync } from 'react-dom';",
    'export default React;',
    `export const { ${names.join(', ')} } = React;`,
    'export { createRoot, hydrateRoot, flushSync };',
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

export function frameworksPlugin() {
  let react;
  return {
    name: 'pay-form-frameworks',
    resolveImport({ source }) {
      if (source === 'react' || source === 'react-dom' || source === 'react-dom/client') return REACT;
      if (source === 'vue') return VUE;
      if (source === 'svelte') return SVELTE;
      return undefined;
    },
    async serve(context) {
      if (context.path === REACT) {
        react ??= reactModule();
        return { body: await react, type: 'js' };
      }
      if (context.path.endsWith('.svelte')) {
        const file = new URL(`../../..${context.path}`, import.meta.url);
        const source = await readFile(file, 'utf8');
        const { js } = compile(source, { filename: file.pathname, generate: 'client', dev: true });
        return { body: js.code, type: 'js' };
      }
      return undefined;
    },
  };
}
