// The documentation's generated parts: the script tags' integrity hashes (README.md) and the size table
// (docs/performance.md). Tests read them with these helpers; `npm run readme:sync` writes them after a
// build.
import { SCRIPT_FILES } from './entries.js';

/** The page, relative to the repository root, whose SIZE_HEADING section holds the size table. */
export const SIZE_FILE = 'docs/performance.md';
export const SIZE_HEADING = '## Size';
/** The subsection of the Size section whose first table is the bundle's bytes per module. */
export const MODULES_HEADING = '### The script-tag bundle by module';

/** The text of the section under `heading` (a whole line, e.g. "## Size"), up to the next heading of the same or higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) throw new Error(`no "${heading}" section`);
  const level = heading.indexOf(' ');
  let fenced = false;
  const end = lines.findIndex((line, i) => {
    if (i <= start) return false;
    // A `# comment` inside fenced code is not a heading.
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(line) && line.indexOf(' ') <= level;
  });
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
  const files = SCRIPT_FILES;
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

/** The text with each bundle's `<script … integrity>` set to that bundle's hash. */
export function syncHashes(text: string, hashes: Readonly<Record<string, string>>): string {
  return text.replace(/<script\b[^>]*>/g, (tag) => {
    const file = /\bsrc="[^"]*\/([^/"]+)"/.exec(tag)?.[1];
    const hash = file === undefined ? undefined : hashes[file];
    return hash === undefined ? tag : tag.replace(/\bintegrity="[^"]*"/, `integrity="${hash}"`);
  });
}

/** The text (SIZE_FILE's) with the first table of its `heading` section replaced by `table`. */
export function syncTable(text: string, table: string, heading = SIZE_HEADING): string {
  const old = firstTable(section(text, heading)).join('\n');
  if (old === '') throw new Error(`${SIZE_FILE}: the "${heading}" section has no table`);
  return text.replace(old, table);
}

/** GitHub's anchor for a heading line's text: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown page offers (repeated headings get -1, -2 …, as on GitHub); fenced code is skipped. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** Every relative Markdown link target (`[text](target)` / `![alt](target)`) outside fenced code. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}
