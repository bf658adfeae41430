// What `npm pack` ships, proven the way a merchant meets it: a copy of the sources in the state
// `npm start` leaves (only the script-tag bundles built), packed (prepack builds everything), the
// tarball installed into an empty folder from the local npm cache, then pay-form, pay-form/server and
// pay-form/sandbox imported and the pay-form-sandbox command run, with no tsx anywhere near it.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, realpathSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { root } from './dist.js';

const run = promisify(execFile);
const LIMIT = { timeout: 300_000 };
const SOURCES = ['package.json', 'README.md', 'tsconfig.json', 'custom-elements-manifest.config.mjs', 'src', 'scripts', 'bin'];

let temp: string;
let app: string;
let packed: string[];
/** What `npm install <tarball>` printed in the merchant's app. */
let installOutput: string;
/** The packed package.json, as the merchant's npm reads it. */
let packedManifest: { scripts?: Record<string, string> };

before(async () => {
  temp = await mkdtemp(join(tmpdir(), 'pay-form-pack-'));
  const repo = join(temp, 'repo');
  for (const entry of SOURCES) await cp(fileURLToPath(new URL(entry, root)), join(repo, entry), { recursive: true });
  await symlink(realpathSync(fileURLToPath(new URL('node_modules', root))), join(repo, 'node_modules'));
  // What `npm start` builds before it serves the demo: the script-tag bundles and nothing else.
  await run(process.execPath, ['--import', 'tsx', 'scripts/ensure-bundles.ts'], { cwd: repo });
  const out = join(temp, 'out');
  await mkdir(out);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', out], { cwd: repo, maxBuffer: 16 << 20 });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info!.files.map((f) => f.path);
  app = join(temp, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
  // From the cache the project's own install filled; only the npm registry is asked for anything missing.
  const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(out, info!.filename)], { cwd: app });
  installOutput = installed.stdout + installed.stderr;
  packedManifest = JSON.parse(await readFile(join(app, 'node_modules', 'pay-form', 'package.json'), 'utf8')) as typeof packedManifest;
}, LIMIT);
after(() => (temp ? rm(temp, { recursive: true, force: true }) : undefined));

test('npm pack after `npm start` ships the whole build: every entry, its types, the CLI and the notices', LIMIT, () => {
  for (const file of [
    'dist/element/index.js', 'dist/element/index.d.ts', 'dist/server/index.js', 'dist/server/index.d.ts',
    'dist/sandbox/index.js', 'dist/sandbox/cli.js', 'dist/sandbox/testing.js', 'dist/sandbox/testing.d.ts', 'dist/custom-elements.json', 'dist/pay-form.min.js',
    'dist/pay-form.bundle-licenses.txt', 'bin/pay-form-sandbox.js', 'package.json', 'README.md',
  ]) {
    assert.ok(packed.includes(file), `${file} is in the tarball (${packed.length} files)`);
  }
  assert.ok(!packed.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'no sources or tests');
});

test('npm 11 installs the tarball without a word about pay-form: no install script, no warning', LIMIT, () => {
  const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((name) => packedManifest.scripts?.[name] !== undefined);
  assert.deepEqual(lifecycle, [], 'no script runs when a merchant installs the package');
  const warnings = installOutput.split('\n').filter((line) => /\bwarn\b/i.test(line) && /pay-form|script/i.test(line));
  assert.deepEqual(warnings, [], installOutput);
});

test('installed into a clean folder: pay-form, pay-form/server, pay-form/sandbox and pay-form/testing import, the Node entries sharing one copy of each class', LIMIT, async () => {
  assert.ok(!existsSync(join(app, 'node_modules', 'tsx')), 'tsx is not installed with the package');
  const script = `
    const server = await import('pay-form/server');
    const sandbox = await import('pay-form/sandbox');
    const element = await import('pay-form');
    const testing = await import('pay-form/testing');
    const paid = await testing.successCallback({ secret: 's', order: 'o-1' });
    const verified = await server.verify(paid, 's');
    // The Node entries are built as entries and shared chunks (scripts/build.ts): one ConfigError for all.
    const refused = await sandbox.startSandbox({ merchantId: '' }).then((started) => (started.close(), undefined), (error) => error);
    const oneClass = refused instanceof sandbox.SandboxOptionsError && refused instanceof server.ConfigError && refused instanceof server.PayFormError;
    console.log(JSON.stringify({ client: typeof server.PaymentClient, sandbox: typeof sandbox.startSandbox, element: Object.keys(element).length > 0, verified, oneClass }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
  assert.deepEqual(JSON.parse(stdout.trim().split('\n').at(-1)!), { client: 'function', sandbox: 'function', element: true, verified: true, oneClass: true });
});

test('installed into a clean folder: the pay-form-sandbox command starts, answers and stops', LIMIT, async () => {
  const bin = join(app, 'node_modules', '.bin', 'pay-form-sandbox');
  const child = spawn(bin, ['--port', '0', '--quiet'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(`exited early: ${output}`)));
    });
    const response = await fetch(`${url}/api/jsapi/obtain_token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { success: boolean }).success, false);
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, output);
});
