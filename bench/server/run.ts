// bench/server (issue 6 item 2): autocannon on loopback against
//   1. the token handler (createTokenHandler + toNodeHandler) and a raw fetch proxy, same upstream,
//      same run, same settings; the ratio handler/proxy is the overhead pay-form/server adds;
//   2. the callback handler alone, every request a distinct signed callback (verified and handed over).
//   npm run bench:server [-- seconds connections]
// Every server is a child process; each run is bounded and everything is killed at the end.
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sign } from '../../src/server/index.js';
import { SECRET } from './shared.js';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 10);
const ROLES = fileURLToPath(new URL('./roles.ts', import.meta.url));
const children: ChildProcess[] = [];

function start(role: string, upstream = ''): Promise<string> {
  const child = fork(ROLES, [role, upstream], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${String(code)}`)));
  });
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  bad: number;
}

async function load(name: string, url: string, options: Partial<autocannon.Options>, duration = seconds): Promise<Figures> {
  const result = await autocannon({ url, connections, duration, method: 'POST', ...options });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const json = { 'content-type': 'application/json' };
const tokenRequest = { headers: json, body: JSON.stringify({ order_ref: 'order-42' }) };

async function callbackBodies(count: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const payload = { invoice_id: `inv-${i}`, request_id: `order-${i}`, status: 'success', amount: 1500, currency: 'USD' };
    bodies.push(JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }));
  }
  return bodies;
}

const row = (f: Figures, ratio: string) =>
  `| ${f.name.padEnd(34)} | ${f.rps.toFixed(0).padStart(7)} | ${f.p50.toFixed(1).padStart(7)} | ${f.p99.toFixed(1).padStart(7)} | ${String(f.bad).padStart(6)} | ${ratio.padEnd(26)} |`;

try {
  const upstream = await start('upstream');
  const [handler, proxy, callback] = await Promise.all([start('handler', upstream), start('proxy', upstream), start('callback')]);
  // Distinct callbacks: each one is verified and handed over (no repeat short-cut). The default store
  // keeps 10,000 keys; with more bodies than that, a recycled body after eviction is handed over again.
  const bodies = await callbackBodies(Math.max(20_000, Math.ceil(seconds * 8_000)));
  let next = 0;
  const callbackOptions: Partial<autocannon.Options> = {
    headers: json,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
  };

  // Warm both token paths and the callback path (JIT, connection pools), then measure.
  await load('warm', proxy, tokenRequest, 2);
  await load('warm', handler, tokenRequest, 2);
  await load('warm', callback, callbackOptions, 2);
  const proxied = await load('raw fetch proxy (baseline)', proxy, tokenRequest);
  const tokened = await load('createTokenHandler + toNodeHandler', handler, tokenRequest);
  const called = await load('createCallbackHandler (distinct)', callback, callbackOptions);

  const ratio = tokened.rps / proxied.rps;
  console.log(`bench/server, ${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}`);
  console.log(`autocannon ${connections} connections, ${seconds} s per row after a 2 s warm-up; loopback; upstream: the sandbox (startSandbox, pay-form/sandbox)`);
  console.log('');
  console.log('| server                             |   req/s | p50 ms  | p99 ms  | non2xx | vs target                  |');
  console.log('|------------------------------------|---------|---------|---------|--------|----------------------------|');
  console.log(row(proxied, 'baseline'));
  console.log(row(tokened, `${ratio.toFixed(2)}x proxy: ${ratio >= 0.9 ? 'met' : 'MISSED'} (>= 0.90)`));
  console.log(row(called, `${called.rps >= 5000 ? 'met' : 'MISSED'} (>= 5,000 req/s)`));
} finally {
  for (const child of children) child.kill();
}
