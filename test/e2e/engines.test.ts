// The demo's flows in each engine (Chromium, Firefox ESR, WebKitGTK; TEST_ENGINES picks some): inline
// Pay and Decline, modal Pay and Close, and the redirect flow back to the return page, which waits for
// the shop's verified word. Each checks what the person sees and the callback the shop verified;
// checkout.test.ts goes deeper in Chromium alone.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { selectedEngines } from '../support/browsers/engines.mjs';
import { ENGINE_NAMES, launchEngine, waitUntil, type EngineBrowser, type EnginePage } from '../support/browsers/engine-page.js';
import { backendCallbacks, checkoutIn, startDemo, verifiedCallback, waitForText, type Demo, type ShopDisplay } from './harness.js';

let demo: Demo;
before(async () => {
  demo = await startDemo();
});
after(() => demo?.close());

/** The names of the element events the page listed, in order. */
const eventNames = (page: EnginePage) =>
  page.evaluate(() => [...document.querySelectorAll('#events li')].map((li) => li.firstChild?.textContent ?? '').filter((n) => n.startsWith('pay-form-')), null);

const checkout = (page: EnginePage, product: string, display: ShopDisplay) => checkoutIn(page, demo, { product, display });

/** The order the shop created for the last Pay, as the shop's page keeps it for its return page. */
async function orderRef(page: EnginePage): Promise<string> {
  await waitUntil(page, () => sessionStorage.getItem('pay-form-demo-order'), null, 'the order');
  return page.evaluate(() => sessionStorage.getItem('pay-form-demo-order') ?? '', null);
}

for (const engine of selectedEngines()) {
  describe(ENGINE_NAMES[engine], () => {
    let browser: EngineBrowser;
    let page: EnginePage;
    before(async () => {
      browser = await launchEngine(engine);
    });
    after(() => browser?.close());
    beforeEach(async () => {
      page = await browser.newPage();
    });
    afterEach(async () => {
      const problems = page.problems();
      await page.close();
      // Page errors, console errors and warnings (Lit's development build warns), 404s (a missing favicon).
      if (problems !== null) assert.deepEqual(problems, [], 'no page errors, console errors or warnings, or failed requests');
    });

    test('inline: the form comes into view, focus stays on Pay; Pay ends in "Payment successful", confirmed by the shop', async () => {
      await checkout(page, 'grinder', 'inline');
      await waitForText(page, '#events li', 'pay-form-ready');
      // The form is below the shop's fields: the page brings it into view; focus stays on Pay, not <body>.
      await waitUntil(page, () => {
        const box = document.querySelector('pay-form')!.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight + 1 && document.activeElement?.id === 'pay';
      }, null, 'the form in view, focus on Pay');
      await page.click({ button: 'Pay', in: 'form' });
      await waitForText(page, '#result', 'Payment successful');
      await waitForText(page, '#confirmed', 'Payment confirmed by the shop');
      // The shop closes the form at the first outcome: the return page's result, or the verified status
      // (asked for from the moment the form is shown), whichever comes first; ready always comes before.
      // A verified success first removes the form itself: nothing left to close, no late result.
      const names = await eventNames(page);
      const endings = [
        ['pay-form-open', 'pay-form-ready', 'pay-form-success', 'pay-form-close', 'pay-form-settled'],
        ['pay-form-open', 'pay-form-ready', 'pay-form-settled'],
      ];
      assert.ok(endings.some((ending) => JSON.stringify(ending) === JSON.stringify(names)), names.join(', '));
      assert.equal((await verifiedCallback(demo, page, await orderRef(page), 'success')).amount, 8900);
    });

    test('inline: Decline ends in "Payment failed" in plain words, and a verified fail callback', async () => {
      await checkout(page, 'mug', 'inline');
      await page.click({ button: 'Decline', in: 'form' });
      await waitForText(page, '#result', 'Payment failed');
      await waitForText(page, '#confirmed', 'The shop recorded the payment as declined');
      await verifiedCallback(demo, page, await orderRef(page), 'fail');
    });

    test('modal: paying in the dialog ends in success and a verified callback', async () => {
      await checkout(page, 'beans', 'modal');
      await page.click({ button: 'Pay', in: 'form' });
      await waitForText(page, '#result', 'Payment successful');
      await waitUntil(page, () => !document.querySelector('pay-form')?.shadowRoot?.querySelector('dialog[open]'), null, 'the dialog closed');
      await verifiedCallback(demo, page, await orderRef(page), 'success');
    });

    test('modal: Close dismisses the form; focus returns to Pay and no callback comes', async () => {
      await checkout(page, 'mug', 'modal');
      const order = await orderRef(page);
      await waitForText(page, '#events li', 'pay-form-ready');
      await page.click({ button: 'Close' });
      await waitForText(page, '#result', 'Payment window closed');
      assert.equal(await page.evaluate(() => document.activeElement?.id ?? null, null), 'pay');
      assert.equal(await page.evaluate(() => document.querySelector('pay-form')?.shadowRoot?.querySelector('iframe') ?? null, null), null);
      assert.deepEqual((await backendCallbacks(demo, page)).filter((c) => c.request_id === order), []);
    });

    test('redirect: the page goes to the form; Pay returns to the shop, which confirms the payment', async () => {
      await checkout(page, 'grinder', 'redirect');
      await waitUntil(page, (base) => location.href.startsWith(`${base}/api/jsapi/open/`), demo.baseUrl, 'the form page');
      await page.click({ button: 'Pay' });
      await waitUntil(page, (url) => location.href === url, `${demo.url}/demo/return.html?status=success`, 'the return page');
      await waitForText(page, 'h1', 'Payment successful');
      await waitForText(page, '#confirmed', 'Payment confirmed by the shop');
      // Said once each: the heading, then the shop's word; the element asking for it shows no words of its own.
      const said = await page.evaluate(() => ({
        paragraphs: [...document.querySelectorAll('main p')].map((p) => p.textContent?.trim()).filter(Boolean),
        element: document.querySelector('pay-form')?.shadowRoot?.textContent?.trim() ?? '',
      }), null);
      assert.deepEqual(said, { paragraphs: ['Payment confirmed by the shop', 'Back to the shop'], element: '' });
      await verifiedCallback(demo, page, await orderRef(page), 'success');
    });
  });
}
