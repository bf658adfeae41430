// Where the package tests find the build: they test what npm would ship, so `npm run build` comes first
// (npm test runs it).
import { existsSync } from 'node:fs';

export const root = new URL('../../../', import.meta.url);

export function distFile(name: string): URL {
  const url = new URL(`dist/${name}`, root);
  if (!existsSync(url)) throw new Error(`dist/${name} is missing: run \`npm run build\` first (npm test does)`);
  return url;
}
