// bench/form-open/engines.ts: time to form in each engine (Chromium, Firefox ESR, WebKitGTK, as
// test/support/browsers/engines.mjs starts them; TEST_ENGINES picks some).
//   npm run bench:form-open:engines [-- runs]
// Method: the same pages and in-page timing as run.ts (pages.ts): per run, the host page on
// http://localhost is loaded afresh in one tab of the engine (a new document, nothing of the last one
// left but the browser's caches, which the no-store answers keep out), then the bundle's script tag
// is added (define), and the form opened: by the element (`el.key = k` on a connected <pay-form
// base-url>), by a hand-written iframe on the same page state, and by one on a page without the bundle,
// the three kinds in a rotated order. "Request sent" is the form request's requestStart in the page's
// resource timing, from performance.now() just before the key is set; "arrives" is the service's own
// stamp of the request against the page's clock (performance.timeOrigin, epoch milliseconds), which
// does not depend on the engine's resource timing. run.ts measures Chromium in more depth (long tasks,
// base-url set early, a fresh page per run in a regular profile).
import { selectedEngines } from '../../test/support/browsers/engines.mjs';
import { ENGINE_NAMES, launchEngine } from '../../test/support/browsers/engine-page.js';
import { machine, median, quantile, report } from '../stats.js';
import { defineInPage, formPageServers, openFormInPage, type OpenTiming } from './pages.js';

const runs = Number(process.argv[2] ?? 40);
const WARMUP = 3;
const servers = await formPageServers();

const ms = (x: number) => x.toFixed(1);
/** "median (p10–p90)" in milliseconds. */
const cell = (xs: number[]) => `${ms(median(xs))} (${ms(quantile(xs, 0.1))}–${ms(quantile(xs, 0.9))})`;

const rows: string[] = [];
const versions: string[] = [];
try {
  for (const engine of selectedEngines()) {
    const browser = await launchEngine(engine);
    versions.push(`${ENGINE_NAMES[engine]} ${browser.version.replace(/^\D+/, '')}`);
    const page = await browser.newPage();
    const kinds = ['element', 'iframe', 'plain'] as const;
    const sent: Record<(typeof kinds)[number], number[]> = { element: [], iframe: [], plain: [] };
    const arrived: Record<(typeof kinds)[number], number[]> = { element: [], iframe: [], plain: [] };
    const define: number[] = [];
    try {
      for (let i = 0; i < runs + WARMUP; i++) {
        // Rotate which kind goes first, so none always gets the warmer machine.
        for (const kind of [...kinds.slice(i % 3), ...kinds.slice(0, i % 3)]) {
          await page.goto(servers.hostUrl);
          const defined = kind === 'plain' ? NaN : await page.evaluate(defineInPage, null);
          const key = `k-${engine}-${kind}-${i}`;
          const how = kind === 'element' ? 'element' : 'iframe';
          const timing: OpenTiming = await page.evaluate(openFormInPage, { how, base: servers.serviceUrl, key, waitMs: 100 });
          if (i < WARMUP) continue;
          if (kind === 'element') define.push(defined);
          sent[kind].push(timing.request);
          arrived[kind].push((servers.arrivals.get(`/api/jsapi/open/${key}/`) ?? NaN) - timing.epochStart);
        }
      }
    } finally {
      await page.close();
      await browser.close();
    }
    const diff = median(sent.element) - median(sent.iframe);
    rows.push(
      `| ${ENGINE_NAMES[engine]} | ${cell(define)} | ${cell(sent.element)} | ${cell(sent.iframe)} | ${cell(sent.plain)} | ${diff >= 0 ? '+' : ''}${ms(diff)} | ${cell(arrived.element)} | ${cell(arrived.iframe)} |`,
    );
  }
} finally {
  for (const { server } of [servers.service, servers.host, servers.sameSiteHost]) {
    server.closeAllConnections();
    server.close();
  }
}

await report(
  [
    `bench/form-open/engines.ts, ${machine()}; ${versions.join(', ')}; ${runs} runs per cell after ${WARMUP} warm-up runs; milliseconds, median (p10–p90).`,
    '',
    '| engine | script tag → defined | set key → form request sent (pay-form) | insert iframe → sent (same page) | insert iframe → sent (no bundle) | pay-form − iframe (medians) | set key → arrives at service | insert iframe → arrives |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n'),
);
