// What every backend of bench/open-checkouts shares, so pay-form's backend and the floor backend are
// measured alike: GET /stats (RSS now and at its peak, the live heap after a full GC when run with
// --expose-gc, CPU time so far, errors, reads of the store, and the stalls since the last /stats), the
// CPU profile of BACKEND_PROF, a heap snapshot on GET /heap-snapshot?to=path (heap.ts), x-answered-at on
// status answers, keep-alive for ten thousand pages, and {"port"} printed once listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { pauses } from './pauses.js';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface BackendRoutes {
  status: Route;
  callback: Route;
  /** Reads of the store so far: the bench starts its idle window once they stand still. */
  reads(): number;
  errors: Record<string, number>;
}

export async function serveBackend(routes: BackendRoutes): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const paused = pauses();
  // What V8 has committed for its young and old generations at most since the last /stats, sampled
  // every 20 ms: which of them an RSS peak is made of.
  let spaces = { newSpaceMax: 0, oldSpaceMax: 0 };
  setInterval(() => {
    for (const space of getHeapSpaceStatistics()) {
      if (space.space_name === 'new_space') spaces.newSpaceMax = Math.max(spaces.newSpaceMax, space.space_size);
      else if (space.space_name === 'old_space') spaces.oldSpaceMax = Math.max(spaces.oldSpaceMax, space.space_size);
    }
  }, 20).unref();

  // Each verified status answer carries when this process wrote it (x-answered-at, ms since the epoch
  // with a fraction): the bench's callback → answer time without its own event loop in it. Patched once
  // on the prototype, so no wait carries anything more for it; only status answers are stamped.
  type WriteHead = (this: http.ServerResponse, statusCode: number, ...rest: unknown[]) => http.ServerResponse;
  const writeHead = http.ServerResponse.prototype.writeHead as unknown as WriteHead;
  (http.ServerResponse.prototype as unknown as { writeHead: WriteHead }).writeHead = function (statusCode, ...rest) {
    if (statusCode === 200 && !this.headersSent && this.req.url?.startsWith('/status')) this.setHeader('x-answered-at', String(performance.timeOrigin + performance.now()));
    return writeHead.call(this, statusCode, ...rest);
  };

  function stats(res: http.ServerResponse): void {
    // What stalled this process since the last /stats, read before this call's own forced GC.
    const stalls = paused.take();
    const committed = spaces;
    spaces = { newSpaceMax: 0, oldSpaceMax: 0 };
    gc?.();
    const cpu = process.cpuUsage();
    const body = JSON.stringify({
      rss: process.memoryUsage.rss(),
      maxRss: process.resourceUsage().maxRSS * 1024,
      heapUsed: process.memoryUsage().heapUsed,
      cpuMicros: cpu.user + cpu.system,
      errors: routes.errors,
      reads: routes.reads(),
      ...stalls,
      ...committed,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  }

  // BACKEND_PROF=dir: GET /profile/start and /profile/stop write a CPU profile of what runs between them.
  const inspector = process.env['BACKEND_PROF'] ? new (await import('node:inspector')).Session() : undefined;
  inspector?.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => inspector!.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  async function profile(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.url === '/profile/start') await post('Profiler.enable').then(() => post('Profiler.start'));
    else {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      (await import('node:fs')).writeFileSync(`${process.env['BACKEND_PROF']}/callbacks-${process.pid}.cpuprofile`, JSON.stringify(profile));
    }
    res.end();
  }

  const server = http.createServer((req, res) => {
    if (inspector && req.url?.startsWith('/profile/')) return void profile(req, res);
    if (req.url?.startsWith('/status')) return routes.status(req, res);
    if (req.url === '/callback') return routes.callback(req, res);
    if (req.url === '/stats') return stats(res);
    if (req.url?.startsWith('/heap-snapshot?')) {
      // A snapshot is taken after a full GC of its own: only what is live is in it.
      writeHeapSnapshot(new URL(req.url, 'http://x').searchParams.get('to')!);
      return void res.end();
    }
    res.writeHead(404);
    res.end();
  });
  // Ten thousand pages hold their connections open between asks, as browsers do.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
}
