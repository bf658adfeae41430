// What both form-open benches (run.ts in Chromium in depth, engines.ts in each engine) serve and run in
// the page: the payment service's stand-in on http://127.0.0.1 (it stamps each request's arrival, and
// sends Timing-Allow-Origin and Connection: close), the host page and the shipped bundle on
// http://localhost, and the two functions the benches run inside the page.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
export async function listen(host: string, listener: Listener) {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><script>
window.__longtasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push(e.duration); })
  .observe({ type: 'longtask', buffered: true });
</script></head><body><div id="slot"></div></body></html>`;

export async function formPageServers() {
  const arrivals = new Map<string, number>();
  const service = await listen('127.0.0.1', (req, res) => {
    arrivals.set(req.url ?? '', performance.timeOrigin + performance.now());
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'timing-allow-origin': '*',
      'cache-control': 'no-store',
      connection: 'close',
    });
    res.end('<!doctype html><title>form</title><p>form');
  });
  // PAY_FORM_BENCH_BUNDLE names another build of the bundle, to compare two versions of the element.
  const code = await readFile(process.env['PAY_FORM_BENCH_BUNDLE'] ?? new URL('../../dist/pay-form.min.js', import.meta.url), 'utf8');
  const host = await listen('localhost', (req, res) => {
    const isBundle = req.url === '/pay-form.js';
    res.writeHead(200, {
      'content-type': isBundle ? 'text/javascript' : 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    res.end(isBundle ? code : HOST_PAGE);
  });
  // The same pages from the service's own site (127.0.0.1, another port): a same-site frame.
  const sameSiteHost = await listen('127.0.0.1', host.server.listeners('request')[0] as Listener);
  return {
    service,
    serviceUrl: `http://127.0.0.1:${service.port}`,
    arrivals,
    code,
    host,
    hostUrl: `http://localhost:${host.port}/`,
    sameSiteHost,
    sameSiteHostUrl: `http://127.0.0.1:${sameSiteHost.port}/`,
  };
}

export interface OpenTiming {
  request: number;
  response: number;
  epochStart: number;
  longtasks: number[];
}

export type OpenHow = 'element' | 'iframe' | 'element-late-base';

/** In the page: appends the bundle's script tag; the time until customElements.whenDefined. */
export async function defineInPage(): Promise<number> {
  const t0 = performance.now();
  const script = document.createElement('script');
  script.type = 'module';
  script.src = '/pay-form.js';
  document.head.append(script);
  await customElements.whenDefined('pay-form');
  return performance.now() - t0;
}

/** In the page: opens `key`, by the element or by a hand-written iframe, and times the form request. */
export async function openFormInPage({ how, base, key, waitMs }: { how: OpenHow; base: string; key: string; waitMs: number }): Promise<OpenTiming> {
  const slot = document.getElementById('slot')!;
  const url = `${base}/api/jsapi/open/${key}/`;
  const el = how === 'iframe' ? null : (document.createElement('pay-form') as HTMLElement & { key: string | null; baseUrl: string | null });
  if (el) {
    if (how === 'element') el.setAttribute('base-url', base);
    slot.append(el);
  }
  // Let connection-time work (the first render) finish, as it would before a user's click.
  await new Promise((r) => setTimeout(r, waitMs));
  const entry = new Promise<PerformanceResourceTiming>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no resource timing for ${url}`)), 10_000);
    new PerformanceObserver((list, observer) => {
      for (const e of list.getEntries() as PerformanceResourceTiming[]) {
        if (e.name !== url) continue;
        clearTimeout(timer);
        observer.disconnect();
        resolve(e);
      }
    }).observe({ type: 'resource' });
  });
  const t0 = performance.now();
  if (el) {
    if (how === 'element-late-base') el.baseUrl = base;
    el.key = key;
  } else {
    const iframe = document.createElement('iframe');
    iframe.src = url;
    slot.append(iframe);
  }
  const e = await entry;
  const longtasks = (window as unknown as { __longtasks: number[] }).__longtasks;
  return { request: e.requestStart - t0, response: e.responseStart - t0, epochStart: performance.timeOrigin + t0, longtasks };
}
