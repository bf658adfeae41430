// The end-to-end harness: the real demo (Vite with vite.config.ts and its backend plugin, which
// starts the sandbox) on a free port, and Chromium through playwright-core, started the project's way
// (test/support/browsers/engines.mjs; test/support/browsers/engine-page.ts drives the other engines).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, beforeEach } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { chromiumLaunchOptions } from '../support/browsers/engines.mjs';
import { waitUntil, watchProblems, type EnginePage, type WatchedPage } from '../support/browsers/engine-page.js';
import type { CallbackLogEntry } from '../../demo/backend.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Demo {
  /** The shop's origin, http://localhost:{port} (the sandbox is on 127.0.0.1, another origin). */
  url: string;
  /** The payment service's base URL, as the shop's config gives it to the page. */
  baseUrl: string;
  server: ViteDevServer;
  close(): Promise<void>;
}

/** `env`: the PAY_FORM_* settings, in place of the caller's (so a shell's variables never leak in). */
export async function startDemo(env: Record<string, string> = {}): Promise<Demo> {
  // The plugin reads its settings when the server starts: a free port for the sandbox by default.
  for (const name of Object.keys(process.env)) if (name.startsWith('PAY_FORM_')) delete process.env[name];
  Object.assign(process.env, { PAY_FORM_SANDBOX_PORT: '0' }, env);
  const server = await createServer({
    root: ROOT,
    configFile: `${ROOT}vite.config.ts`,
    server: { port: 0, strictPort: false, open: false, hmr: false },
    logLevel: 'warn',
    clearScreen: false,
  });
  await server.listen();
  const { port } = server.httpServer?.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  const config = (await (await fetch(`${url}/api/checkout/config`)).json()) as { base_url: string };
  return { url, baseUrl: config.base_url, server, close: () => server.close() };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions());
}

/**
 * Page errors, console errors and failed or refused requests on a page (test/support/browsers/engine-page.ts).
 * The browser's own favicon probe is the one request allowed to miss: the consumer apps have no icon
 * (the demo's pages have theirs, which engines.test.ts holds them to).
 */
export function watchPage(page: Page): string[] {
  return watchProblems(page as unknown as WatchedPage, { ignored: (url) => new URL(url).pathname === '/favicon.ico' });
}

/** The page of the running test, and what watchPage has seen on it so far. */
export interface TestPage {
  readonly page: Page;
  readonly problems: string[];
}

/**
 * Each test in the file gets a fresh context and page (20 s default timeout, watched by watchPage);
 * after it the context closes and the test fails on any page error, console error or failed request.
 */
export function pagePerTest(browser: () => Browser): TestPage {
  let context: BrowserContext | undefined;
  const current = { page: undefined as unknown as Page, problems: [] as string[] };
  beforeEach(async () => {
    context = await browser().newContext();
    current.page = await context.newPage();
    current.page.setDefaultTimeout(20_000);
    current.problems = watchPage(current.page);
  });
  afterEach(async () => {
    await context?.close();
    assert.deepEqual(current.problems, [], 'no page errors and no console errors');
  });
  return current;
}

/**
 * What `start` serves (the demo, a cluster) and a browser for the whole file, started before its tests
 * and closed after, and a fresh page per test.
 */
export function servedPerFile<T extends { close(): unknown }>(start: () => Promise<T>): { served(): T; browser(): Browser; current: TestPage } {
  let served: T | undefined;
  let browser: Browser | undefined;
  before(async () => {
    served = await start();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await served?.close();
  });
  const started = <V>(value: V | undefined): V => value ?? assert.fail('the server and the browser start before the tests');
  return { served: () => started(served), browser: () => started(browser), current: pagePerTest(() => started(browser)) };
}

/** The demo and a browser for the whole file, and a fresh page per test. */
export function demoPerFile(): { demo(): Demo; browser(): Browser; current: TestPage } {
  const { served, ...rest } = servedPerFile(startDemo);
  return { demo: served, ...rest };
}

/** Answers of the shop's own endpoints, read as they pass (their bodies are gone once the page navigates). */
export async function recordAnswers(page: Page, path: string): Promise<Record<string, unknown>[]> {
  const answers: Record<string, unknown>[] = [];
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    answers.push({ request: route.request().postDataJSON() as unknown, answer: JSON.parse(body) as unknown });
    await route.fulfill({ response, body });
  });
  return answers;
}

/** The demo backend's callback log as the page's shopper reads it, with the page's cookies (only
 *  callbacks whose signature it verified reach it, and only this shopper's are shown). */
export async function backendCallbacks(demo: Demo, page: Page | EnginePage): Promise<CallbackLogEntry[]> {
  const url = `${demo.url}/api/checkout/callbacks`;
  if ('request' in page) return (await (await page.request.get(url)).json()) as CallbackLogEntry[];
  // In any engine: asked by the page itself, with its shopper's cookie (the page must be on the shop's origin).
  return page.evaluate((url) => fetch(url).then((r) => r.json() as Promise<CallbackLogEntry[]>), url);
}

/** The one callback for an order, as the shop's backend logged it after verifying its signature. */
export async function verifiedCallback(demo: Demo, page: Page | EnginePage, orderRef: string, status: string): Promise<CallbackLogEntry> {
  for (let i = 0; i < 100; i++) {
    const found = (await backendCallbacks(demo, page)).filter((c) => c.order_ref === orderRef);
    if (found.length) {
      assert.deepEqual(found.map((c) => c.status), [status], 'one verified callback with the status');
      return found[0] as CallbackLogEntry;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`no callback reached the demo backend for ${orderRef}`);
}

export type ShopDisplay = 'inline' | 'modal' | 'redirect';

/** In any engine: opens the shop, picks the product (and currency) and the display, and presses Pay. */
export async function checkoutIn(page: EnginePage, demo: Demo, choices: { product: string; currency?: string; display: ShopDisplay }): Promise<void> {
  await page.goto(`${demo.url}/`);
  await waitUntil(page, () => !(document.querySelector('#pay') as HTMLButtonElement).disabled, null, 'the shop to load');
  await page.evaluate(({ product, currency }) => {
    for (const [name, value] of Object.entries({ product, currency })) {
      const select = document.querySelector<HTMLSelectElement>(`select[name=${name}]`);
      if (!select || value === undefined) continue;
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, choices);
  await page.click({ css: `input[name=display][value=${choices.display}]` });
  await page.click({ css: '#pay' });
}

/** In any engine: waits until an element matching `selector` holds `text`. */
export async function waitForText(page: EnginePage, selector: string, text: string): Promise<void> {
  await waitUntil(page, ({ selector, text }) => [...document.querySelectorAll(selector)].some((e) => e.textContent?.includes(text)), { selector, text }, `"${text}" in ${selector}`);
}
