// The consumer apps of test/fixtures/consumers/, built for production the way a merchant builds them, from the
// package as npm ships it: `npm pack` of the build, unpacked into the app's own node_modules/pay-form
// (what `npm install pay-form-0.1.0.tgz` puts there). Each app is copied to its own folder under
// .consumers/ in the repository, so that everything else it imports (vite, vue, react, next, lit) resolves
// from the repository's node_modules, which `npm ci` filled: nothing is downloaded. Each app has its own
// package.json, so `pay-form` is never resolved to the repository itself.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { watchPage } from '../../e2e/harness.js';
import { distFile, root } from '../../node/package/dist.js';

const ROOT = root.pathname;
const WORK = path.join(ROOT, '.consumers');

let tarball: Promise<string> | undefined;

/** `npm pack` of the build that npm test made (--ignore-scripts: no second build by prepack), once per test process. */
export function packedTarball(): Promise<string> {
  tarball ??= (async () => {
    distFile('element/index.js');
    await mkdir(WORK, { recursive: true });
    const dir = await mkdtemp(path.join(WORK, 'pack-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [info] = JSON.parse(out) as { filename: string }[];
    if (!info) throw new Error('npm pack wrote nothing');
    return path.join(dir, info.filename);
  })();
  return tarball;
}

export interface ConsumerApp {
  readonly dir: string;
  remove(): Promise<void>;
}

/** A fresh copy of test/fixtures/consumers/<name> with the packed package installed in its node_modules. */
export async function installConsumer(name: string): Promise<ConsumerApp> {
  const tgz = await packedTarball();
  const dir = await mkdtemp(path.join(WORK, `${name}-`));
  await cp(path.join(ROOT, 'test/fixtures/consumers', name), dir, { recursive: true });
  // The Vite apps share one page, whose script is each app's src/main.ts.
  if (name.startsWith('vite-')) await cp(path.join(ROOT, 'test/fixtures/consumers/vite-index.html'), path.join(dir, 'index.html'));
  // Every app's backend mounts the same handlers as the server recipes (docs/recipes.md).
  await cp(path.join(ROOT, 'test/fixtures/recipes/pay.ts'), path.join(dir, 'pay.ts'));
  const target = path.join(dir, 'node_modules/pay-form');
  await mkdir(target, { recursive: true });
  execFileSync('tar', ['-xzf', tgz, '-C', target, '--strip-components=1']);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs a tool from the repository's node_modules/.bin in the app's folder; rejects with its output. */
export function runIn(dir: string, bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin', bin), args, {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/** Opens the page and waits for the sandbox's form inside <pay-form>; gives the page's problems so far
 *  (errors, failed requests), which the caller checks when it is done. */
export async function assertFramed(page: Page, pageUrl: string, sandboxUrl: string): Promise<string[]> {
  const problems = watchPage(page);
  await page.goto(pageUrl);
  const frame = page.frameLocator('pay-form iframe');
  await frame.getByRole('button', { name: 'Pay' }).waitFor({ timeout: 30_000 });
  const src = (await page.locator('pay-form iframe').getAttribute('src')) ?? '';
  assert.equal(new URL(src).origin, new URL(sandboxUrl).origin, 'the form is framed from the sandbox');
  return problems;
}

/** What a built checkout page must show in Chromium: the sandbox's form framed inside <pay-form>
 *  (its Pay button rendered from the service's origin), and the app's own handlers having seen the
 *  element's events (the app lists them in #events). */
export async function assertCheckout(page: Page, pageUrl: string, sandboxUrl: string): Promise<void> {
  const problems = await assertFramed(page, pageUrl, sandboxUrl);
  await page.locator('#events li', { hasText: 'pay-form-ready' }).waitFor({ timeout: 30_000 });
  const seen = await page.locator('#events li').allTextContents();
  assert.ok(seen.includes('pay-form-open'), `the app's handler saw pay-form-open: ${seen.join(', ')}`);
  assert.ok(!seen.includes('pay-form-error'), `no error event: ${seen.join(', ')}`);
  assert.deepEqual(problems, [], 'no page error, console error or failed request');
}
