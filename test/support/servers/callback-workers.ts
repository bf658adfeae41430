// Callback workers for the tests and benches: callback-worker.ts processes (real merchant servers, on
// one Redis or in memory), callbacks signed for them, and delivery the way the service does it: the
// same body again after a 5xx, until a 2xx.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sign } from '../../../src/server/index.js';

const WORKER = fileURLToPath(new URL('./callback-worker.ts', import.meta.url));
export const WORKER_SECRET = 'worker-secret';

export interface Worker {
  readonly url: string;
  readonly pid: number;
  /** The callback keys whose onStatus this process started, in order, as it answers now. */
  calls(): Promise<string[]>;
  /** Resolves at the next onStatus call this process starts (read off its output, so it works until it dies). */
  nextCall(): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startWorker(env: Record<string, string>): Promise<Worker> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { ...process.env, SECRET: WORKER_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let waiters: Array<(key: string) => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`callback worker exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { port?: number; call?: string };
      if (message.port !== undefined) resolve(message.port);
      if (message.call !== undefined) {
        const woken = waiters;
        waiters = [];
        for (const wake of woken) wake(message.call);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    calls: async () => (await (await fetch(`http://127.0.0.1:${port}/calls`)).json()) as string[],
    nextCall: () => new Promise((resolve) => waiters.push(resolve)),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The onStatus calls of every worker, one list. */
export async function callsOf(workers: readonly Worker[]): Promise<string[]> {
  return (await Promise.all(workers.map((w) => w.calls()))).flat();
}

export interface Callback {
  invoice_id: string;
  request_id: string;
  status: string;
}

export async function signedBody(callback: Callback): Promise<string> {
  const payload = { ...callback, amount: 1500, currency: 'USD' };
  return JSON.stringify({ ...payload, signature: await sign(payload, WORKER_SECRET) });
}


const DELIVERY_TIMEOUT_MS = 20_000;

/** One POST; the answer's status (0 when the connection failed or no answer came in time). */
export async function deliverOnce(url: string, body: string): Promise<number> {
  try {
    // The service gives up on an attempt after 10 s and delivers again (docs/service-contract.md); twice
    // that here, for a busy machine, and a hung server fails the test instead of hanging it.
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Delivers until a 2xx, to a server picked by `pick` each time, `pauseMs` apart; answers every status
 * seen, in order. Gives up (and the test fails on it) after `attempts`.
 */
export async function deliver(pick: () => string, body: string, { pauseMs = 50, attempts = 200 } = {}): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const status = await deliverOnce(pick(), body);
    seen.push(status);
    if (status >= 200 && status < 300) return seen;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return seen;
}

/** Resolves once nothing accepts connections on the loopback port (a server was stopped). */
export async function waitUntilRefused(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
