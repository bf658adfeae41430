// One way for RedisCallbackStore and RedisPayoutLedger to talk to Redis, whatever client the merchant
// passed (redis-client.ts): each shape is recognised at run time by the methods only it has, never by
// importing its library, and spoken to through RedisConnection. Every command names the key whose
// hash slot routes it, so a cluster client sends it to the node holding that slot.
import type {
  AbortSignalLike,
  IoredisLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  NodeRedisSentinelLike,
  RedisClientLike,
  RedisCommandClient,
  RedisSubscriberLike,
} from './redis-client.js';
import { StoreError } from '../errors.js';

export type RedisTopology = 'standalone' | 'sentinel' | 'cluster';

/** A subscription on its own connection; `subscribed` settles once Redis confirmed it. */
export interface RedisSubscription {
  readonly subscribed: Promise<void>;
  close(): void;
}

export interface RedisConnection {
  readonly topology: RedisTopology;
  /** false while the client cannot send now: commands then fail at once rather than queue. */
  ready(): boolean;
  /** One command, sent to the node holding `key`'s slot; node-redis drops it unsent after `timeoutMs` (and up to 0.1 s more). */
  send(key: string, args: readonly string[], timeoutMs?: number): Promise<unknown>;
  /** Commands written together on one connection to the node holding `key`'s slot: their replies in
   *  order, or the first error one of them got. WAIT counts the writes of its own connection only, so a
   *  write and its WAIT must travel this way. */
  pipeline(key: string, commands: ReadonlyArray<readonly string[]>): Promise<unknown[]>;
  /** Subscribes to `channel` on a duplicate of the client (a connection of its own); `onReconnect` is
   *  called each time that connection is made again (both libraries subscribe again by themselves, and
   *  whatever was published meanwhile is lost). */
  subscribe(channel: string, listener: (message: string) => void, onError: (error: unknown) => void, onReconnect: () => void): RedisSubscription;
}

type Fields = Record<string, unknown>;
const has = (client: unknown, method: string): boolean =>
  typeof client === 'object' && client !== null && typeof (client as Fields)[method] === 'function';

const isIoredis = (client: unknown): client is IoredisLike =>
  has(client, 'call') && has(client, 'pipeline') && typeof (client as Fields)['isCluster'] === 'boolean';

/** A node-redis pipeline's replies; some versions throw every reply (in `replies`) when one failed. */
async function pipelined(run: () => Promise<unknown[]>): Promise<unknown[]> {
  try {
    return await run();
  } catch (error) {
    const replies = (error as { replies?: unknown } | null)?.replies;
    throw (Array.isArray(replies) && replies.find((reply) => reply instanceof Error)) || error;
  }
}

/** Calls `again` at every 'ready' of the subscriber after its first: the connection was made again. */
function onReady(subscriber: Pick<RedisSubscriberLike, 'on'> | IoredisLike, again: () => void): void {
  let first = true;
  (subscriber as Pick<RedisSubscriberLike, 'on'>).on('ready', () => {
    if (first) first = false;
    else again();
  });
}

/** node-redis's subscriber: the same for its three clients, all of which duplicate themselves. */
function nodeRedisSubscribe(
  client: Subscribable,
  channel: string,
  listener: (message: string) => void,
  onError: (error: unknown) => void,
  onReconnect: () => void,
): RedisSubscription {
  if (client.duplicate === undefined) throw new StoreError('this Redis client cannot duplicate itself for pub/sub');
  const subscriber = client.duplicate();
  let closed = false;
  subscriber.on('error', onError);
  onReady(subscriber, onReconnect);
  const subscribed = (async () => {
    await subscriber.connect();
    if (closed) throw new StoreError('closed');
    await subscriber.subscribe(channel, listener);
  })();
  return {
    subscribed,
    close() {
      closed = true;
      // Closing before connect() ended: node-redis rejects that connect, which the caller already handles.
      Promise.resolve(subscriber.destroy?.()).catch(() => undefined);
    },
  };
}

