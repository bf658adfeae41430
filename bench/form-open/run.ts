// bench/form-open: time to form in real Chromium (playwright-core, test/support/browsers/engines.mjs).
//   npm run bench:form-open [-- runs delayMs]
// Method: every measurement is on a fresh page of one regular (persistent, temporary) profile, as a
// shopper's browser is: incognito contexts (browser.newContext()) ignore <link rel=preconnect>, which a
// merchant's page may add. Host page on http://localhost, the payment service on http://127.0.0.1 (cross-origin, as in
// production). The element is the shipped script-tag bundle dist/pay-form.min.js (run `npm run build`
// first), served no-store.
//   define: performance.now() before appending <script type=module src=bundle> to
//           customElements.whenDefined('pay-form').
//   open:   on a connected <pay-form base-url=service>, performance.now() just before `el.key = k`
//           to the iframe request's PerformanceResourceTiming.requestStart (the service sends
//           Timing-Allow-Origin: *), same page clock. Baseline: the same page without the bundle, a
//           hand-written iframe (createElement, src, append) timed the same way, on a page that has
//           loaded the same bundle (same page state: the element's own cost) and on a page without
//           it (what loading pay-form at all costs the first frame). Cross-check: the
//           service stamps the request's arrival with performance.timeOrigin + performance.now()
//           (epoch ms, as is the page's performance.timeOrigin + t0).
//   longtask: PerformanceObserver('longtask', buffered) on every page, from page start to the form
//           request; counted per kind of page.
//   base-url early: a TCP proxy in front of the service holds each new connection's bytes for N ms
//           (connection setup costs N ms); the element with base-url set 3N ms before the key vs
//           base-url and key set together (the element opens no connection before the form: this
//           shows that setting base-url early buys nothing by itself);
//           measured to responseStart (first byte of the answer, after the proxy). Each such page gets
//           its own proxy port (a new origin), so no socket from an earlier page can be reused.
// The service answers `Connection: close` and the bundle `no-store`: no page inherits a warm socket.
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../test/support/browsers/engines.mjs';
import { machine, quantile, report } from '../stats.js';
import { defineInPage, formPageServers, openFormInPage, type OpenHow, type OpenTiming } from './pages.js';

const runs = Number(process.argv[2] ?? 60);
const delayMs = Number(process.argv[3] ?? 50);

const { service, serviceUrl, arrivals, code, host, hostUrl, sameSiteHost, sameSiteHostUrl } = await formPageServers();

/** Holds every new connection's bytes for `ms` before relaying: connection setup costs `ms`. */
async function delayingProxy(ms: number): Promise<{ url: string; connections: () => number; close: () => void }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    connections++;
    sockets.add(client);
    client.pause();
    const upstream = connect(service.port, '127.0.0.1');
    sockets.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    setTimeout(() => {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    }, ms);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    // Each page gets its own proxy: closed with its sockets, or they keep the bench from exiting.
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function freshPage(browser: BrowserContext, url = hostUrl): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url);
  return page;
}

const defineBundle = (page: Page): Promise<number> => page.evaluate(defineInPage);

/** Opens `key` on the page, by the element or by a hand-written iframe, and times the form request. */
const openForm = (page: Page, how: OpenHow, base: string, key: string, waitMs: number): Promise<OpenTiming> =>
  page.evaluate(openFormInPage, { how, base, key, waitMs });

const median = (xs: number[]) => quantile(xs, 0.5);
const ms = (x: number) => x.toFixed(2).padStart(7);
const W = 52;
const rule = (extra = '') => `|${'-'.repeat(W + 2)}|---------|---------|${extra}`;
const line = (label: string, xs: number[], extra = '') => `| ${label.padEnd(W)} | ${ms(median(xs))} | ${ms(quantile(xs, 0.95))} |${extra}`;

