// The script-tag bundle's bytes per source module (`npm run bench:size` prints this table after the
// size table, and `npm run readme:sync` writes it into docs/performance.md): each byte of the minified
// ES bundle goes to the module its source map names. "gzip alone" compresses a module's bytes by
// themselves; "share" is what the module adds to the whole bundle's gzip (the bundle's gzip less that
// of the bundle without those bytes), which counts what gzip finds again elsewhere in the bundle only
// once. Bytes the source map gives to no module (the banner, the export list, a multi-line string after
// its first line) are "(bundle)".
import { gzipSync } from 'node:zlib';
import { bundleWithMap } from '../../scripts/build.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const UNCLAIMED = '(bundle)';

/** One line's segments of a source map's `mappings`, as [generated column, source index or -1]. */
function decodeLine(line: string, state: { source: number }): [number, number][] {
  const segments: [number, number][] = [];
  let column = 0;
  for (const segment of line.split(',')) {
    if (segment === '') continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = BASE64.indexOf(char);
      value += (digit & 31) << shift;
      shift += 5;
      if (digit & 32) continue;
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
    column += fields[0] ?? 0;
    if (fields.length > 1) state.source += fields[1] ?? 0;
    segments.push([column, fields.length > 1 ? state.source : -1]);
  }
  return segments;
}

export interface ModuleBytes {
  /** `src/element/pay-form.ts`, `@lit/reactive-element/reactive-element.js`, or UNCLAIMED. */
  module: string;
  min: number;
  /** gzip (level 9) of the module's bytes alone. */
  gzip: number;
  /** What the module adds to the whole bundle's gzip. */
  share: number;
}

function moduleName(source: string | undefined): string {
  if (source === undefined) return UNCLAIMED;
  const inPackage = /node_modules\/(.*)$/.exec(source);
  if (inPackage) return (inPackage[1] ?? '').replace(/\/(development|node)\//, '/');
  return /((src|scripts)\/.*)$/.exec(source)?.[1] ?? source;
}

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

/** Bytes per module of the ES script-tag bundle (built in memory, with its source map), largest first. */
export async function moduleBytes(): Promise<ModuleBytes[]> {
  const { code, map } = await bundleWithMap();
  /** The bundle as [module, text] pieces, in order. */
  const pieces: [string, string][] = [];
  const state = { source: 0 };
  const mappings = map.mappings.split(';');
  code.split('\n').forEach((text, index, lines) => {
    const segments = decodeLine(mappings[index] ?? '', state);
    pieces.push([UNCLAIMED, text.slice(0, segments[0]?.[0] ?? text.length)]);
    segments.forEach(([column, source], i) => pieces.push([moduleName(map.sources[source]), text.slice(column, segments[i + 1]?.[0] ?? text.length)]));
    if (index < lines.length - 1) pieces.push([UNCLAIMED, '\n']);
  });
  const whole = gzip(code);
  const modules = [...new Set(pieces.map(([module]) => module))];
  return modules
    .map((module) => {
      const own = pieces.filter(([name]) => name === module).map(([, text]) => text).join('');
      const without = pieces.filter(([name]) => name !== module).map(([, text]) => text).join('');
      return { module, min: Buffer.byteLength(own), gzip: gzip(own), share: whole - gzip(without) };
    })
    .sort((a, b) => b.min - a.min);
}

export function moduleTable(rows: readonly ModuleBytes[]): string {
  const own = rows.filter((row) => row.module.startsWith('src/'));
  const sum = (key: 'min' | 'share') => own.reduce((total, row) => total + row[key], 0);
  const name = (module: string) =>
    module.startsWith('src/')
      ? `\`${module}\``
      : module.startsWith('scripts/')
        ? `\`${module}\` (in place of Lit's css-tag.js)`
        : module === UNCLAIMED ? module : `${module} (Lit)`;
  return [
    '| module | minified (B) | gzip alone (B) | share of the bundle gzip (B) |',
    '|---|---:|---:|---:|',
    ...rows.map((row) => `| ${name(row.module)} | ${row.min} | ${row.gzip} | ${row.share} |`),
    `| the element's own modules together | ${sum('min')} | | ${sum('share')} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(moduleTable(await moduleBytes()));
