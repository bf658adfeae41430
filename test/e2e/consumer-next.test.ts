// A Next.js App Router app built for production (`next build`, then `next start`) against the packed
// package: a client component page with PayFormReact and its events, PayFormReact in a Server
// Component, and route handlers for the token and the callback (the recipes of
// docs/frameworks.md), opened in Chromium against the sandbox.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertCheckout, assertFramed, installConsumer, runIn, type ConsumerApp } from '../support/consumers.js';
import { assertScenario, builtSandbox, HANDLED_LINE, driveRecipe, freePort, SANDBOX_MERCHANT, startRecipe, type RunningRecipe, type Scenario } from '../support/recipes.js';
import { launchBrowser } from './harness.js';

const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1', PAY_MERCHANT_ID: SANDBOX_MERCHANT.merchantId, PAY_SECRET: SANDBOX_MERCHANT.secret };

describe('Next.js App Router, production build from the packed package', () => {
  let browser: Browser;
  let sandbox: Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;
  let app: ConsumerApp;
  let server: RunningRecipe;
  let scenario: Scenario;

  before(async () => {
    sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT });
    app = await installConsumer('next');
    await runIn(app.dir, 'next', ['build'], { ...NEXT_ENV, PAY_BASE_URL: sandbox.url });
    const port = await freePort();
    const next = new URL('../../node_modules/.bin/next', import.meta.url).pathname;
    server = await startRecipe({ command: next, args: ['start', '-p', String(port), '-H', '127.0.0.1'], port, cwd: app.dir, env: NEXT_ENV }, sandbox.url);
    // The route handlers first, while order-1 has no other token request.
    scenario = await driveRecipe(server, sandbox);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await sandbox?.close();
    await app?.remove();
  });

  test('route handlers (app/api/pay-token, app/api/pay-callback): a token, malformed JSON, a signed callback and its repeat', async () => {
    assertScenario(scenario, await server.printedOnceSeen(HANDLED_LINE));
  });

  test('a client component page with PayFormReact: the form framed, its event handlers run', async () => {
    const page = await browser.newPage();
    try {
      await assertCheckout(page, `${server.url}/?service=${encodeURIComponent(sandbox.url)}`, sandbox.url);
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
    const html = await (await fetch(`${server.url}/?service=${encodeURIComponent(sandbox.url)}`)).text();
    assert.ok(html.includes('<ol id="events">'), 'the page was server-rendered');
    assert.ok(!html.includes('<pay-form'), 'no <pay-form> in the server HTML');
  });
});