const profile = mkdtempSync(join(tmpdir(), 'pay-form-bench-'));
const browser = await chromium.launchPersistentContext(profile, chromiumLaunchOptions());
try {
  const defineTimes: number[] = [];
  const element: OpenTiming[] = [];
  const iframe: OpenTiming[] = [];
  const plain: OpenTiming[] = [];
  const serverElement: number[] = [];
  const serverIframe: number[] = [];
  const kinds = ['element', 'iframe', 'plain'] as const;
  for (let i = 0; i < runs + 3; i++) {
    const warmup = i < 3;
    // Rotate which kind goes first, so none always gets the warmer machine.
    for (const kind of [...kinds.slice(i % 3), ...kinds.slice(0, i % 3)]) {
      const page = await freshPage(browser);
      const key = `k-${kind}-${i}`;
      const define = kind === 'plain' ? NaN : await defineBundle(page);
      const timing = await openForm(page, kind === 'element' ? 'element' : 'iframe', serviceUrl, key, 100);
      const arrival = arrivals.get(`/api/jsapi/open/${key}/`) ?? NaN;
      await page.close();
      if (warmup) continue;
      if (kind === 'element') {
        defineTimes.push(define);
        element.push(timing);
        serverElement.push(arrival - timing.epochStart);
      } else if (kind === 'iframe') {
        iframe.push(timing);
        serverIframe.push(arrival - timing.epochStart);
      } else {
        plain.push(timing);
      }
    }
  }

  const preRuns = Math.max(Math.min(20, runs), Math.round(runs / 2));
  const earlyBaseRows: string[] = [];
  for (const [site, pageUrl] of [
    ['cross-site', hostUrl],
    ['same-site', sameSiteHostUrl],
  ] as const) {
    const times = { element: [] as number[], 'element-late-base': [] as number[] };
    const sockets = { element: 0, 'element-late-base': 0 };
    for (let i = 0; i < preRuns; i++) {
      for (const how of i % 2 === 0 ? (['element', 'element-late-base'] as const) : (['element-late-base', 'element'] as const)) {
        const proxy = await delayingProxy(delayMs);
        const page = await freshPage(browser, pageUrl);
        await defineBundle(page);
        const timing = await openForm(page, how, proxy.url, `p-${site}-${how}-${i}`, 3 * delayMs);
        await page.close();
        sockets[how] += proxy.connections();
        proxy.close();
        times[how].push(timing.response);
      }
    }
    const pre = times.element;
    const none = times['element-late-base'];
    const sock = (n: number) => ` ${(n / preRuns).toFixed(2).padStart(7)} |`;
    earlyBaseRows.push(line(`${site}: base-url set 3 x delay before the key`, pre, sock(sockets.element)));
    earlyBaseRows.push(line(`${site}: base-url set with the key`, none, sock(sockets['element-late-base'])));
    earlyBaseRows.push(`| ${`${site}: setting it early saves (median)`.padEnd(W)} | ${ms(median(none) - median(pre))} |         |         |`);
  }

  const longOf = (xs: OpenTiming[]) => xs.reduce((n, t) => n + t.longtasks.filter((d) => d > 50).length, 0);
  const requestEl = element.map((t) => t.request);
  const requestIf = iframe.map((t) => t.request);
  const requestPlain = plain.map((t) => t.request);
  const diff = median(requestEl) - median(requestIf);
  const diffPlain = median(requestEl) - median(requestPlain);
  const version = browser.browser()?.version() ?? '?';
  const out: string[] = [];
  out.push(`bench/form-open, ${machine()}, Chromium ${version} headless.`);
  out.push(`${runs} runs per row (after 3 warm-up runs), each on a fresh page (one regular profile, no warm sockets); loopback; the shipped \`dist/pay-form.min.js\` (${(code.length / 1024).toFixed(1)} KiB minified).`);
  out.push('');
  out.push(`| ${'measure (ms)'.padEnd(W)} |  median |     p95 |`);
  out.push(rule());
  out.push(line('script tag -> customElements.whenDefined', defineTimes));
  out.push(line('set key -> form request sent (pay-form)', requestEl));
  out.push(line('insert <iframe src> -> form request sent (baseline)', requestIf));
  out.push(line('the same on a page without the bundle', requestPlain));
  out.push(line('set key -> request arrives at service (pay-form)', serverElement));
  out.push(line('insert <iframe src> -> request arrives at service', serverIframe));
  out.push('');
  out.push(
    `- pay-form vs hand-written iframe (same page state) at the median: ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} ms, ratio ${(median(requestEl) / median(requestIf)).toFixed(2)}; target within 1 ms: ${diff <= 1 ? 'met' : 'MISSED'}`,
  );
  out.push(
    `- pay-form vs hand-written iframe on a page without the bundle: ${diffPlain >= 0 ? '+' : ''}${diffPlain.toFixed(2)} ms, ratio ${(median(requestEl) / median(requestPlain)).toFixed(2)}`,
  );
  out.push(
    `- long tasks (> 50 ms): ${longOf(element)} on ${element.length} pay-form pages (bundle load + open), ${longOf(iframe)} on ${iframe.length} iframe pages with the bundle, ${longOf(plain)} on ${plain.length} without`,
  );
  out.push('');
  out.push(`base-url early: connection setup delayed ${delayMs} ms by a TCP proxy in front of the service, ${preRuns} runs per row; set key -> first byte of the form (responseStart); page on http://localhost (cross-site) or http://127.0.0.1 (same-site) with the service on http://127.0.0.1:`);
  out.push('');
  out.push(`| ${'page and base-url (ms)'.padEnd(W)} |  median |     p95 | sockets |`);
  out.push(rule('---------|'));
  out.push(...earlyBaseRows);
  await report(out.join('\n'));
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  for (const { server } of [service, host, sameSiteHost]) {
    server.closeAllConnections();
    server.close();
  }
}
