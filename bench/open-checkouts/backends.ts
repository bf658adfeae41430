// Building and starting bench/open-checkouts' backend processes, for run.ts and heap.ts alike: the
// backend (backend.ts, or BACKEND_ENTRY's) bundled once with esbuild and run by plain node, as a
// merchant's built server runs (no tsx, which alone would add tens of MiB of RSS to what is measured).
// pay-form/server is the built package's dist/server/index.js, loaded as an app that installed the
// package loads it (its modules as published), not folded into the bundle: the two differ by a few MiB
// of RSS (docs/performance.md). BACKEND_PAYFORM=bundled folds the source in instead.
import { existsSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeLine } from '../../test/support/apps/toolchain.js';

export const SECRET = 'open-checkouts-secret';

export interface Backend {
  url: string;
  child: ChildProcess;
}

/** The backend bundled; BACKEND_ENTRY: another checkout's backend.ts, or floor-backend.ts. */
export async function buildBackend(): Promise<string> {
  const other = process.env['BACKEND_ENTRY'];
  const outfile = fileURLToPath(new URL(`../../node_modules/.cache/pay-form-bench/open-checkouts-backend${other ? '-other' : ''}.mjs`, import.meta.url));
  const entry = other ?? fileURLToPath(new URL('./backend.ts', import.meta.url));
  const published = fileURLToPath(new URL('../../dist/server/index.js', `file://${entry}`));
  const asPublished: Plugin = {
    name: 'pay-form-as-published',
    setup: (b) => b.onResolve({ filter: /\/src\/server\/index\.js$/ }, () => ({ path: published, external: true })),
  };
  const bundled = process.env['BACKEND_PAYFORM'] === 'bundled';
  if (!bundled && !existsSync(published)) throw new Error(`${published} is missing: npm run build first (or BACKEND_PAYFORM=bundled)`);
  await build({
    entryPoints: [entry],
    plugins: bundled ? [] : [asPublished],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

/** The node the backends run on: BACKEND_NODE=node22 or node24 for that line (test/toolchains/node-lines),
 *  or a path; this process's own by default. */
export function backendNode(): string {
  const wanted = process.env['BACKEND_NODE'];
  if (wanted === 'node22' || wanted === 'node24') return nodeLine(wanted);
  return wanted || process.execPath;
}

/** One backend process on the bundle, with --expose-gc (its /stats reads the heap after a full GC);
 *  BACKEND_NODE_FLAGS: V8 or Node flags for the backends alone (e.g. --max-semi-space-size=8). */
export async function startBackend(bundle: string, redisUrl: string, env: Record<string, string> = {}): Promise<Backend> {
  const flags = (process.env['BACKEND_NODE_FLAGS'] ?? '').split(' ').filter(Boolean);
  const child = spawn(backendNode(), ['--expose-gc', ...flags, bundle], {
    env: { ...process.env, ...env, REDIS_URL: redisUrl, SECRET },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`backend exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