type Subscribable = { readonly isReady?: boolean; duplicate?(): RedisSubscriberLike };
type Timeout = { abortSignal: CommandDeadline; timeout: undefined } | undefined;

/** How long the commands that share one deadline may be sent apart. */
const SHARED_MS = 100;

/**
 * A command's `abortSignal`, shared by the commands sent within SHARED_MS with the same limit and
 * aborted once that limit has passed for the last of them (at most SHARED_MS late): node-redis drops a
 * command still unwritten then, as its own `timeout` option does. That option (on by default, 5 s)
 * makes an AbortSignal, a timer and, when the timer fires whether the command was written or not, a
 * DOMException per command: about a tenth of a callback's CPU under load (docs/performance.md, Open
 * checkouts). A Set, not an EventTarget: no listener limit to warn about, and a listener removed in
 * constant time.
 */
class CommandDeadline implements AbortSignalLike {
  aborted = false;
  readonly #listeners = new Set<() => void>();

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.delete(listener);
  }

  abort(): void {
    this.aborted = true;
    for (const listener of this.#listeners) listener();
    this.#listeners.clear();
  }
}

/** The deadline a command with `timeoutMs` joins now. */
function sharedDeadlines(): (timeoutMs: number) => CommandDeadline {
  const current = new Map<number, { until: number; deadline: CommandDeadline }>();
  return (timeoutMs) => {
    const now = Date.now();
    let held = current.get(timeoutMs);
    if (held === undefined || now >= held.until) {
      const deadline = new CommandDeadline();
      setTimeout(() => deadline.abort(), timeoutMs + SHARED_MS).unref?.();
      held = { until: now + SHARED_MS, deadline };
      current.set(timeoutMs, held);
    }
    return held.deadline;
  };
}

/** node-redis's three clients differ only in how a command names its route. */
function nodeRedis(
  topology: RedisTopology,
  client: Subscribable,
  send: (key: string, args: string[], options: Timeout) => Promise<unknown>,
  batch: (key: string, commands: string[][]) => Promise<unknown[]>,
): RedisConnection {
  const deadline = sharedDeadlines();
  return {
    topology,
    ready: () => client.isReady !== false,
    send: (key, args, timeout) => send(key, [...args], timeout === undefined ? undefined : { abortSignal: deadline(timeout), timeout: undefined }),
    pipeline: (key, commands) => pipelined(() => batch(key, commands.map((args) => [...args]))),
    subscribe: (channel, listener, onError, onReconnect) => nodeRedisSubscribe(client, channel, listener, onError, onReconnect),
  };
}

const nodeRedisClient = (client: NodeRedisClientLike & Subscribable) =>
  nodeRedis('standalone', client, (_key, args, options) => client.sendCommand(args, options), (_key, commands) => {
    const multi = client.multi?.();
    // Without multi (an object with sendCommand only): one connection writes them in order as sent.
    if (multi === undefined) return Promise.all(commands.map((args) => client.sendCommand(args)));
    return commands.reduce((batch, args) => batch.addCommand(args), multi).execAsPipeline();
  });

// multi(key) pins the batch to the node of key's slot: no redirect is followed inside it.
const nodeRedisCluster = (client: NodeRedisClusterLike & Subscribable) =>
  nodeRedis('cluster', client, (key, args, options) => client.sendCommand(key, false, args, options), (key, commands) =>
    commands.reduce((batch, args) => batch.addCommand(key, false, args), client.multi(key)).execAsPipeline(),
  );

const nodeRedisSentinel = (client: NodeRedisSentinelLike & Subscribable) =>
  nodeRedis('sentinel', client, (_key, args, options) => client.sendCommand(false, args, options), (_key, commands) =>
    commands.reduce((batch, args) => batch.addCommand(false, args), client.multi()).execAsPipeline(),
  );

