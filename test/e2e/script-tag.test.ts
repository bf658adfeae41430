// demo/script-tag.html: the checkout with HTML attributes only. The page loads the script-tag bundle
// from /dist/pay-form.min.js, which `npm run build` writes; so that this test does not depend on a
// build having run, the browser is handed a bundle of src/element/index.ts made here with esbuild (the
// project's own dev dependency) at that address. What it proves is the page: attributes alone, the
// base URL filled in by the backend, and the fixed order paid through the sandbox.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { launchBrowser, startDemo, verifiedCallback, watchPage, type Demo } from './harness.js';

let demo: Demo;
let browser: Browser;
let bundle: string;

before(async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/element/index.ts', import.meta.url))],
    bundle: true, format: 'esm', minify: true, write: false, target: 'es2022',
  });
  bundle = result.outputFiles[0]?.text ?? '';
  demo = await startDemo();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await demo?.close();
});

test('the script-tag page pays the fixed order with attributes alone, and the callback arrives', async () => {
  const page = await browser.newPage();
  const problems = watchPage(page);
  await page.route('**/dist/pay-form.min.js', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: bundle }));
  await page.goto(`${demo.url}/demo/script-tag.html`);

  const element = page.locator('pay-form');
  assert.equal(await element.getAttribute('base-url'), demo.baseUrl, 'the backend filled in the base URL');
  assert.equal(await element.getAttribute('order-ref'), 'demo-beans-usd');

  const frame = page.frameLocator('pay-form iframe');
  assert.equal(await frame.locator('[data-testid=amount]').textContent(), '$24.90');
  await frame.getByRole('button', { name: 'Pay' }).click();
  await frame.getByText('Payment successful').waitFor();
  await page.locator('#result').filter({ hasText: 'Payment successful' }).waitFor();
  await verifiedCallback(demo, page, 'demo-beans-usd', 'success');
  assert.deepEqual(problems, []);
  await page.close();
});
