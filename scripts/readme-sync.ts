// npm run readme:sync (after npm run build): writes the bundles' SRI hashes into the README's script tags
// and the size tables (the files, and the bundle by module) into docs/performance.md, so a change to
// the element needs one command, and the documentation tests then pass again.
import { readFile, writeFile } from 'node:fs/promises';
import { sizeRows, sizeTable } from '../bench/size/size.js';
import { SCRIPT_FILES } from './entries.js';
import { MODULES_HEADING, SIZE_FILE, syncHashes, syncTable } from './readme.js';
import { moduleBytes, moduleTable } from '../bench/size/size-modules.js';
import { sriOf } from './sri.js';

const root = new URL('..', import.meta.url);
const hashes: Record<string, string> = {};
for (const file of SCRIPT_FILES) hashes[file] = await sriOf(new URL(`dist/${file}`, root));

const readmeUrl = new URL('README.md', root);
await writeFile(readmeUrl, syncHashes(await readFile(readmeUrl, 'utf8'), hashes));

const table = sizeTable(await sizeRows(root));
const sizeUrl = new URL(SIZE_FILE, root);
const modules = moduleTable(await moduleBytes());
await writeFile(sizeUrl, syncTable(syncTable(await readFile(sizeUrl, 'utf8'), table), modules, MODULES_HEADING));
console.log(`${table}\n\n${modules}`);
