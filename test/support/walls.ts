// The walls between the rooms of src/ (docs/architecture in README "Layout"): which room may import
// which. One table, read by test/node/walls.test.ts against the real tree and against made-up files
// that cross each wall, so the check is shown to catch what it is for.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export type Room = 'element' | 'service' | 'server' | 'sandbox';

export interface SourceFile {
  /** Relative to src/, e.g. `element/pay-form.ts`. */
  path: string;
  text: string;
}

interface RoomRule {
  /** Rooms whose modules this room may import (its own always). */
  rooms: readonly Room[];
  /** Modules of those rooms it may not import, as `room/file.js`. */
  forbidden?: readonly string[];
  /** Where a room may only use another room through one module, as `room/file.js`. */
  only?: Partial<Record<Room, string>>;
  /** Bare specifiers (packages, node: builtins) it may import. */
  packages: (specifier: string) => boolean;
}

const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

export const WALLS: Readonly<Record<Room, RoomRule>> = {
  // The contract every room shares: plain code on web-platform globals, nothing else.
  service: { rooms: [], packages: () => false },
  // Browser code: the contract, but never its signing code, and the UI libraries it builds on.
  element: {
    rooms: ['service'],
    forbidden: ['service/signature.js'],
    packages: (s) => ['lit', '@lit/reactive-element', '@lit/react', 'react', 'vue', 'svelte'].includes(packageName(s)),
  },
  server: { rooms: ['service'], packages: (s) => s.startsWith('node:') || packageName(s) === 'redis' },
  // The sandbox serves through pay-form/server like any merchant would: its public entry only.
  sandbox: { rooms: ['service', 'server'], only: { server: 'server/index.js' }, packages: (s) => s.startsWith('node:') },
};

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every module specifier a file imports or re-exports, statically or dynamically. */
export function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) found.push((match[1] ?? match[2]) as string);
  return found;
}

/** One line per import that crosses a wall; an empty list when every room keeps to its rule. */
export function wallViolations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const room = file.path.split('/')[0] as Room;
    const rule = WALLS[room];
    if (!rule) {
      out.push(`${file.path}: not in a room (src/element, src/service, src/server, src/sandbox)`);
      continue;
    }
    for (const specifier of specifiers(file.text)) {
      if (!specifier.startsWith('.')) {
        if (!rule.packages(specifier)) out.push(`${file.path}: imports package ${specifier}, which the ${room} room may not`);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      const targetRoom = target.split('/')[0] as Room;
      if (target.startsWith('..') || !(targetRoom in WALLS)) {
        out.push(`${file.path}: imports ${specifier}, outside src/`);
      } else if (targetRoom !== room && !rule.rooms.includes(targetRoom)) {
        out.push(`${file.path}: imports ${target}; the ${room} room may not import the ${targetRoom} room`);
      } else if (rule.forbidden?.includes(target)) {
        out.push(`${file.path}: imports ${target}, which the ${room} room may not`);
      } else if (targetRoom !== room && rule.only?.[targetRoom] !== undefined && rule.only[targetRoom] !== target) {
        out.push(`${file.path}: imports ${target}; the ${room} room uses the ${targetRoom} room only through ${rule.only[targetRoom]}`);
      }
    }
  }
  return out;
}

/** Every .ts file under src/, as the walls see it. */
export async function sourceFiles(srcDir: URL): Promise<SourceFile[]> {
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push({ path: path.relative(srcDir.pathname, full).split(path.sep).join('/'), text: await readFile(full, 'utf8') });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
