// One way to drive a page in each of the three engines (test/support/browsers/engines.mjs starts them), for the
// end-to-end tests, the screenshots and the benches that run in all three: Playwright's page for
// Chromium, puppeteer-core's (WebDriver BiDi) for Firefox, a WebDriver session for WebKitGTK. It offers
// only what those need: navigate, run a function in the page, click what a person would click (in the
// page, its shadow roots, or the <pay-form>'s cross-origin frame), and take a screenshot.
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { chromiumLaunchOptions, firefoxLaunchOptions, firefoxPage, webkitOptions, type Engine } from './engines.mjs';
import { webKitDriver, type ElementReference } from './webdriver.mjs';
import { poll } from '../poll.js';

export const ENGINE_NAMES: Record<Engine, string> = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };

/**
 * What to click: the first element matching `css`, or the first button whose accessible name (its
 * aria-label, else its text) is `button`, searched through open shadow roots; in the top-level page,
 * or with `in: 'form'` inside the <pay-form>'s frame.
 */
export type Target = ({ css: string } | { button: string }) & { in?: 'form' };

export interface EnginePage {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  /** Runs `fn(arg)` in the top-level page (a function without closures: it is sent as text); its result must be JSON. */
  evaluate<A, T>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T>;
  /** Waits for the target to be there, then clicks it through the engine's input, as a person would. */
  click(target: Target): Promise<void>;
  /** The viewport as a PNG file. */
  screenshot(path: string): Promise<void>;
  /**
   * What went wrong on the page so far (watchProblems, with console warnings), or null where the
   * engine cannot tell: WebKitGTK's driver speaks no WebDriver BiDi, so its console is out of reach.
   */
  problems(): string[] | null;
  close(): Promise<void>;
}

export interface EngineBrowser {
  readonly engine: Engine;
  readonly version: string;
  /** A page of its own (fresh cookies and storage) with a viewport of `width` × `height`. */
  newPage(viewport?: { width: number; height: number }): Promise<EnginePage>;
  close(): Promise<void>;
}

const DEFAULT_VIEWPORT = { width: 1280, height: 900 };

/** Finds a Target in the document it runs in (sent to the page as text). */
function findTarget(target: Target): Element | null {
  const roots: (Document | ShadowRoot)[] = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const node of roots[i]!.querySelectorAll('*')) if (node.shadowRoot) roots.push(node.shadowRoot);
  }
  for (const root of roots) {
    if ('css' in target) {
      const found = root.querySelector(target.css);
      if (found) return found;
      continue;
    }
    for (const button of root.querySelectorAll('button')) {
      if ((button.getAttribute('aria-label') ?? button.textContent ?? '').trim() === target.button) return button;
    }
  }
  return null;
}

/** The <pay-form>'s iframe, found through its shadow root (sent to the page as text). */
function formFrame(): HTMLIFrameElement | null {
  return document.querySelector('pay-form')?.shadowRoot?.querySelector('iframe') ?? null;
}


/** Scrolls the <pay-form>'s iframe into view (sent to the page as text). */
function formFrameInView(): void {
  document.querySelector('pay-form')?.shadowRoot?.querySelector('iframe')?.scrollIntoView({ block: 'center', inline: 'center' });
}

/** Where the <pay-form>'s iframe's content starts in the page's viewport (sent to the page as text). */
function formFrameContent(): { x: number; y: number } {
  const frame = document.querySelector('pay-form')!.shadowRoot!.querySelector('iframe')!;
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return { x: box.x + frame.clientLeft + parseFloat(style.paddingLeft), y: box.y + frame.clientTop + parseFloat(style.paddingTop) };
}

/** Waits until `fn(arg)` is truthy in the page. */
export async function waitUntil<A>(page: EnginePage, fn: (arg: A) => unknown, arg: A, what: string): Promise<void> {
  await poll(async () => ((await page.evaluate(fn, arg)) ? true : null), what);
}

const label = (target: Target) => `${'css' in target ? target.css : `button "${target.button}"`}${target.in ? ' in the form' : ''}`;

