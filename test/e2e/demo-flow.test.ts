// The demo shop as a shopper uses it with a keyboard: focus lands on a sensible control after paying,
// cancelling or closing; an inline form can be cancelled; the framed return page is closed once the
// page shows the result; and an order already paid cannot be paid again.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { backendCallbacks, launchBrowser, startDemo, verifiedCallback, watchPage, type Demo } from './harness.js';

let demo: Demo;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];

before(async () => {
  demo = await startDemo();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await demo?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  problems = watchPage(page);
});
afterEach(async () => {
  await context.close();
});

const frame = () => page.frameLocator('pay-form iframe');
const focused = () => page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? null);
const frames = () => page.locator('pay-form iframe').count();

/** Opens the shop, picks the display, presses Pay; returns the order_ref the shop created. */
async function checkout(display: 'inline' | 'modal'): Promise<string> {
  await page.goto(`${demo.url}/`);
  await page.locator('#pay:enabled').waitFor();
  await page.locator(`input[name=display][value=${display}]`).check();
  const order = page.waitForResponse((r) => r.url().endsWith('/api/checkout/orders'));
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  return ((await (await order).json()) as { order_ref: string }).order_ref;
}

test('inline: after paying, the return page is closed, the result shown, and focus is on Pay', async () => {
  const orderRef = await checkout('inline');
  await frame().getByRole('button', { name: 'Pay' }).click();
  await page.locator('#result').filter({ hasText: 'Payment successful' }).waitFor();
  await page.waitForFunction(() => document.querySelector('pay-form')?.shadowRoot?.querySelector('iframe') === null);
  assert.equal(await frames(), 0, 'the framed return page is gone');
  assert.equal(await page.locator('#result').textContent(), 'Payment successful', 'the result stays');
  assert.equal(await focused(), 'pay');
  await verifiedCallback(demo, orderRef, 'success');
  assert.deepEqual(problems, []);
});

test('inline: Cancel payment closes the open form, says so, pays nothing, and focuses Pay', async () => {
  const orderRef = await checkout('inline');
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  const cancel = page.getByRole('button', { name: 'Cancel payment' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await page.locator('#result').filter({ hasText: 'Payment cancelled' }).waitFor();
  assert.equal(await frames(), 0);
  assert.equal(await cancel.isHidden(), true);
  assert.equal(await focused(), 'pay');
  assert.deepEqual((await backendCallbacks(demo)).filter((c) => c.request_id === orderRef), []);
  assert.deepEqual(problems, []);
});

test('modal: Close hands focus to Pay, not to <body>', async () => {
  await checkout('modal');
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Cancel payment' }).isHidden(), true, 'the modal has its own Close');
  await page.getByRole('button', { name: 'Close' }).click();
  await page.locator('#result').filter({ hasText: 'Payment window closed' }).waitFor();
  assert.equal(await focused(), 'pay');
  assert.deepEqual(problems, []);
});

test('modal: after paying, the dialog is closed, the result stays, and focus is on Pay', async () => {
  const orderRef = await checkout('modal');
  await frame().getByRole('button', { name: 'Pay' }).click();
  await page.locator('#result').filter({ hasText: 'Payment successful' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('pay-form')?.shadowRoot?.querySelector('dialog[open]'));
  assert.equal(await page.locator('#result').textContent(), 'Payment successful');
  assert.equal(await focused(), 'pay');
  await verifiedCallback(demo, orderRef, 'success');
  assert.deepEqual(problems, []);
});

test('script-tag page: the fixed order, once paid, is refused a second token: one invoice, one callback', async () => {
  await page.goto(`${demo.url}/demo/script-tag.html`);
  await frame().getByRole('button', { name: 'Pay' }).click();
  await page.locator('#result').filter({ hasText: 'Payment successful' }).waitFor();
  await verifiedCallback(demo, 'demo-beans-usd', 'success');
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/checkout/token'));
  await page.reload();
  assert.equal((await refused).status(), 409);
  await page.waitForFunction(() => (document.querySelector('pay-form') as (Element & { state?: string }) | null)?.state === 'error');
  assert.equal(await frames(), 0, 'no form for a paid order');
  assert.deepEqual((await backendCallbacks(demo)).filter((c) => c.request_id === 'demo-beans-usd').map((c) => c.status), ['success']);
  // The refusal itself is the one expected failed request.
  assert.deepEqual(problems.filter((p) => !/HTTP 409 .*\/api\/checkout\/token$/.test(p)), []);
});
