// The Fetch handlers on the other runtimes, each from its npm package (exact versions in package.json):
// Bun, Deno and workerd (the runtime of Cloudflare Workers) run test/fixtures/recipes/{bun,deno,workers}
// against a sandbox on loopback.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { build } from 'esbuild';
import { freePort, SANDBOX_MERCHANT, proveRecipe } from '../../support/apps/recipes.js';

const root = new URL('../../../', import.meta.url);
const binary = (relative: string) => new URL(`node_modules/${relative}`, root).pathname;
const recipe = (file: string) => new URL(`test/fixtures/recipes/${file}`, root).pathname;

const scratch = await mkdtemp(path.join(tmpdir(), 'pay-form-runtimes-'));
after(() => rm(scratch, { recursive: true, force: true }));

test('Bun (test/fixtures/recipes/bun/server.ts): a token, malformed JSON, a signed callback and its repeat, the verified status, the paid order refused', () =>
  proveRecipe({ command: binary('@oven/bun-linux-x64/bin/bun'), args: ['run', recipe('bun/server.ts')], env: { BUN_INSTALL_CACHE_DIR: path.join(scratch, 'bun') } }));

test('Deno (test/fixtures/recipes/deno/server.ts): a token, malformed JSON, a signed callback and its repeat, the verified status, the paid order refused', () =>
  proveRecipe({
    command: binary('@deno/linux-x64-glibc/deno'),
    args: ['run', '--allow-net', '--allow-env', '--allow-read', '--no-lock', recipe('deno/server.ts')],
    env: { DENO_DIR: path.join(scratch, 'deno'), DENO_NO_UPDATE_CHECK: '1' },
  }));

/** workerd's config: the bundled Worker, its bindings, one loopback socket, and outbound fetch allowed
 *  to loopback (where the sandbox is). */
function workerdConfig(port: number, bindings: Record<string, string>): string {
  const text = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2026-11-01",
  bindings = [ ${text} ],
);
`;
}

test('workerd (test/fixtures/recipes/workers/worker.ts, bundled as wrangler would): a token, malformed JSON, a signed callback and its repeat, the verified status, the paid order refused', () =>
  proveRecipe(async (sandboxUrl) => {
    const dir = await mkdtemp(path.join(scratch, 'workerd-'));
    // Like wrangler: one ES module, resolved through the package's "exports", no Node built-ins.
    await build({ entryPoints: [recipe('workers/worker.ts')], bundle: true, format: 'esm', platform: 'neutral', outfile: path.join(dir, 'worker.js'), logLevel: 'warning' });
    const port = await freePort();
    const config = path.join(dir, 'config.capnp');
    await writeFile(config, workerdConfig(port, { PAY_BASE_URL: sandboxUrl, PAY_MERCHANT_ID: SANDBOX_MERCHANT.merchantId, PAY_SECRET: SANDBOX_MERCHANT.secret }));
    return { command: binary('@cloudflare/workerd-linux-64/bin/workerd'), args: ['serve', config, '--verbose'], port };
  }));
