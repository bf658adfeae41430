// `npm run screenshots`: the docs' pictures of the demo, taken with the end-to-end tooling (the real
// demo, the sandbox) in each engine (TEST_ENGINES picks some), so they show what `npm start` shows
// there: docs/demo-{inline,success,modal,return}.png from Chromium, the same with -firefox and -webkit
// from the other two, and docs/sandbox-form.png (Chromium, a phone-sized window).
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { selectedEngines, type Engine } from '../support/browsers/engines.mjs';
import { launchEngine, waitUntil, type EngineBrowser } from '../support/browsers/engine-page.js';
import { checkoutIn, startDemo, waitForText, type Demo } from './harness.js';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

async function pictures(engine: Engine, browser: EngineBrowser, demo: Demo): Promise<void> {
  const file = (name: string) => `${DOCS}${name}${engine === 'chromium' ? '' : `-${engine}`}.png`;
  // The form's own focus ring and the caret blink differ run to run: wait for the page to settle.
  const still = () => new Promise((resolve) => setTimeout(resolve, 500));
  const page = await browser.newPage({ width: 1280, height: 900 });
  try {
    await checkoutIn(page, demo, { product: 'grinder', currency: 'EUR', display: 'inline' });
    await waitForText(page, '#events li', 'pay-form-ready');
    await still();
    await page.screenshot(file('demo-inline'));
    await page.click({ button: 'Pay', in: 'form' });
    await waitForText(page, '#confirmed', 'Payment confirmed by the shop');
    await waitForText(page, '#callbacks li', 'success');
    await page.evaluate(() => scrollTo(0, 0), null);
    await still();
    await page.screenshot(file('demo-success'));

    await checkoutIn(page, demo, { product: 'beans', currency: 'EUR', display: 'modal' });
    await waitForText(page, '#events li', 'pay-form-ready');
    await still();
    await page.screenshot(file('demo-modal'));

    await checkoutIn(page, demo, { product: 'mug', currency: 'EUR', display: 'redirect' });
    await page.click({ button: 'Decline' });
    await waitUntil(page, () => location.pathname === '/demo/return.html', null, 'the return page');
    await waitForText(page, '#confirmed', 'The shop recorded the payment as declined');
    await still();
    await page.screenshot(file('demo-return'));
  } finally {
    await page.close();
  }
  if (engine !== 'chromium') return;
  const phone = await browser.newPage({ width: 390, height: 640 });
  try {
    await checkoutIn(phone, demo, { product: 'beans', display: 'redirect' });
    await waitUntil(phone, () => document.querySelector('button.decline') !== null, null, "the sandbox's form");
    await phone.screenshot(`${DOCS}sandbox-form.png`);
  } finally {
    await phone.close();
  }
}

async function main(): Promise<void> {
  await mkdir(DOCS, { recursive: true });
  // A demo of its own per engine, so each picture lists that engine's callbacks only.
  for (const engine of selectedEngines()) {
    const demo = await startDemo();
    const browser = await launchEngine(engine).catch(async (error: unknown) => {
      await demo.close();
      throw error;
    });
    try {
      await pictures(engine, browser, demo);
    } finally {
      await browser.close();
      await demo.close();
    }
  }
  console.log(`screenshots written to ${DOCS}`);
}

await main();
