// The options RedisCallbackStore and RedisPayoutLedger share: one shape, one set of checks, so a
// merchant who configures both writes the same words and meets the same ConfigError.
import { requireOptions } from '../errors.js';
import { count, milliseconds, timerMilliseconds } from '../../service/option-rules.js';
import { redisPrefix, replicaDefault, type RedisConnection } from './redis-connection.js';

export interface RedisOptions {
  /** Put before every key (and the store's channel name). Each class documents its default. */
  prefix?: string;
  /** How long finished entries are remembered. Each class documents its default. */
  ttlMs?: number;
  /** Each command's own limit, so a Redis that does not answer is a failure, not a hang. Default 2000. */
  commandTimeoutMs?: number;
  /**
   * How many replicas must hold a write that must outlive a failover before it counts (WAIT): fewer
   * within replicaWaitMs and the write is refused (a callback answered 503, a payout not sent).
   * Default 1 on a cluster or Sentinel client, 0 (no WAIT) on a standalone one.
   */
  replicas?: number;
  /** WAIT's time limit, on top of commandTimeoutMs. Default 1000. */
  replicaWaitMs?: number;
}

export type ResolvedRedisOptions = Required<RedisOptions>;

/** The shared options with their defaults, checked together with the class's own (a ConfigError naming `owner`). */
export function resolveRedisOptions(
  owner: string,
  redis: RedisConnection,
  options: RedisOptions,
  defaults: { prefix: string; ttlMs: number },
  own: ReadonlyArray<readonly [path: string, problem: string | undefined]> = [],
): ResolvedRedisOptions {
  const resolved: ResolvedRedisOptions = {
    prefix: options.prefix ?? defaults.prefix,
    ttlMs: options.ttlMs ?? defaults.ttlMs,
    commandTimeoutMs: options.commandTimeoutMs ?? 2000,
    replicas: options.replicas ?? replicaDefault(redis.topology),
    replicaWaitMs: options.replicaWaitMs ?? 1000,
  };
  requireOptions(owner, [
    ['prefix', redisPrefix(resolved.prefix)],
    ...own,
    ['ttlMs', milliseconds(resolved.ttlMs)],
    ['commandTimeoutMs', timerMilliseconds(resolved.commandTimeoutMs)],
    ['replicas', count(resolved.replicas)],
    ['replicaWaitMs', timerMilliseconds(resolved.replicaWaitMs)],
  ]);
  return resolved;
}
