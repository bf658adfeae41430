// Starts payout-worker.ts as real child processes (each its own Node, its own PaymentClient and Redis
// connection), waits until all are connected, lets them fire together, and collects their results.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerJob } from './payout-worker.js';

export type { WorkerJob, WorkerResult } from './payout-worker.js';

const WORKER = fileURLToPath(new URL('./payout-worker.ts', import.meta.url));

interface Running {
  ready: Promise<void>;
  go(): void;
  result: Promise<unknown>;
}

function startWorker(job: WorkerJob): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const result = new Promise<unknown>((resolve, reject) => {
    // 'close', not 'exit': 'exit' can come before the last of stdout is read, and then the result line
    // is missing (a CI run failed so: "payout worker exited 0: ready").
    child.once('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last !== 'ready') resolve(JSON.parse(last));
      else reject(new Error(`payout worker exited ${code}: ${err || out}`));
    });
  });
  // A worker that dies before it is ready must not leave the caller waiting for `ready`.
  result.catch(() => markReady());
  return { ready, go: () => child.stdin.end('go\n'), result };
}

/** Runs every job in its own process, all released at the same moment; answers their results in order. */
export async function runWorkers(jobs: WorkerJob[]): Promise<unknown[]> {
  const running = jobs.map(startWorker);
  await Promise.all(running.map((r) => r.ready));
  for (const r of running) r.go();
  return Promise.all(running.map((r) => r.result));
}
