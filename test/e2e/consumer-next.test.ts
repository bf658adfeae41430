// A Next.js App Router app built for production (`next build`, then `next start`) from the packed
// package and from docs/frameworks.md's own text: each `<!-- next: PATH -->` block of the page is written
// into test/fixtures/consumers/next (which holds only the layout and the pages), and the app is built with no
// PAY_* variable in the environment. Then: the route handlers' scripted requests (the server recipes'),
// a checkout paid in Chromium against the sandbox that settles with no return page (the status route
// answers what the callback route recorded: one store), the paid order refused as order-paid without a
// token request reaching the service, and PayFormReact from a Server Component.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { docBlocks } from '../support/apps/doc-blocks.js';
import { assertFramed, installConsumer, runIn, type ConsumerApp } from '../support/apps/consumers.js';
import { assertScenario, builtSandbox, HANDLED_LINE, driveRecipe, freePort, SANDBOX_MERCHANT, startRecipe, type RunningRecipe, type Scenario } from '../support/apps/recipes.js';
import { launchBrowser } from './harness.js';

const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };
const PAY_ENV = { PAY_MERCHANT_ID: SANDBOX_MERCHANT.merchantId, PAY_SECRET: SANDBOX_MERCHANT.secret };

describe('Next.js App Router from docs/frameworks.md, production build from the packed package', () => {
  let browser: Browser;
  let sandbox: Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;
  let app: ConsumerApp;
  let server: RunningRecipe;
  let scenario: Scenario;
  let written: string[];

  before(async () => {
    assert.deepEqual(Object.keys(process.env).filter((name) => name.startsWith('PAY_')), [], 'no PAY_* variable in the environment');
    const port = await freePort();
    sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT, callbackUrl: `http://127.0.0.1:${port}/api/pay-callback` });
    app = await installConsumer('next');
    const blocks = (await docBlocks()).filter((block) => block.kind === 'next');
    written = blocks.map((block) => block.file);
    for (const block of blocks) {
      await mkdir(path.dirname(path.join(app.dir, block.file)), { recursive: true });
      await writeFile(path.join(app.dir, block.file), `${block.text}\n`);
    }
    // The build loads every route module: with no secret anywhere, it passes only if the handlers wait for a request.
    await runIn(app.dir, 'next', ['build'], NEXT_ENV);
    const next = new URL('../../node_modules/.bin/next', import.meta.url).pathname;
    server = await startRecipe({ command: next, args: ['start', '-p', String(port), '-H', '127.0.0.1'], port, cwd: app.dir, env: { ...NEXT_ENV, ...PAY_ENV } }, sandbox.url);
    scenario = await driveRecipe(server, sandbox);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sandbox?.close();
    await app?.remove();
  });

  test('the app is the page\'s text: the checkout component and the token, callback and status routes', () => {
    assert.deepEqual(written.sort(), ['app/api/pay-callback/route.ts', 'app/api/pay-status/route.ts', 'app/api/pay-token/route.ts', 'app/api/pay.ts', 'app/checkout.tsx']);
  });

  test('route handlers: a token, malformed JSON, a signed callback and its repeat, the verified status, the paid order refused', async () => {
    assertScenario(scenario, await server.printedOnceSeen(HANDLED_LINE));
  });

  test('a checkout paid in the framed form settles with no return page ("Payment confirmed"); opened again, the order is already paid and the service gets no token request', async () => {
    const page = await browser.newPage();
    try {
      const problems = await assertFramed(page, `${server.url}/?service=${encodeURIComponent(sandbox.url)}&order=order-2`, sandbox.url);
      await page.frameLocator('pay-form iframe').getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Payment confirmed' }).waitFor({ timeout: 30_000 });
      assert.deepEqual(problems, [], 'no page error, console error or failed request');
      const tokens = () => sandbox.requests().filter((r) => r.path === '/api/jsapi/obtain_token/').length;
      const before = tokens();
      // Opened again: the token route answers 409 { paid: true } (the browser logs that status).
      await page.reload();
      await page.getByRole('status').filter({ hasText: 'This order is already paid' }).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('pay-form').getAttribute('state'), 'error');
      assert.equal(await page.locator('pay-form iframe').count(), 0, 'nothing framed');
      assert.equal(tokens(), before, 'no token request reached the service');
    } finally {
      await page.close();
    }
  });

  // Without 'use client' in pay-form/react this page runs React's hooks in the Server Component and fails.
  test('PayFormReact rendered by a Server Component frames the form', async () => {
    const page = await browser.newPage();
    try {
      const problems = await assertFramed(page, `${server.url}/server-component?service=${encodeURIComponent(sandbox.url)}`, sandbox.url);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  test('PayFormReact is not in the server HTML, so nothing can run or change attributes before React hydrates', async () => {
    const html = await (await fetch(`${server.url}/?service=${encodeURIComponent(sandbox.url)}&order=order-3`)).text();
    assert.ok(html.includes('role="status"'), 'the page was server-rendered');
    assert.ok(!html.includes('<pay-form'), 'no <pay-form> in the server HTML');
  });
});
