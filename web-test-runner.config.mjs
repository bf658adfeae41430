// Browser tests: real Chromium through Playwright, TypeScript through esbuild, and a second loopback
// origin (127.0.0.1, while the test page is on localhost) that plays the payment service, so message
// and navigation checks cross a real origin boundary.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { launchOptions } from './test/support/chromium.mjs';
import { serviceOriginPlugin } from './test/browser/service-origin.mjs';
import { distMiddleware, ssrPlugin } from './test/support/ssr-render.mjs';

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: true,
  hostname: 'localhost',
  concurrency: 1,
  testsFinishTimeout: 120000,
  testFramework: { config: { timeout: 10000 } },
  middleware: [distMiddleware()],
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' }), serviceOriginPlugin(), ssrPlugin()],
  browsers: [playwrightLauncher({ product: 'chromium', launchOptions: launchOptions() })],
};
