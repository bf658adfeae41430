// A web-test-runner command for the leak tests: executeServerCommand('heap-used') forces a garbage
// collection in the test page and answers { used }, the JS heap's used bytes, through the DevTools protocol
// (HeapProfiler.collectGarbage, Runtime.getHeapUsage). Only Chromium through Playwright has it: the
// other engines answer { used: null } (a bare null reads as an unknown command) and the tests count DOM
// nodes, listeners, timers and requests there. executeServerCommand('leak-runs') answers { full }: true
// when PAY_FORM_LEAK_FULL=1 asks for the full counts (docs/testing.md, Leaks across mounts).
export function heapPlugin() {
  return {
    name: 'heap',
    async executeCommand({ command, session }) {
      if (command === 'leak-runs') return { full: process.env.PAY_FORM_LEAK_FULL === '1' };
      if (command !== 'heap-used') return undefined;
      // Firefox's launcher hands out a puppeteer page, WebKit's none: only Playwright's has context().
      const page = session.browser.getPage?.(session.id);
      if (typeof page?.context !== 'function') return { used: null };
      const cdp = await page.context().newCDPSession(page);
      try {
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        return { used: usedSize };
      } finally {
        await cdp.detach();
      }
    },
  };
}