function ioredis(client: IoredisLike): RedisConnection {
  const options = (client as unknown as Fields)['options'] as Fields | undefined;
  const sentinels = options?.['sentinels'];
  return {
    topology: client.isCluster ? 'cluster' : Array.isArray(sentinels) && sentinels.length > 0 ? 'sentinel' : 'standalone',
    ready: () => client.status === 'ready',
    send: (_key, [command = '', ...args]) => client.call(command, ...args),
    pipeline: async (_key, commands) => {
      // On a cluster, ioredis sends a pipeline to the node of its keys' slot (WAIT has none).
      const replies = await client.pipeline(commands.map((args) => ['call', ...args])).exec();
      if (replies === null) throw new StoreError('Redis: the pipeline was discarded');
      const failed = replies.find(([error]) => error !== null);
      if (failed) throw failed[0];
      return replies.map(([, reply]) => reply);
    },
    subscribe(channel, listener, onError, onReconnect) {
      const subscriber = client.duplicate();
      let closed = false;
      subscriber.on('error', (error) => onError(error));
      onReady(subscriber, onReconnect);
      subscriber.on('message', (from, message) => {
        if (from === channel && typeof message === 'string') listener(message);
      });
      const subscribed = (async () => {
        if (subscriber.status === 'wait') await subscriber.connect();
        else if (subscriber.status !== 'ready') {
          // With enableOfflineQueue: false, a SUBSCRIBE before the connection is ready fails.
          await new Promise<void>((resolve, reject) => {
            subscriber.once('ready', () => resolve());
            subscriber.once('end', () => reject(new StoreError('Redis: the subscriber connection ended')));
          });
        }
        if (closed) throw new StoreError('closed');
        await subscriber.subscribe(channel);
      })();
      return {
        subscribed,
        close() {
          closed = true;
          subscriber.disconnect();
        },
      };
    },
  };
}

/**
 * A pinned pipeline that met MOVED (the slot has a new primary, after a failover) was not run there.
 * One command through the client's own routing teaches it the new owner; the pipeline then goes once
 * more, to that node.
 */
function followMoved(redis: RedisConnection): RedisConnection {
  const pipeline = redis.pipeline;
  return {
    ...redis,
    async pipeline(key, commands) {
      try {
        return await pipeline(key, commands);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('MOVED'))) throw error;
        await redis.send(key, ['EXISTS', key]);
        return pipeline(key, commands);
      }
    },
  };
}

function recognise(client: RedisCommandClient | RedisClientLike): RedisConnection | undefined {
  if (isIoredis(client)) return ioredis(client);
  if (!has(client, 'sendCommand')) return undefined;
  // node-redis's Sentinel client alone has getMasterNode, its cluster client alone nodeClient.
  if (has(client, 'getMasterNode') && has(client, 'multi')) return nodeRedisSentinel(client as NodeRedisSentinelLike);
  if (has(client, 'nodeClient') && has(client, 'multi')) return nodeRedisCluster(client as NodeRedisClusterLike);
  return nodeRedisClient(client as NodeRedisClientLike);
}

/** The connection for a client of any shape pay-form takes; undefined for anything else. */
export function redisConnection(client: RedisCommandClient | RedisClientLike): RedisConnection | undefined {
  const redis = recognise(client);
  return redis?.topology === 'cluster' ? followMoved(redis) : redis;
}

/** A key prefix's problem, if any: it must be a string without `{` or `}`, since pay-form places the hash tags. */
export function redisPrefix(prefix: unknown): string | undefined {
  return typeof prefix === 'string' && !/[{}]/.test(prefix) ? undefined : 'must be a string without { or } (pay-form places the hash tags)';
}

/** WAIT's default: a cluster or a Sentinel set has replicas to fail over to; a lone server may have none. */
export function replicaDefault(topology: RedisTopology): number {
  return topology === 'standalone' ? 0 : 1;
}
