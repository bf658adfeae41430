// The README's generated parts: the script tags' integrity hashes and the size table. Tests read them
// with these helpers; `npm run readme:sync` writes them after a build.
import { BUNDLES } from './entries.js';

/** The text of the section under `heading` (a whole line, e.g. "## Size"), up to the next heading of the same or higher level. */
export function section(readme: string, heading: string): string {
  const lines = readme.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`README: no "${heading}" section`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The first Markdown table in `text`, as its lines. */
export function firstTable(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  if (start === -1) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end);
}

/** The cells of each body row of a table (header and separator dropped); `\|` stays inside a cell. */
export function tableCells(table: readonly string[]): string[][] {
  return table.slice(2).map((row) =>
    row
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
}

export interface ScriptTag {
  file: string;
  src: string;
  integrity: string | null;
  crossorigin: string | null;
}

/** Every `<script … src="https://…/dist/pay-form…min.js" …>` in the README (the tags a merchant copies;
 *  the demo's local `/dist/…` tag is not one), with its integrity and crossorigin. */
export function bundleScriptTags(readme: string): ScriptTag[] {
  const files = Object.values(BUNDLES) as string[];
  const tags: ScriptTag[] = [];
  for (const match of readme.matchAll(/<script\b[^>]*>/g)) {
    const tag = match[0];
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    const file = src?.split('/').pop();
    if (src === undefined || !src.startsWith('https://') || file === undefined || !files.includes(file)) continue;
    tags.push({
      file,
      src,
      integrity: /\bintegrity="([^"]+)"/.exec(tag)?.[1] ?? null,
      crossorigin: /\bcrossorigin="([^"]+)"/.exec(tag)?.[1] ?? null,
    });
  }
  return tags;
}

export const SIZE_HEADING = '## Size';

/** The README with each bundle's integrity hash and the size table replaced. */
export function syncReadme(readme: string, hashes: Readonly<Record<string, string>>, sizeTable: string): string {
  let text = readme.replace(/<script\b[^>]*>/g, (tag) => {
    const file = /\bsrc="[^"]*\/([^/"]+)"/.exec(tag)?.[1];
    const hash = file === undefined ? undefined : hashes[file];
    return hash === undefined ? tag : tag.replace(/\bintegrity="[^"]*"/, `integrity="${hash}"`);
  });
  const old = firstTable(section(text, SIZE_HEADING)).join('\n');
  if (old === '') throw new Error('README: the Size section has no table');
  text = text.replace(old, sizeTable);
  return text;
}
