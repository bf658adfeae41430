// The walls between the rooms of src/ (docs/architecture.md): which room may import which. One table,
// read by test/node/walls.test.ts against the real tree and against made-up files that cross each
// wall, so the check is shown to catch what it is for. The same test holds the toolshed's rule
// (TOOLSHED below): who outside src/ may import the test harness.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export type Room = 'element' | 'service' | 'server' | 'server/client' | 'server/http' | 'server/payouts' | 'server/stores' | 'server/telemetry' | 'sandbox';

/** The server's sub-rooms: a file under src/server/<one of these>/ is in that sub-room, the rest of src/server in `server`. */
const SUB_ROOMS: readonly string[] = ['server/client', 'server/http', 'server/payouts', 'server/stores', 'server/telemetry'];

/** The room of a path relative to src/ (`server/http/x.ts` is in `server/http`). */
export function roomOf(file: string): string {
  const parts = file.split('/');
  const sub = parts.slice(0, 2).join('/');
  return parts.length > 2 && SUB_ROOMS.includes(sub) ? sub : (parts[0] ?? '');
}

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
const serverPackages = (s: string) => s.startsWith('node:') || packageName(s) === 'redis';

export const WALLS: Readonly<Record<Room, RoomRule>> = {
  // The contract every room shares: plain code on web-platform globals, nothing else.
  service: { rooms: [], packages: () => false },
  // Browser code: the contract, but never its signing code, and the UI libraries it builds on.
  element: {
    rooms: ['service'],
    forbidden: ['service/signature.js'],
    packages: (s) => ['lit', '@lit/reactive-element', '@lit/react', 'react', 'vue', 'svelte'].includes(packageName(s)),
  },
  // pay-form/server's top: the public entry (index.ts) gathers the sub-rooms; errors.ts is the one
  // error story every sub-room throws from, and the only top module they may import.
  server: { rooms: ['service', 'server/client', 'server/http', 'server/payouts', 'server/stores', 'server/telemetry'], packages: serverPackages },
  // What the other server rooms tell: the observer's events, spans and metrics through
  // @opentelemetry/api (loaded only by a dynamic import, docs/observability.md). It knows the service's
  // words and nothing of the rooms that call it.
  'server/telemetry': { rooms: ['service'], packages: (s) => s === '@opentelemetry/api' },
  // Where state is kept (callback stores, their options, the Redis command shape): never HTTP, never
  // the service client.
  'server/stores': { rooms: ['service', 'server'], only: { server: 'server/errors.js' }, packages: serverPackages },
  // Payouts made once: the payout guard and the ledgers (which keep their state through the stores'
  // building blocks). Never the service client, never HTTP: the client hands the guard its send.
  'server/payouts': { rooms: ['service', 'server', 'server/stores', 'server/telemetry'], only: { server: 'server/errors.js' }, packages: serverPackages },
  // Talking to the service: PaymentClient and its transports; a payout goes through the payouts room's
  // guard. Never HTTP handling.
  'server/client': { rooms: ['service', 'server', 'server/stores', 'server/payouts', 'server/telemetry'], only: { server: 'server/errors.js' }, packages: serverPackages },
  // The merchant's HTTP endpoints: the token handler asks the merchant's PaymentClient for a token,
  // and the callback handler settles the payout ledger from the service's callbacks. Neither the
  // client nor the payouts room imports http.
  'server/http': {
    rooms: ['service', 'server', 'server/stores', 'server/client', 'server/payouts', 'server/telemetry'],
    only: { server: 'server/errors.js' },
    packages: serverPackages,
  },
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
    const room = roomOf(file.path) as Room;
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
      const targetRoom = roomOf(target) as Room;
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

/** Every .ts (and .mjs) file under a folder, paths relative to it. */
export async function sourceFiles(srcDir: URL): Promise<SourceFile[]> {
  const entries = await readdir(srcDir, { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !/\.(ts|mjs)$/.test(entry.name) || entry.parentPath.includes('node_modules')) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.push({ path: path.relative(srcDir.pathname, full).split(path.sep).join('/'), text: await readFile(full, 'utf8') });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The toolshed's rule, outside src/: scripts/ (build, release, docs sync) never imports the test
 * harness; bench/ and demo/ may use test/support/ (a real Redis, callback workers, browsers) but no
 * test file. `[folder, what it may not import, why]`, checked by walls.test.ts.
 */
export const TOOLSHED: ReadonlyArray<readonly [folder: string, forbidden: RegExp, why: string]> = [
  ['scripts', /^test\//, 'scripts/ builds and syncs docs; harness code lives in test/support/'],
  ['bench', /^test\/(?!support\/)/, 'bench/ may import test/support/ only'],
  ['demo', /^test\/(?!support\/)/, 'demo/ may import test/support/ only'],
];

/** One line per import of a file under scripts/, bench/ or demo/ that breaks TOOLSHED; `file` relative to the repository. */
export function toolshedViolations(files: readonly SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rule = TOOLSHED.find(([folder]) => file.path.startsWith(`${folder}/`));
    if (!rule) continue;
    for (const specifier of specifiers(file.text)) {
      if (!specifier.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      if (rule[1].test(target)) out.push(`${file.path}: imports ${target}; ${rule[2]}`);
    }
  }
  return out;
}
