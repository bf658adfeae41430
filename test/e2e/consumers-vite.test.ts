// Vite + Vue, Vite + Svelte and Vite + React apps built for production (`vite build`) against the
// packed package, served as static files beside a token endpoint, and opened in Chromium against the
// sandbox: the form is framed and the app's event handlers run. A production build is where a dropped
// side-effect import shows (the dev server hides it).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { toNodeHandler } from 'pay-form/server';
import { payHandlers } from '../fixtures/recipes/pay.js';
import { assertCheckout, installConsumer, runIn } from '../support/apps/consumers.js';
import { builtSandbox, SANDBOX_MERCHANT } from '../support/apps/recipes.js';
import { launchBrowser } from './harness.js';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** The built app's files, and the shop's token endpoint at /api/pay-token. */
async function serveApp(dist: string, sandboxUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const token = toNodeHandler(payHandlers({ baseUrl: sandboxUrl, ...SANDBOX_MERCHANT }).token);
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://app.invalid');
    if (pathname === '/api/pay-token') return token(req, res);
    const file = path.join(dist, pathname === '/' ? 'index.html' : path.normalize(pathname));
    if (!file.startsWith(dist)) return res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('production builds of Vite apps from the packed package', () => {
  let browser: Browser;
  let sandbox: Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;
  before(async () => {
    browser = await launchBrowser();
    sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT });
  });
  after(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  for (const [framework, name] of [
    ['Vue 3', 'vite-vue'],
    ['Svelte 5', 'vite-svelte'],
    ['React 19', 'vite-react'],
  ] as const) {
    test(`Vite + ${framework} (test/fixtures/consumers/${name}): vite build, then the form framed and an event handled`, async () => {
      const app = await installConsumer(name);
      try {
        await runIn(app.dir, 'vite', ['build', '--logLevel', 'warn']);
        const served = await serveApp(path.join(app.dir, 'dist'), sandbox.url);
        const page = await browser.newPage();
        try {
          await assertCheckout(page, `${served.url}/?service=${encodeURIComponent(sandbox.url)}`, sandbox.url);
        } finally {
          await page.close();
          await served.close();
        }
      } finally {
        await app.remove();
      }
    });
  }
});
