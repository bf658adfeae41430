// The README followed word for word. Its server example (the TypeScript block under "## Server") is
// written as server.ts and run as its own process (tsx) against the sandbox; its element example (the
// HTML block under "## The <pay-form> element") is public/index.html, loading the script-tag bundle by
// the README's own tag and hash. Only what a merchant fills in differs: the service's address (the
// sandbox's) in base-url, and the bundle served from public/ instead of the CDN. Chromium opens the page
// as the README's shopper (the session cookie its stand-in reads), pays in the framed form, and the
// page gets pay-form-settled with no return page; opened again, the paid order is order-paid.
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { section } from '../../scripts/readme.js';
import { distFile, root } from '../node/package/dist.js';
import { builtSandbox, freePort, SANDBOX_MERCHANT, startRecipe, type RunningRecipe } from '../support/apps/recipes.js';
import { launchBrowser, watchPage } from './harness.js';

const ROOT = root.pathname;
const readme = await readFile(new URL('README.md', root), 'utf8');
const fenced = (text: string, lang: string) => new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(text)?.[1];

/** The page: the README's ES module script tag (served from public/) and its element example. */
function readmePage(): string {
  const tags = fenced(section(readme, '### Script tag'), 'html') ?? '';
  const moduleTag = /<script type="module" src="[^"]*\/pay-form\.min\.js"[\s\S]*?<\/script>/.exec(tags)?.[0];
  const element = fenced(section(readme, '## The `<pay-form>` element'), 'html');
  assert.ok(moduleTag && element, "the README's script tag and element example");
  // The service's address is set once, on the server's PaymentClient: the token answer names it.
  assert.equal(/https?:\/\//.test(element), false, 'no address in the element example');
  const script = moduleTag.replace(/src="[^"]+"/, 'src="/pay-form.min.js"');
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Checkout</title>\n${script}\n</head>\n<body>\n${element}\n</body>\n</html>\n`;
}

let dir: string;
let sandbox: Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;
let server: RunningRecipe;
let browser: Browser;

before(async () => {
  const port = await freePort();
  sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT, callbackUrl: `http://127.0.0.1:${port}/api/pay-callback` });
  await mkdir(path.join(ROOT, '.consumers'), { recursive: true });
  // Inside the repository: `pay-form` is the package itself (its build) and express comes from node_modules.
  dir = await mkdtemp(path.join(ROOT, '.consumers', 'readme-'));
  const serverTs = fenced(section(readme, '## Server'), 'ts');
  assert.ok(serverTs, "the README's server example");
  await writeFile(path.join(dir, 'server.ts'), `${serverTs}\n`);
  await mkdir(path.join(dir, 'public'));
  await writeFile(path.join(dir, 'public/index.html'), readmePage());
  await copyFile(distFile('pay-form.min.js'), path.join(dir, 'public/pay-form.min.js'));
  server = await startRecipe({ command: process.execPath, args: ['--import', 'tsx', 'server.ts'], port, cwd: dir }, sandbox.url);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the README's server and element examples, word for word against the sandbox: paid in the form, pay-form-settled with the new invoice and no return page; opened again, order-paid and no token request", async () => {
  const context = await browser.newContext();
  try {
    // The README's session stand-in: a cookie names the shopper, and ORDER-42 is alice's.
    await context.addCookies([{ name: 'shopper', value: 'alice', url: server.url }]);
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.addInitScript(() => {
      const seen: Array<{ type: string; detail: unknown }> = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      for (const type of ['pay-form-ready', 'pay-form-success', 'pay-form-settled', 'pay-form-error']) {
        document.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }));
      }
    });
    const seen = () => page.evaluate(() => (window as unknown as { seen: Array<{ type: string; detail: Record<string, unknown> }> }).seen);
    await page.goto(`${server.url}/`);
    // display="modal": the form opens in the element's dialog.
    await page.frameLocator('pay-form iframe').getByRole('button', { name: 'Pay', exact: true }).click({ timeout: 30_000 });
    await page.waitForFunction(() => (window as unknown as { seen: Array<{ type: string }> }).seen.some((e) => e.type === 'pay-form-settled'), null, { timeout: 30_000 });
    const settled = (await seen()).filter((e) => e.type === 'pay-form-settled');
    const paid = sandbox.invoices().filter((invoice) => invoice.request_id.startsWith('ORDER-42~') && invoice.status === 'success');
    assert.equal(paid.length, 1, 'one invoice paid for ORDER-42');
    assert.deepEqual(settled.map((e) => e.detail), [{ status: 'success', invoice_id: paid[0]!.invoice_id }]);
    assert.equal(await page.locator('pay-form').getAttribute('state'), 'success');

    const tokens = () => sandbox.requests().filter((r) => r.path === '/api/jsapi/obtain_token/').length;
    const before = tokens();
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { seen: Array<{ type: string }> }).seen.some((e) => e.type === 'pay-form-error'), null, { timeout: 30_000 });
    assert.deepEqual((await seen()).find((e) => e.type === 'pay-form-error')?.detail, { code: 'order-paid', message: 'order already paid' });
    assert.equal(tokens(), before, 'no token request for the paid order');
    // Besides the paid order's one refusal (the token route's 409, which the element reads as order-paid): nothing.
    assert.deepEqual(problems.filter((p) => !/^HTTP 409 \S+\/api\/pay-token$/.test(p)), [], 'no page errors, console errors or failed requests');
  } finally {
    await context.close();
  }
});
