// A real Redis for the tests and benches: Debian's redis-server (or REDIS_SERVER), started on a free loopback port
// with its own temporary directory, no persistence, and stopped by its PID. Tests that need several
// processes pass `url` on to them.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its directory. */
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port, after `downMs`; data is not kept. */
  restart(downMs?: number): Promise<void>;
}

export const REDIS_SERVER = process.env['REDIS_SERVER'] ?? 'redis-server';

/** A port nothing listens on now, from the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}): ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.write('PING\r\n');
        socket.once('data', (data) => {
          socket.destroy();
          resolve(data.toString().startsWith('+PONG'));
        });
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer on port ${port}: ${output()}`);
}

/** The arguments of a plain node on `port`: loopback only, its own directory, no persistence. */
export function nodeArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
}

/** Spawns REDIS_SERVER with `args` (a config file first, for a sentinel) and waits until `port` answers PING. */
export async function spawnRedis(port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) =>
      reject(new Error(`cannot start ${REDIS_SERVER} (install Debian's redis-server, or set REDIS_SERVER): ${error.message}`)),
    );
  });
  await spawned;
  await waitForPort(port, child, () => log);
  return child;
}

const launch = (port: number, dir: string) => spawnRedis(port, nodeArgs(port, dir));

/** Stops a server by its PID: `signal` (SIGTERM by default, SIGKILL for a crash), SIGKILL after 3 s. */
export async function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid as number, signal);
  const timer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

/** Starts a fresh redis-server for this test file. */
export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-redis-'));
  const port = await freePort();
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid as number;
    },
    async stop() {
      await kill(child);
      await rm(dir, { recursive: true, force: true });
    },
    async restart(downMs = 0) {
      await kill(child);
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      child = await launch(port, dir);
    },
  };
}
