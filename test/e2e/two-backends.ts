// Two merchant backends (test/support/servers/callback-worker.ts processes) on one real Redis, the built
// sandbox as the service, and Chromium as the shopper: the setup the multi-process checkout tests share.
// A takes the sandbox's callbacks; both serve the page, the token and the status endpoint.
import type { Browser, Page } from 'playwright-core';
import { startWorker, type Worker } from '../support/servers/callback-workers.js';
import { startRedis, type RedisServer } from '../support/redis/redis.js';
import { builtSandbox, freePort, SANDBOX_MERCHANT } from '../support/apps/recipes.js';
import { launchBrowser } from './harness.js';

type Sandbox = Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;

export interface TwoBackends {
  redis: RedisServer;
  sandbox: Sandbox;
  a: Worker;
  b: Worker;
  browser: Browser;
  close(): Promise<void>;
}

/** `prefix`: the Redis key prefix of this file's orders; `onA`: more settings for A (a slow onStatus, say). */
export async function startTwoBackends(prefix: string, onA: Record<string, string> = {}): Promise<TwoBackends> {
  const redis = await startRedis();
  // A's port is chosen before the sandbox starts, since the sandbox is told where to call back.
  const port = await freePort();
  const sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT, callbackUrl: `http://127.0.0.1:${port}/callback` });
  const service = { REDIS_URL: redis.url, PREFIX: prefix, SECRET: SANDBOX_MERCHANT.secret, SERVICE_URL: sandbox.url, MERCHANT_ID: SANDBOX_MERCHANT.merchantId };
  const a = await startWorker({ ...service, ...onA, PORT: String(port) });
  const b = await startWorker(service);
  const browser = await launchBrowser();
  return {
    redis, sandbox, a, b, browser,
    close: async () => {
      await browser.close();
      await sandbox.close();
      await Promise.all([a.kill(), b.kill()]);
      await redis.stop();
    },
  };
}

type Seen = Array<{ type: string; detail: Record<string, unknown> }>;

/** Records every pay-form-ready, -settled and -error of the page's documents, in order (before it loads). */
export async function recordEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: Seen = [];
    (window as unknown as { seen: Seen }).seen = log;
    for (const type of ['pay-form-ready', 'pay-form-settled', 'pay-form-error']) {
      document.addEventListener(type, (event) => log.push({ type, detail: (event as CustomEvent<Record<string, unknown>>).detail }));
    }
  });
}

/** The recorded events of one type, in order. */
export async function eventsOf(page: Page, type: string): Promise<Seen> {
  return (await page.evaluate(() => (window as unknown as { seen: Seen }).seen)).filter((e) => e.type === type);
}

/** Resolves once the page has recorded `count` events of `type`. */
export async function waitForEvents(page: Page, type: string, count = 1): Promise<void> {
  await page.waitForFunction(([t, n]) => (window as unknown as { seen: Seen }).seen.filter((e) => e.type === t).length >= n, [type, count] as const, { timeout: 30_000 });
}
