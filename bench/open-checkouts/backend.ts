// One backend process of bench/open-checkouts: the callback handler (POST /callback) and the status
// handler (GET /status) of pay-form/server on a RedisCallbackStore over node-redis (REDIS_URL), set up
// as docs/server.md and docs/stores.md do, on the defaults (maxWaiters, waitMs). GET /stats answers
// what the bench reads of this process: RSS now and at its peak, the live heap after a full GC (run
// with --expose-gc), and its CPU time so far. Prints {"port"} once listening.
import http from 'node:http';
import { pauses } from './pauses.js';
import type { AddressInfo } from 'node:net';
import { createCallbackHandler, createStatusHandler, RedisCallbackStore, toNodeHandler } from '../../src/server/index.js';
import { createClient } from 'redis';

// node-redis alone: loading ioredis as well (test/support's clients do) would add about 20 MiB of RSS.
const client = createClient({ url: process.env['REDIS_URL']!, disableOfflineQueue: true });
client.on('error', () => undefined);
await client.connect();
const store = new RedisCallbackStore(client, { prefix: 'open:', onError: () => undefined });
const callback = toNodeHandler(createCallbackHandler({ secret: process.env['SECRET']!, store, onStatus: () => undefined }));
const errors: Record<string, number> = {};
const onError = (error: unknown) => {
  const name = error instanceof Error ? error.message.slice(0, 80) : String(error);
  errors[name] = (errors[name] ?? 0) + 1;
};
// Reads of the store, counted so the bench starts its idle window once the pages' first asks are read.
let reads = 0;
const counted = { status: (order: string, attempt?: string) => (reads++, store.status(order, attempt)), watch: store.watch.bind(store) };
const status = toNodeHandler(createStatusHandler({ store: counted, authorize: () => true, onError }));
if (process.env['TRACE_READS']) {
  let last = 0;
  setInterval(() => { process.stderr.write(`${process.pid} reads/s ${reads - last}\n`); last = reads; }, 1000).unref();
}
const gc = (globalThis as { gc?: () => void }).gc;

const paused = pauses();

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
  gc?.();
  const cpu = process.cpuUsage();
  const body = JSON.stringify({
    rss: process.memoryUsage.rss(),
    maxRss: process.resourceUsage().maxRSS * 1024,
    heapUsed: process.memoryUsage().heapUsed,
    cpuMicros: cpu.user + cpu.system,
    errors,
    reads,
    ...stalls,
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
  if (req.url?.startsWith('/status')) return status(req, res);
  if (req.url === '/callback') return callback(req, res);
  if (req.url === '/stats') return stats(res);
  res.writeHead(404);
  res.end();
});
// Ten thousand pages hold their connections open between asks, as browsers do.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
