// `npm run bench -- open-checkouts`: thousands of checkout pages open at once, each holding a status
// long poll, on two backend processes (bench/open-checkouts/backend.ts, the handlers on their defaults)
// and one real redis-server on loopback. The pages are simulated in this process and ask exactly as
// src/element/settle-controller.ts does: GET status-url?order_ref&attempt, one at a time; a 204 is
// asked again after 250 ms; a 5xx or 429 after its Retry-After, else a back-off from 1 s; a 200 settles.
// For each size: the pages open (half on each backend) and wait; over an idle window the backends' CPU and
// Redis's commands (INFO commandstats deltas) are counted; then signed callbacks for every page arrive over
// 3 s (CALLBACKS_OVER_S), half at the other backend, the clock running from each POST to its page's answer.
// Prints one row per size (RSS peak, live heap per wait after a full GC against the same process before the
// pages, idle CPU, Redis commands/s idle, callback → answer p50/p99, both backends' CPU per callback, every
// page settled with its own status) and, while the callbacks come, each process's stalls (pauses.ts) and
// what V8 committed. BACKEND_ENTRY=path runs another backend (another checkout's backend.ts, or
// floor-backend.ts); BACKEND_NODE=node22 or node24 runs them on that Node line; BACKEND_PROF=dir writes
// each backend's CPU profile of the callbacks' phase there.
//   npm run bench -- open-checkouts            (1,000, 3,000 and 10,000 pages)
//   node --import tsx bench/open-checkouts/run.ts 1000 [idleSeconds]
import http from 'node:http';
import { startRedis } from '../../test/support/redis/redis-server.js';
import { connectRedis } from '../../test/support/redis/redis-clients.js';
import { sign } from '../../src/server/index.js';
import { attemptRequestId, newAttemptId } from '../../src/service/checkout.js';
import { RedisCallbackStore } from '../../src/server/index.js';
import { machine, quantile, report } from '../stats.js';
import { pauses, type Pauses } from './pauses.js';
import { now, pageAgent, settle, type Page } from './pages.js';
import { backendNode, buildBackend, SECRET, startBackend, type Backend } from './backends.js';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

// This process's own stalls: a late answer recorded late here is not the backends' doing.
const benchPauses = pauses();
const SIZES = process.argv[2] ? [Number(process.argv[2])] : [1000, 3000, 10_000];
const IDLE_S = Number(process.argv[3] ?? 10);
// CALLBACKS_OVER_S: the window the callbacks for every page arrive in (3 s: 3,333 a second at 10,000).
const CALLBACKS_S = Number(process.env['CALLBACKS_OVER_S'] ?? 3);
const OPEN_PER_S = Number(process.env['OPEN_PER_S'] ?? 1000);
const BACKEND = await buildBackend();
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

interface Stats extends Pauses {
  newSpaceMax: number; // V8's committed young and old generations at most since the previous /stats
  oldSpaceMax: number;
  rss: number;
  maxRss: number;
  heapUsed: number;
  cpuMicros: number;
  errors: Record<string, number>;
  reads: number;
}
const stats = (backend: Backend) => fetch(`${backend.url}/stats`).then((r) => r.json() as Promise<Stats>);

const deliveryAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent: deliveryAgent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function commands(): Promise<number> {
  const info = String(await (counter.client as unknown as { sendCommand(args: string[]): Promise<unknown> }).sendCommand(['INFO', 'commandstats']));
  let total = 0;
  for (const [, name, calls] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (name !== 'info') total += Number(calls);
  return total;
}

const redis = await startRedis();
const counter = await connectRedis({ library: 'node-redis', target: { topology: 'standalone', url: redis.url } });
const rows: string[] = [];
try {
  for (const size of SIZES) {
    await (counter.client as unknown as { sendCommand(args: string[]): Promise<unknown> }).sendCommand(['FLUSHALL']);
    const backends = [await startBackend(BACKEND, redis.url), await startBackend(BACKEND, redis.url)];
    try {
      await sleep(500);
      const before = await Promise.all(backends.map(stats));
      console.error(`${size}: RSS before the pages ${before.map((s) => mib(s.rss)).join(' / ')} MiB`);
      const pages: Page[] = Array.from({ length: size }, (_, i) => ({
        orderRef: `co-${size}-${i}`,
        attempt: newAttemptId(),
        backend: i % 2,
        expected: i % 5 === 4 ? 'fail' : 'success',
        refusals: {},
      }));
      // Each page's attempt is started as its token request would start it (docs/server.md, Extra
      // payments): a callback for an attempt pay-form never started pays nothing and settles no page.
      const starter = new RedisCallbackStore(counter.client, { prefix: 'open:' });
      for (let i = 0; i < pages.length; i += 500) {
        await Promise.all(pages.slice(i, i + 500).map((page) =>
          starter.startAttempt(page.orderRef, { attempt: page.attempt, amount: '1500', currency: 'USD', lifetimeMs: 3_600_000, obtainMs: 5_000 })));
      }
      const counts = { inFlight: 0 };
      const done: Array<Promise<void>> = [];
      // Pages open OPEN_PER_S a second, in steps of a tenth of that (a crowd arriving, not one SYN burst).
      for (let i = 0; i < size; i += OPEN_PER_S / 10) {
        for (const page of pages.slice(i, i + OPEN_PER_S / 10)) done.push(settle(page, backends[page.backend]!.url, counts));
        await sleep(100);
      }
      for (let t = 0; t < 600 && counts.inFlight < size; t++) await sleep(100);
      // Idle from when the backends have read every page's first ask: their read counts stand still.
      let quiet = (await Promise.all(backends.map(stats))).map((s) => s.reads);
      for (let t = 0; t < 60; t++) {
        await sleep(1000);
        const now = (await Promise.all(backends.map(stats))).map((s) => s.reads);
        if (now.every((reads, b) => reads === quiet[b])) break;
        quiet = now;
      }
      const cmd0 = await commands();
      const cpu0 = await Promise.all(backends.map(stats));
      await sleep(IDLE_S * 1000);
      const cpu1 = await Promise.all(backends.map(stats));
      const cmd1 = await commands();
      const idleCpu = cpu1.map((s, b) => ((s.cpuMicros - cpu0[b]!.cpuMicros) / (IDLE_S * 1e6)) * 100);
      // The stats requests themselves: 4 INFO-free commands at most; Redis's own count, less nothing.
      const idleCommands = (cmd1 - cmd0) / IDLE_S;
      const heapPerWait = cpu1.map((s, b) => (s.heapUsed - before[b]!.heapUsed) / (size / 2));
      const waitingAtIdle = counts.inFlight;

      // Callbacks for every page over CALLBACKS_S; half of each backend's pages hear theirs through the other.
      const sent = new Map<Page, number>();
      const busy0 = await Promise.all(backends.map(stats));
      if (process.env['BACKEND_PROF']) await Promise.all(backends.map((b) => fetch(`${b.url}/profile/start`)));
      const own0 = process.cpuUsage();
      benchPauses.take();
      const start = performance.now();
      const deliveries: Array<Promise<void>> = [];
      for (let i = 0; i < size; i++) {
        const page = pages[i]!;
        const due = start + (CALLBACKS_S * 1000 * i) / size;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const payload = { invoice_id: `inv-${page.orderRef}`, request_id: attemptRequestId(page.orderRef, page.attempt), status: page.expected, amount: 1500, currency: 'USD' };
        const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
        const to = backends[i % 4 < 2 ? page.backend : 1 - page.backend]!.url;
        sent.set(page, now());
        deliveries.push(
          (async () => {
            for (let n = 0; n < 20 && (await post(`${to}/callback`, body)) !== 200; n++) await sleep(500);
          })(),
        );
      }
      await Promise.all(deliveries);
      await Promise.race([Promise.all(done), sleep(60_000)]);
      if (process.env['BACKEND_PROF']) await Promise.all(backends.map((b) => fetch(`${b.url}/profile/stop`)));
      const after = await Promise.all(backends.map(stats));
      const own = process.cpuUsage(own0);
      // Both backends' CPU from the first callback to the last page's answer, per callback: its POST, its
      // news heard by both, its page's answer, and whatever else ran meanwhile (the other pages' re-asks).
      const cpuPerCallback = after.reduce((sum, s, b) => sum + s.cpuMicros - busy0[b]!.cpuMicros, 0) / size;
      console.error(`${size}: RSS with every page waiting ${cpu1.map((s) => mib(s.rss)).join(' / ')} MiB (peak so far ${cpu1.map((s) => mib(s.maxRss)).join(' / ')}), after the callbacks ${after.map((s) => mib(s.rss)).join(' / ')} MiB`);
      const ownPauses = benchPauses.take();
      const ms = (x: number) => x.toFixed(0);
      console.error(
        `${size}: while the callbacks came, event loop delay max ${after.map((s) => ms(s.loopDelayMaxMs)).join(' / ')} ms, ` +
          `GC pause max ${after.map((s) => ms(s.gcMaxMs)).join(' / ')} ms, major GCs ${after.map((s) => s.gcMajor).join(' / ')} (backends); ` +
          `the bench's own: loop delay max ${ms(ownPauses.loopDelayMaxMs)} ms, GC pause max ${ms(ownPauses.gcMaxMs)} ms, major GCs ${ownPauses.gcMajor}`,
      );
      const spaces = (at: Stats[]) => `young generation ${at.map((s) => mib(s.newSpaceMax)).join(' / ')} MiB, old ${at.map((s) => mib(s.oldSpaceMax)).join(' / ')} MiB`;
      console.error(`${size}: V8 committed at most while the callbacks came: ${spaces(after)} (with every page waiting: ${spaces(cpu1)})`);
      // A waiting order is read again only when its news may have been missed (status-feed.ts's reconcile).
      console.error(`${size}: store reads while the callbacks came ${after.map((s, b) => s.reads - busy0[b]!.reads).join(' / ')}`);
      console.error(`${size}: bench CPU per callback ${((own.user + own.system) / size).toFixed(0)} µs; all answered after ${(performance.now() - start).toFixed(0)} ms`);
      const delays = pages.filter((p) => p.answered !== undefined).map((p) => p.answered! - sent.get(p)!).sort((a, b) => a - b);
      const written = pages.filter((p) => p.written !== undefined && p.written > 0).map((p) => p.written! - sent.get(p)!).sort((a, b) => a - b);
      console.error(
        `${size}: callback → answer p50 / p99: read by the page ${quantile(delays, 0.5).toFixed(1)} / ${quantile(delays, 0.99).toFixed(1)} ms, ` +
          `written by the backend ${quantile(written, 0.5).toFixed(1)} / ${quantile(written, 0.99).toFixed(1)} ms (${written.length} answers)`,
      );
      const right = pages.filter((p) => p.got === p.expected).length;
      const refusals: Record<string, number> = {};
      for (const page of pages) for (const [status, n] of Object.entries(page.refusals)) refusals[status] = (refusals[status] ?? 0) + n;
      const refused = Object.entries(refusals).map(([s, n]) => `${n}× ${s === '0' ? 'no connection' : s}`).join(', ') || 'none';
      rows.push(
        `| ${size.toLocaleString('en')} | ${after.map((s) => mib(s.maxRss)).join(' / ')} MiB | ${heapPerWait.map((h) => (h / 1024).toFixed(1)).join(' / ')} KiB | ` +
          `${idleCpu.map((c) => c.toFixed(1)).join(' / ')}% | ${idleCommands.toFixed(1)} | ` +
          `${quantile(delays, 0.5).toFixed(1)} / ${quantile(delays, 0.99).toFixed(1)} ms | ${cpuPerCallback.toFixed(0)} µs | ${right.toLocaleString('en')} of ${size.toLocaleString('en')} | ${refused} |`,
      );
      console.error(JSON.stringify(after.map((s) => s.errors)), 'reads in the idle window', cpu1.map((s, b) => s.reads - cpu0[b]!.reads));
      console.error(`${size}: ${waitingAtIdle} waiting at the idle window; ${rows.at(-1)}`);
    } finally {
      for (const backend of backends) backend.child.kill();
    }
  }
} finally {
  await counter.close();
  await redis.stop();
  pageAgent.destroy();
  deliveryAgent.destroy();
}

await report(
  [
    `${machine()}${process.env['BACKEND_NODE'] ? ` (the backends on Node ${execFileSync(backendNode(), ['--version'], { encoding: 'utf8' }).trim()})` : ''}; two backend processes and one redis-server on loopback, the status handler on its defaults; ` +
      `idle over ${IDLE_S} s with every page waiting; callbacks for every page over ${CALLBACKS_S} s, half at the other backend; ` +
      'RSS peak, heap per wait and idle CPU per backend.',
    '',
    '| open checkouts | RSS peak | live heap per wait | idle CPU | Redis commands/s idle | callback → answer p50 / p99 | backend CPU per callback | settled with their own status | refused asks |',
    '|---:|---|---|---|---:|---|---:|---|---|',
    ...rows,
  ].join('\n'),
);
