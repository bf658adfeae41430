// npm run readme:sync (after npm run build): writes the bundles' SRI hashes and the size table into the
// README, so a change to the element needs one command, and the README tests then pass again.
import { readFile, writeFile } from 'node:fs/promises';
import { sizeRows, sizeTable } from '../bench/size.js';
import { BUNDLES } from './entries.js';
import { syncReadme } from './readme.js';
import { sriOf } from './sri.js';

const root = new URL('..', import.meta.url);
const readmeUrl = new URL('README.md', root);
const hashes: Record<string, string> = {};
for (const file of Object.values(BUNDLES)) hashes[file] = await sriOf(new URL(`dist/${file}`, root));
const table = sizeTable(await sizeRows(root));
await writeFile(readmeUrl, syncReadme(await readFile(readmeUrl, 'utf8'), hashes, table));
console.log(table);
