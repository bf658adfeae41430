// Toolchains some tests need beside the repository's own dependencies: Node 22 and 24
// (test/toolchains/node-lines) and Angular 22 with its TypeScript 6.0 (test/toolchains/angular). Each is
// a package of its own with its own lock, installed here from the npm registry on first use rather
// than by the root `npm install`: their engines (Angular wants Node 22) would make a newcomer's first
// command print warnings, and Node binaries in the root would put themselves first on npm's PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** npm's own CLI script, so it can run under another Node than the one running the tests. */
function npmCli(): string {
  const candidates = [
    process.env['npm_execpath'],
    path.join(path.dirname(realpathSync(process.execPath)), '../lib/node_modules/npm/bin/npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const found = candidates.find((file) => file !== undefined && file.endsWith('.js') && existsSync(file));
  if (found === undefined) throw new Error('toolchain: npm-cli.js not found; set npm_execpath to it');
  return found;
}

/**
 * Installs `dir` (relative to the repository) from its package-lock.json with `npm ci`, under `node`
 * (default: this process's), unless node_modules already holds exactly that lock. Answers the
 * absolute path of `dir`.
 */
export function ensureToolchain(dir: string, node = process.execPath): string {
  const at = path.join(root, dir);
  const lock = readFileSync(path.join(at, 'package-lock.json'), 'utf8');
  const installed = path.join(at, 'node_modules/.pay-form-lock.json');
  const current = () => existsSync(installed) && readFileSync(installed, 'utf8') === lock;
  if (current()) return at;
  // Test files run in parallel processes: one installs while the others wait for it.
  withDirectoryLock(`${at}.installing`, () => {
    if (current()) return;
    execFileSync(node, [npmCli(), 'ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: at, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync(node, ['-e', `require('fs').copyFileSync('package-lock.json', 'node_modules/.pay-form-lock.json')`], { cwd: at });
  });
  return at;
}

/** Runs `work` holding a lock that is a directory (mkdir is atomic); a lock older than 10 minutes is a crashed holder's. */
function withDirectoryLock(lockDir: string, work: () => void): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      const age = Date.now() - (statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) rmSync(lockDir, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 250);
    }
  }
  try {
    work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/** The pinned Node binary of one line (`node22`, `node24`), installed on first use. */
export function nodeLine(line: 'node22' | 'node24'): string {
  return path.join(ensureToolchain('test/toolchains/node-lines'), `node_modules/${line}/bin/node`);
}

/** The Angular 22 toolchain's folder, installed on first use by npm running under Node 22 (Angular refuses Node 20). */
export function angularToolchain(): string {
  return ensureToolchain('test/toolchains/angular', nodeLine('node22'));
}