/** The page events Playwright and puppeteer both emit, as far as watchProblems reads them. */
export interface WatchedPage {
  on(event: 'pageerror', listener: (error: Error) => void): unknown;
  on(event: 'console', listener: (message: { type(): string; text(): string }) => void): unknown;
  on(event: 'response', listener: (response: { status(): number; url(): string }) => void): unknown;
  on(event: 'requestfailed', listener: (request: FailedRequest) => void): unknown;
  on(event: 'framedetached', listener: (frame: WatchedFrame) => void): unknown;
}
/** Playwright's frames say `isDetached()`, puppeteer's `detached`. */
interface WatchedFrame {
  isDetached?(): boolean;
  readonly detached?: boolean;
}
interface FailedRequest {
  url(): string;
  failure(): { errorText: string } | null;
  frame(): WatchedFrame | null;
}

const isDetached = (frame: WatchedFrame | null) => frame !== null && (frame.isDetached?.() ?? frame.detached === true);

/**
 * How each engine names a request cancelled because its page navigated away or its frame was removed
 * (the shop removes the framed return page once it shows the result): not a failure of the chain.
 * Firefox sometimes names the removed frame's cancelled load NS_ERROR_FAILURE, so a failure in a frame
 * that is gone, or goes soon after, counts as cancelled too.
 */
const ABORTED = /^(net::ERR_ABORTED|NS_BINDING_ABORTED|Browsing context already closed\.)$/;

/**
 * Collects page errors, console errors (and warnings, with `warnings`), answers of 400 and above and
 * failed requests (but those whose URL `ignored` names), so a broken link in the chain cannot hide.
 */
export function watchProblems(page: WatchedPage, { warnings = false, ignored = (_url: string): boolean => false } = {}): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const type = message.type();
    // A refused resource is reported below with its URL.
    if ((type === 'error' || (warnings && type.startsWith('warn'))) && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console ${type}: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !ignored(response.url())) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  // Failures in frames still attached, kept until their frame is removed (which makes them cancellations).
  const pending: { problem: string; frame: WatchedFrame | null }[] = [];
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    const frame = request.frame();
    if (ABORTED.test(error) || ignored(request.url()) || isDetached(frame)) return;
    const problem = `failed: ${request.url()} ${error}`;
    pending.push({ problem, frame });
    problems.push(problem);
  });
  page.on('framedetached', (gone) => {
    for (const { problem, frame } of pending.filter((p) => p.frame === gone)) {
      pending.splice(pending.findIndex((p) => p.problem === problem && p.frame === frame), 1);
      const at = problems.indexOf(problem);
      if (at >= 0) problems.splice(at, 1);
    }
  });
  return problems;
}

/** What Playwright's and puppeteer's pages (and frames) both offer, as far as this file uses it. */
interface ScriptedElement {
  click(): Promise<void>;
  evaluate<R>(fn: (element: Element) => R): Promise<R>;
}
interface ScriptedFrame {
  parentFrame(): ScriptedFrame | null;
  evaluateHandle(fn: typeof findTarget, target: Target): Promise<{ asElement(): ScriptedElement | null }>;
}
interface ScriptedPage extends WatchedPage {
  mouse: { click(x: number, y: number): Promise<unknown> };
  goto(url: string): Promise<unknown>;
  url(): string;
  evaluate(fn: never, arg: unknown): Promise<unknown>;
  frames(): ScriptedFrame[];
  mainFrame(): ScriptedFrame;
  screenshot(options: { path: string }): Promise<unknown>;
}

/** An EnginePage over a Playwright or puppeteer page; `close` ends its browser context. */
function scriptedPage(engine: Engine, page: ScriptedPage, close: () => Promise<void>): EnginePage {
  const problems = watchProblems(page, { warnings: true });
  return {
    engine,
    goto: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    async click(target) {
      const element = await poll(async () => {
        const where = target.in ? page.frames().find((f) => f.parentFrame() === page.mainFrame()) : page.mainFrame();
        return (await where?.evaluateHandle(findTarget, target))?.asElement() ?? null;
      }, label(target));
      try {
        await element.click();
      } catch (error) {
        // puppeteer-core places an element inside a frame with WebDriver BiDi's locateNodes by context,
        // which Firefox ESR 140 lacks: there the same mouse clicks where the frame and the element say.
        if (!target.in || !String(error).includes('locateNodes')) throw error;
        await page.evaluate(formFrameInView as never, undefined);
        const inner = await element.evaluate((el) => {
          el.scrollIntoView({ block: 'center', inline: 'center' });
          const box = el.getBoundingClientRect();
          return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
        });
        const frame = (await page.evaluate(formFrameContent as never, undefined)) as { x: number; y: number };
        await page.mouse.click(frame.x + inner.x, frame.y + inner.y);
      }
    },
    screenshot: async (path) => void (await page.screenshot({ path })),
    problems: () => problems,
    close,
  };
}

