// npm ci runs this (the root's "prepare"): the Node 22 and Node 24 packages that test:node-lts uses
// (workspace test/node-lines) each declare a `node` bin, and npm links one of them into
// node_modules/.bin, which `npm run` puts first on PATH: every script would then run on that Node
// instead of the one that runs npm. test:node-lts calls the binaries by their paths, so the link goes.
import { readlinkSync, rmSync } from 'node:fs';

const link = new URL('../node_modules/.bin/node', import.meta.url);
try {
  if (/node2[24]/.test(readlinkSync(link))) rmSync(link);
} catch {
  // No link: nothing to remove.
}
