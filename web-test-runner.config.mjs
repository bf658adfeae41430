// Browser tests in three engines (test/support/browsers/engines.mjs; TEST_ENGINES picks some): Chromium through
// Playwright, Firefox ESR through puppeteer-core over WebDriver BiDi, WebKitGTK through WebKitWebDriver.
// TypeScript through esbuild, and a second loopback origin (127.0.0.1, while the test page is on
// localhost) that plays the payment service, so message and navigation checks cross a real origin
// boundary. The framework entries' tests get the real React, Vue and Svelte, built at test time
// (test/support/browsers/frameworks.mjs). One engine at a time, one test file at a time: the tests time real loads.
import { chromeLauncher } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import puppeteer from 'puppeteer-core';
import { chromiumLaunchOptions, firefoxLaunchOptions, firefoxPage, selectedEngines, webkitOptions } from './test/support/browsers/engines.mjs';
import { webDriverLauncher, webKitDriver } from './test/support/browsers/webdriver.mjs';
import { serviceOriginPlugin } from './test/browser/service-origin.mjs';
import { distMiddleware, ssrPlugin } from './test/support/apps/ssr-render.mjs';
import { heapPlugin } from './test/support/browsers/heap.mjs';
import { frameworksPlugin } from './test/support/browsers/frameworks.mjs';

const launchers = {
  chromium: () => playwrightLauncher({ product: 'chromium', launchOptions: chromiumLaunchOptions() }),
  firefox: () => chromeLauncher({ puppeteer, launchOptions: firefoxLaunchOptions(), createPage: async ({ context }) => firefoxPage(await context.newPage()) }),
  webkit: () => {
    const { driver, xvfbRun, capabilities } = webkitOptions();
    return webDriverLauncher({
      name: 'WebKit',
      async open() {
        const webkit = await webKitDriver({ driver, xvfbRun, capabilities });
        try {
          return { session: await webkit.session(), stop: webkit.stop };
        } catch (error) {
          await webkit.stop();
          throw error;
        }
      },
    });
  },
};

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  hostname: 'localhost',
  concurrency: 1,
  concurrentBrowsers: 1,
  // Hang guards, not durations: a keyboard test's WebDriver round trips into a cross-origin frame took
  // over 10 s once with the machine's two cores busy.
  testsFinishTimeout: 240000,
  testFramework: { config: { timeout: 20000 } },
  middleware: [distMiddleware()],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }), serviceOriginPlugin(), ssrPlugin(), heapPlugin(), frameworksPlugin()],
  browsers: selectedEngines().map((engine) => launchers[engine]()),
};
