// The end-to-end harness: the real demo (Vite with vite.config.ts and its backend plugin, which
// starts the sandbox) on a free port, and Chromium through playwright-core, started the project's way.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, beforeEach } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { launchOptions } from '../support/chromium.mjs';
import type { CallbackLogEntry } from '../../demo/backend.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Demo {
  /** The shop's origin, http://localhost:{port} (the sandbox is on 127.0.0.1, another origin). */
  url: string;
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
  return { url: `http://localhost:${port}`, server, close: () => server.close() };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions());
}

/**
 * Collects page errors, console errors and failed or refused requests, so a broken link in the chain
 * cannot hide. The browser's own favicon probe is the one request allowed to miss.
 */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  const ignored = (url: string) => new URL(url).pathname === '/favicon.ico';
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A refused resource is reported below with its URL.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !ignored(response.url())) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    // A navigation away from a page cancels what it still loads; that is not a failure of the chain.
    if (!ignored(request.url()) && request.failure()?.errorText !== 'net::ERR_ABORTED') {
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
    }
  });
  return problems;
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

/** The demo and a browser for the whole file (started before its tests, closed after), and a fresh page per test. */
export function demoPerFile(): { demo(): Demo; browser(): Browser; current: TestPage } {
  let demo: Demo | undefined;
  let browser: Browser | undefined;
  before(async () => {
    demo = await startDemo();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });
  const started = <T>(value: T | undefined): T => value ?? assert.fail('the demo and the browser start before the tests');
  return { demo: () => started(demo), browser: () => started(browser), current: pagePerTest(() => started(browser)) };
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
export async function backendCallbacks(demo: Demo, page: Page): Promise<CallbackLogEntry[]> {
  return (await (await page.request.get(`${demo.url}/api/checkout/callbacks`)).json()) as CallbackLogEntry[];
}

/** The one callback for an order, as the shop's backend logged it after verifying its signature. */
export async function verifiedCallback(demo: Demo, page: Page, orderRef: string, status: string): Promise<CallbackLogEntry> {
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
