// The demo's Redis store, when the environment names a Redis: one server (REDIS_URL), a Redis Cluster
// (REDIS_CLUSTER, its nodes as host:port,host:port…) or a Sentinel set (REDIS_SENTINELS, the sentinels
// as host:port,…, and REDIS_SENTINEL_NAME), through node-redis or, with REDIS_CLIENT=ioredis, ioredis.
// Each client fails commands at once while Redis is away (the callback handler then answers 503 and
// the service delivers again); docs/stores.md shows the same clients made by hand.
import { RedisCallbackStore } from '../src/server/index.js';
import type { RedisSpec, RedisTarget } from '../test/support/redis/redis-clients.js';

export interface DemoRedis {
  store: RedisCallbackStore;
  close(): Promise<void>;
}

function hosts(list: string): Array<{ host: string; port: number }> {
  return list.split(',').map((item) => {
    const at = item.trim().lastIndexOf(':');
    const port = Number(item.trim().slice(at + 1));
    if (at <= 0 || !Number.isInteger(port)) throw new Error(`pay-form demo: "${item}" is not host:port`);
    return { host: item.trim().slice(0, at), port };
  });
}

/** The Redis the environment names, or undefined for the memory store. A half-set one throws. */
export function redisFromEnv(env: Record<string, string | undefined>): RedisSpec | undefined {
  const library = env['REDIS_CLIENT'] || 'node-redis';
  if (library !== 'node-redis' && library !== 'ioredis') throw new Error(`pay-form demo: REDIS_CLIENT must be node-redis or ioredis, not ${library}`);
  let target: RedisTarget | undefined;
  if (env['REDIS_CLUSTER']) target = { topology: 'cluster', rootNodes: hosts(env['REDIS_CLUSTER']) };
  else if (env['REDIS_SENTINELS']) {
    const name = env['REDIS_SENTINEL_NAME'];
    if (!name) throw new Error('pay-form demo: REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the name the sentinels monitor');
    target = { topology: 'sentinel', name, sentinels: hosts(env['REDIS_SENTINELS']) };
  } else if (env['REDIS_URL']) target = { topology: 'standalone', url: env['REDIS_URL'] };
  return target && { library, target };
}

/** The environment that names `spec`, for another backend. */
export function redisEnv({ library, target }: RedisSpec): Record<string, string> {
  const list = (nodes: ReadonlyArray<{ host: string; port: number }>) => nodes.map(({ host, port }) => `${host}:${port}`).join(',');
  const where: Record<string, string> =
    target.topology === 'cluster'
      ? { REDIS_CLUSTER: list(target.rootNodes) }
      : target.topology === 'sentinel'
        ? { REDIS_SENTINELS: list(target.sentinels), REDIS_SENTINEL_NAME: target.name }
        : { REDIS_URL: target.url };
  return { REDIS_CLIENT: library, ...where };
}

/** In words, for the demo's log. */
export function describeRedis({ library, target }: RedisSpec): string {
  const where =
    target.topology === 'cluster'
      ? `the Redis Cluster at ${redisEnv({ library, target })['REDIS_CLUSTER']}`
      : target.topology === 'sentinel'
        ? `the Sentinel set ${target.name} at ${redisEnv({ library, target })['REDIS_SENTINELS']}`
        : `Redis at ${target.url}`;
  return `in ${where} (${library})`;
}

export async function demoRedisStore(spec: RedisSpec, prefix = 'pay-form-demo:'): Promise<DemoRedis> {
  // Imported here, not at the top: `npm start` without Redis never loads a Redis library.
  const { connectRedis } = await import('../test/support/redis/redis-clients.js');
  const redis = await connectRedis(spec, (error) => console.error(`pay-form demo: Redis: ${String(error)}`));
  const store = new RedisCallbackStore(redis.client, { prefix });
  return {
    store,
    async close() {
      await store.close();
      await redis.close();
    },
  };
}
