// The script-tag bundles carry Lit inside, and Lit's BSD-3-Clause licence asks that its notice travel
// with every redistribution. The build writes the licence of each package a bundle holds into one file
// beside the bundles, and each bundle opens with a legal comment naming that file.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** The file beside the bundles that holds the notices of every package inside them. */
export const NOTICES_FILE = 'pay-form.bundle-licenses.txt';

/** A legal comment (kept by minifiers, added after minification anyway): Lit's notice in short, and
 *  the notices file beside the bundle that holds it in full. Every page downloads it, so it is terse. */
export const NOTICES_BANNER = `/*! Lit, Copyright 2017 Google LLC, BSD-3-Clause: see ${NOTICES_FILE} */`;

/** The npm package a bundled module id belongs to, e.g. `lit-html` or `@lit/reactive-element`. */
export function packageOf(moduleId: string): string | undefined {
  return moduleId.replace(/\\/g, '/').match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
}

/** Each bundled package's name, version, licence and licence text, in name order. */
export async function noticesText(moduleIds: Iterable<string>, nodeModules: URL): Promise<string> {
  const packages = [...new Set([...moduleIds].map(packageOf).filter((name): name is string => name !== undefined))].sort();
  if (packages.length === 0) throw new Error('notices: the bundles hold no npm package; expected Lit');
  const sections: string[] = [];
  for (const name of packages) {
    const dir = new URL(`${name}/`, nodeModules);
    const pkg = JSON.parse(await readFile(new URL('package.json', dir), 'utf8')) as { version: string; license?: string };
    const licenceFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE'].find((f) => existsSync(new URL(f, dir)));
    if (licenceFile === undefined) throw new Error(`notices: ${name} is bundled but ships no licence file`);
    const text = (await readFile(new URL(licenceFile, dir), 'utf8')).trim();
    sections.push(`${name}@${pkg.version} (${pkg.license ?? 'see below'})\n\n${text}`);
  }
  const rule = `\n\n${'-'.repeat(72)}\n\n`;
  return `The script-tag bundles of pay-form hold these packages, each under its own licence:\n\n${packages.join('\n')}${rule}${sections.join(rule)}\n`;
}
