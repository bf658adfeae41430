// Connected clients of both libraries pay-form takes, on each topology the harness starts
// (redis-server.ts, redis-cluster.ts, redis-sentinel.ts), made the way docs/stores.md tells a merchant
// to make them: commands fail at once while a connection is down instead of queueing. A RedisSpec is
// plain JSON, so worker processes (callback-worker.ts, payout-worker.ts) are handed one.
import { createClient, createCluster, createSentinel } from 'redis';
import { Cluster, Redis } from 'ioredis';
import type { RedisClientLike } from '../../../src/server/index.js';

export type RedisLibrary = 'node-redis' | 'ioredis';

export type RedisTarget =
  | { topology: 'standalone'; url: string }
  | { topology: 'cluster'; rootNodes: ReadonlyArray<{ host: string; port: number }> }
  | { topology: 'sentinel'; name: string; sentinels: ReadonlyArray<{ host: string; port: number }> };

export interface RedisSpec {
  library: RedisLibrary;
  target: RedisTarget;
}

export interface ConnectedRedis {
  client: RedisClientLike;
  close(): Promise<void>;
}

const ignore = () => undefined;

async function nodeRedis(target: RedisTarget, onError: (error: unknown) => void): Promise<ConnectedRedis> {
  const options = { disableOfflineQueue: true, socket: { reconnectStrategy: 50 } } as const;
  const client =
    target.topology === 'cluster'
      ? createCluster({ rootNodes: target.rootNodes.map(({ host, port }) => ({ url: `redis://${host}:${port}` })), defaults: options })
      : target.topology === 'sentinel'
        ? createSentinel({ name: target.name, sentinelRootNodes: [...target.sentinels], nodeClientOptions: options })
        : createClient({ url: target.url, ...options });
  client.on('error', onError);
  await client.connect();
  return { client, close: async () => void (await client.destroy()) };
}

async function ioredis(target: RedisTarget, onError: (error: unknown) => void): Promise<ConnectedRedis> {
  const common = { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => 50 } as const;
  const client =
    target.topology === 'cluster'
      ? new Cluster([...target.rootNodes], { lazyConnect: true, enableOfflineQueue: false, clusterRetryStrategy: () => 50, redisOptions: common })
      : target.topology === 'sentinel'
        ? new Redis({ ...common, name: target.name, sentinels: [...target.sentinels], sentinelRetryStrategy: () => 50 })
        : new Redis(target.url, common);
  client.on('error', onError);
  await client.connect();
  return { client, close: async () => client.disconnect() };
}

/** A connected client of `spec.library` on `spec.target`; its error events go to `onError` (tests
 *  stop servers under it, so by default they are ignored). */
export function connectRedis(spec: RedisSpec, onError: (error: unknown) => void = ignore): Promise<ConnectedRedis> {
  return spec.library === 'node-redis' ? nodeRedis(spec.target, onError) : ioredis(spec.target, onError);
}

/** Every library on one target, for tests that run the same contract through each. */
export const LIBRARIES: readonly RedisLibrary[] = ['node-redis', 'ioredis'];