export async function launchEngine(engine: Engine): Promise<EngineBrowser> {
  if (engine === 'chromium') {
    const browser = await chromium.launch(chromiumLaunchOptions());
    return {
      engine,
      version: browser.version(),
      async newPage(viewport = DEFAULT_VIEWPORT) {
        const context = await browser.newContext({ viewport });
        return scriptedPage(engine, (await context.newPage()) as unknown as ScriptedPage, () => context.close());
      },
      close: () => browser.close(),
    };
  }
  if (engine === 'firefox') {
    const browser = await puppeteer.launch(firefoxLaunchOptions());
    return {
      engine,
      version: await browser.version(),
      async newPage(viewport = DEFAULT_VIEWPORT) {
        const context = await browser.createBrowserContext();
        const page = firefoxPage(await context.newPage());
        await page.setViewport(viewport);
        return scriptedPage(engine, page as unknown as ScriptedPage, () => context.close());
      },
      close: () => browser.close(),
    };
  }
  const webkit = await webKitDriver(webkitOptions());
  const version = await webkit.session().then(async (session) => {
    await session.delete();
    return String(session.capabilities['browserVersion']);
  }, async (error: unknown) => {
    await webkit.stop();
    throw error;
  });
  return {
    engine,
    version,
    // A session of its own per page: MiniBrowser starts afresh, with nothing stored.
    async newPage(viewport = DEFAULT_VIEWPORT) {
      const session = await webkit.session();
      // The window holds a little more than its viewport: size it, then make up the difference.
      await session.setWindowSize(viewport.width, viewport.height);
      const inner = await session.execute<{ w: number; h: number }>('return { w: innerWidth, h: innerHeight }');
      await session.setWindowSize(2 * viewport.width - inner.w, 2 * viewport.height - inner.h);
      const run = <T>(fn: string, arg: unknown) =>
        session.executeAsync<{ value?: T; error?: string }>(
          `const done = arguments[1]; Promise.resolve().then(() => (${fn})(arguments[0])).then((value) => done({ value }), (error) => done({ error: String(error) }));`,
          [arg],
        );
      return {
        engine,
        async goto(url) {
          // No command waits for a load (webkitOptions): mark the document it leaves, then wait for a new one.
          await session.execute('window.__leaving = true');
          await session.navigate(url);
          await poll(async () => ((await session.execute('return !window.__leaving && document.readyState === "complete"')) ? true : null), `${url} to load`);
        },
        url: () => session.url(),
        async evaluate<A, T>(fn: (arg: A) => T | Promise<T>, arg: A) {
          const { value, error } = await run<T>(fn.toString(), arg);
          if (error !== undefined) throw new Error(error);
          return value as T;
        },
        async click(target) {
          await poll(async () => {
            await session.frame(null);
            if (target.in) {
              // WebKitWebDriver scrolls the element into view within its frame only: a person
              // scrolls the page to the form first.
              const iframe = await session.execute<ElementReference | null>(`const f = (${formFrame.toString()})(); f?.scrollIntoView({ block: 'nearest' }); return f;`);
              if (!iframe) return null;
              await session.frame(iframe);
            }
            const element = await session.execute<ElementReference | null>(`return (${findTarget.toString()})(arguments[0])`, [target]);
            if (element) await session.click(element);
            return element;
          }, label(target));
          await session.frame(null);
        },
        screenshot: async (path) => writeFile(path, await session.screenshot()),
        problems: () => null,
        close: () => session.delete(),
      };
    },
    close: () => webkit.stop(),
  };
}
