// `npm run start:cluster`: two demo backends on one Redis behind the same page. Backend B is Vite with
// the demo's plugin (the page, orders, tokens and the status endpoint); backend A, another process,
// takes the sandbox's callbacks. A callback that reaches A settles the page served by B, through the
// verified status A records in Redis. REDIS_URL, REDIS_CLUSTER or REDIS_SENTINELS name the Redis
// (demo/backend-redis.ts); without them one is started from REDIS_SERVER (Debian's redis-server by
// default) on free ports: one server, or with `-- cluster` a Redis Cluster of 3 primaries and 3
// replicas, or with `-- sentinel` a primary, a replica and 3 sentinels.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { CHECKOUT_PREFIX, type CallbackLogEntry } from './backend.js';
import { describeRedis, redisEnv, redisFromEnv } from './backend-redis.js';
import type { RedisSpec, RedisTarget } from '../test/support/redis/redis-clients.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Cluster {
  /** The page, on backend B. */
  url: string;
  /** Where the sandbox sends callbacks: backend A. */
  callbackUrl: string;
  redis: RedisSpec;
  /** The callbacks backend A verified, as it printed them (it serves no log: it knows no shopper). */
  callbacksAtA(): readonly CallbackLogEntry[];
  close(): Promise<void>;
}

interface CallbackBackend {
  url: string;
  received: CallbackLogEntry[];
  close(): Promise<void>;
}

export type LocalTopology = RedisTarget['topology'];

/** A Redis of `topology` on free loopback ports, from the test harness (REDIS_SERVER). */
async function startLocalRedis(topology: LocalTopology): Promise<{ target: RedisTarget; stop(): Promise<unknown> }> {
  if (topology === 'cluster') {
    const cluster = await (await import('../test/support/redis/redis-cluster.js')).startRedisCluster();
    return { target: { topology, rootNodes: cluster.rootNodes }, stop: () => cluster.stop() };
  }
  if (topology === 'sentinel') {
    const set = await (await import('../test/support/redis/redis-sentinel.js')).startRedisSentinel();
    return { target: { topology, name: set.name, sentinels: set.sentinels }, stop: () => set.stop() };
  }
  const server = await (await import('../test/support/redis/redis-server.js')).startRedis();
  return { target: { topology, url: server.url }, stop: () => server.stop() };
}

/** Backend A prints {"port"} once listening, then {"callback"} for each callback it verifies. */
async function startCallbackBackend(env: Record<string, string>, onCallback: (entry: CallbackLogEntry) => void): Promise<CallbackBackend> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./backend-callbacks.ts', import.meta.url))], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const received: CallbackLogEntry[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`backend A exited (${code})`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const said = JSON.parse(line) as { port?: number; callback?: CallbackLogEntry };
      if (said.port !== undefined) resolve(said.port);
      if (said.callback !== undefined) {
        received.push(said.callback);
        onCallback(said.callback);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `redis`, else the Redis the environment names, else one of `topology` started here. */
export async function startCluster(
  options: { port?: number; redis?: RedisSpec; topology?: LocalTopology; onCallback?: (entry: CallbackLogEntry) => void } = {},
): Promise<Cluster> {
  let redis = options.redis ?? redisFromEnv(process.env);
  let stopRedis = async () => undefined as unknown;
  if (!redis) {
    const local = await startLocalRedis(options.topology ?? 'standalone');
    redis = { library: 'node-redis', target: local.target };
    stopRedis = () => local.stop();
  }
  for (const name of ['REDIS_URL', 'REDIS_CLUSTER', 'REDIS_SENTINELS', 'REDIS_SENTINEL_NAME', 'REDIS_CLIENT']) delete process.env[name];
  const secret = crypto.randomUUID();
  const backendA = await startCallbackBackend({ ...redisEnv(redis), PAY_FORM_SANDBOX_SECRET: secret }, options.onCallback ?? (() => {}));
  const callbackUrl = `${backendA.url}${CHECKOUT_PREFIX}callback`;
  Object.assign(process.env, { ...redisEnv(redis), PAY_FORM_SANDBOX_SECRET: secret, PAY_FORM_CALLBACK_URL: callbackUrl });
  const vite = await createServer({
    root: ROOT,
    configFile: `${ROOT}vite.config.ts`,
    server: { port: options.port ?? 5173, strictPort: false, open: false },
    clearScreen: false,
  });
  await vite.listen();
  const { port } = vite.httpServer?.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    callbackUrl,
    redis,
    callbacksAtA: () => backendA.received,
    async close() {
      await vite.close();
      await backendA.close();
      await stopRedis();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await import('../scripts/ensure-bundles.js');
  const [topology = 'standalone'] = process.argv.slice(2);
  if (topology !== 'standalone' && topology !== 'cluster' && topology !== 'sentinel') {
    throw new Error(`npm run start:cluster -- [standalone|cluster|sentinel]: no ${topology}`);
  }
  const cluster = await startCluster({
    topology,
    onCallback: (entry) => console.log(`  backend A verified a callback: ${entry.status} for ${entry.request_id} (invoice ${entry.invoice_id})`),
  });
  console.log(
    `\n  pay-form cluster demo: open ${cluster.url}/ (backend B: the page, orders, tokens, status)\n` +
      `  backend A takes the callbacks at ${cluster.callbackUrl}\n  both keep callbacks and statuses ${describeRedis(cluster.redis)}\n`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cluster.close().then(() => process.exit(0)));
}
