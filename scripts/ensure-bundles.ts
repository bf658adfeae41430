// `npm start` serves demo/script-tag.html, which loads the built script-tag bundle: build the bundles
// once when they are missing, so a fresh `npm install && npm start` shows both demo pages working.
// A full `npm run build` (modules, declarations, manifest) is not needed for the demo.
import { existsSync } from 'node:fs';
import { buildBundles } from './build.js';
import { BUNDLES } from './entries.js';

const bundle = new URL(`../dist/${BUNDLES.esm}`, import.meta.url);
if (!existsSync(bundle)) {
  console.log('pay-form: building the script-tag bundles for demo/script-tag.html');
  await buildBundles();
}
