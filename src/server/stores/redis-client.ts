// The Redis clients pay-form takes, as structural types: the merchant passes a connected client of
// node-redis (`redis` 5 or later: createClient, createCluster, createSentinel) or of ioredis (new Redis,
// new Cluster, Redis with `sentinels`), and pay-form never imports either library, so the package
// works without them and its types do not depend on them. Each type names only the methods pay-form
// calls; redis-connection.ts tells the shapes apart at run time and speaks to each through one
// interface (docs/stores.md, Clients).

/** node-redis's `multi()`, used only as a pipeline: commands written together, replies in order. */
interface NodeRedisBatch<Words extends unknown[]> {
  addCommand(...command: Words): NodeRedisBatch<Words>;
  /** Sends the commands written together on one connection, not as a transaction. */
  execAsPipeline(): Promise<unknown[]>;
}

/** A connected node-redis client (`createClient`), or any object with its command method. */
export interface NodeRedisClientLike {
  /** false while the client is not connected: commands then fail at once instead of queueing. */
  readonly isReady?: boolean;
  sendCommand(args: string[], options?: CommandOptions): Promise<unknown>;
  multi?(): NodeRedisBatch<[args: string[]]>;
}

/** A connected node-redis cluster client (`createCluster`): commands routed by their first key. */
export interface NodeRedisClusterLike {
  readonly isReady: boolean;
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[], options?: CommandOptions): Promise<unknown>;
  multi(routing?: string): NodeRedisBatch<[firstKey: string, isReadonly: boolean, args: string[]]>;
}

/** A connected node-redis Sentinel client (`createSentinel`): commands go to the primary it found. */
export interface NodeRedisSentinelLike {
  readonly isReady: boolean;
  sendCommand(isReadonly: boolean | undefined, args: string[], options?: CommandOptions): Promise<unknown>;
  multi(): NodeRedisBatch<[isReadonly: boolean, args: string[]]>;
}

/** The subscriber connection of node-redis: what `duplicate()` gives, once connected. */
export interface RedisSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** Each time the connection is made (again: node-redis subscribes again by itself). */
  on(event: 'ready', listener: () => void): unknown;
  destroy?(): unknown;
}

/** An ioredis client: `new Redis(...)` (standalone or through `sentinels`) or `new Cluster(...)`. */
export interface IoredisLike {
  /** `ready` once connected (ioredis queues commands in the other states). */
  readonly status: string;
  readonly isCluster: boolean;
  call(command: string, ...args: string[]): Promise<unknown>;
  /** Commands written together on one connection (on a cluster: to the node of their keys' slot). */
  pipeline(commands: string[][]): { exec(): Promise<Array<[error: Error | null, result: unknown]> | null> };
  duplicate(): IoredisLike;
  connect(): Promise<unknown>;
  subscribe(channel: string): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  disconnect(): unknown;
}

/** Any client RedisPayoutLedger takes: it only sends commands. */
export type RedisCommandClient = NodeRedisClientLike | NodeRedisClusterLike | NodeRedisSentinelLike | IoredisLike;

type WithSubscriber<T> = T & { duplicate(): RedisSubscriberLike };

/** Any client RedisCallbackStore takes: it sends commands, and duplicates itself for pub/sub. */
export type RedisClientLike =
  | WithSubscriber<NodeRedisClientLike>
  | WithSubscriber<NodeRedisClusterLike>
  | WithSubscriber<NodeRedisSentinelLike>
  | IoredisLike;

/** The command options pay-form gives node-redis: `timeout` undefined (its own default is a signal per
 *  command) and an `abortSignal` it drops an unwritten command on (redis-connection.ts). */
export interface CommandOptions {
  timeout?: number | undefined;
  abortSignal?: AbortSignalLike;
}

/** What node-redis reads of a command's `abortSignal`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
