// `npm run screenshots`: the README's pictures of the demo, taken with the end-to-end tooling (the
// real demo, the sandbox, Chromium) so they show what `npm start` shows.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launchBrowser, startDemo } from './harness.js';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

async function main(): Promise<void> {
  await mkdir(DOCS, { recursive: true });
  const demo = await startDemo();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const frame = page.frameLocator('pay-form iframe');
    const open = async (display: string, product: string) => {
      await page.goto(`${demo.url}/`);
      await page.locator('#pay:enabled').waitFor();
      await page.locator('select[name=product]').selectOption(product);
      await page.locator('select[name=currency]').selectOption('EUR');
      await page.locator(`input[name=display][value=${display}]`).check();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await frame.getByRole('button', { name: 'Pay' }).waitFor();
    };

    await open('inline', 'grinder');
    await page.screenshot({ path: `${DOCS}demo-inline.png`, fullPage: true });
    await frame.getByRole('button', { name: 'Pay' }).click();
    await page.locator('#callbacks li').first().waitFor();
    await page.getByText('Payment confirmed by the shop').waitFor();
    await page.screenshot({ path: `${DOCS}demo-success.png`, fullPage: true });

    await open('modal', 'beans');
    await page.screenshot({ path: `${DOCS}demo-modal.png` });

    const phone = await browser.newPage({ viewport: { width: 390, height: 640 } });
    await phone.goto(`${demo.url}/`);
    await phone.locator('#pay:enabled').waitFor();
    await phone.locator('input[name=display][value=redirect]').check();
    await phone.getByRole('button', { name: 'Pay', exact: true }).click();
    await phone.getByRole('button', { name: 'Decline' }).waitFor();
    await phone.screenshot({ path: `${DOCS}sandbox-form.png` });
    console.log(`screenshots written to ${DOCS}`);
  } finally {
    await browser.close();
    await demo.close();
  }
}

await main();
