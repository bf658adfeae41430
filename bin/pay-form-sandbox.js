#!/usr/bin/env node
// The pay-form-sandbox command. An installed package runs the built CLI (dist/sandbox/cli.js); a
// source checkout, where nothing is built yet, runs the TypeScript through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/sandbox/cli.js', import.meta.url);
let cli;
if (existsSync(built)) {
  cli = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../src/sandbox/cli.ts', import.meta.url).href);
}
await cli.main();
