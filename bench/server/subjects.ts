// What bench/server and bench/telemetry share: the role processes (roles.ts), their CPU use over IPC,
// the token and callback requests, and one measurement of a subject at a fixed and an unbounded load.
import { fork, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { canonicalJson } from '../../src/service/signature.js';
import { SECRET } from './shared.js';

const ROLES = fileURLToPath(new URL('./roles.ts', import.meta.url));
export const children: ChildProcess[] = [];

export interface Child {
  url: string;
  child: ChildProcess;
}

/** Forks bench/server/roles.ts as `role`; `env` adds to the environment (bench/telemetry: which build, which SDK). */
export function start(role: string, upstream = '', env: Record<string, string> = {}): Promise<Child> {
  const child = fork(ROLES, [role, upstream], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ url: (m as { url: string }).url, child }));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${String(code)}`)));
  });
}

export function usage(child: ChildProcess): Promise<{ cpu: number; rss: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { cpu: number; rss: number }));
    child.send('usage');
  });
}

const json = { 'content-type': 'application/json' };
export const tokenRequest: Partial<autocannon.Options> = { headers: json, body: JSON.stringify({ order_ref: 'order-42' }) };
// Every callback is distinct (so each is verified and handed over, no repeat short-cut), signed as the
// service signs it, made as it is sent: no list of bodies grows with the run.
let nextCallback = 0;
function callbackBody(): string {
  const n = nextCallback++;
  const payload = { invoice_id: `inv-${n}`, request_id: `order-${n}`, status: 'success', amount: 1500, currency: 'USD' };
  return JSON.stringify({ ...payload, signature: createHmac('sha256', SECRET).update(canonicalJson(payload), 'utf8').digest('hex') });
}
export const callbackRequest: Partial<autocannon.Options> = {
  headers: json,
  requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: callbackBody() }) }],
};

export interface Subject {
  name: string;
  child: Child;
  options: Partial<autocannon.Options>;
}

export interface Sample {
  /** CPU µs of the subject's process per 2xx answer, at the fixed offered load. */
  cpu: number;
  /** Answers per second actually served at the fixed load (below `rate` when it cannot keep up). */
  served: number;
  p50: number;
  p99: number;
  /** Unbounded: 2xx answers per second. */
  rps: number;
  bad: number;
}

/** `unbounded: false` skips the unbounded run (rps 0): bench/telemetry reads CPU at the fixed load only. */
export async function measure(subject: Subject, duration: number, rate: number, connections: number, unbounded = true): Promise<Sample> {
  const base = { url: subject.child.url, method: 'POST', duration, ...subject.options };
  const before = await usage(subject.child.child);
  const fixed = await autocannon({ ...base, connections, overallRate: rate });
  const after = await usage(subject.child.child);
  const max = unbounded ? await autocannon({ ...base, connections }) : { '2xx': 0, non2xx: 0, errors: 0, timeouts: 0 };
  return {
    cpu: (after.cpu - before.cpu) / Math.max(1, fixed['2xx']),
    served: fixed['2xx'] / duration,
    p50: fixed.latency.p50,
    p99: fixed.latency.p99,
    rps: max['2xx'] / duration,
    bad: fixed.non2xx + fixed.errors + fixed.timeouts + max.non2xx + max.errors + max.timeouts,
  };
}

