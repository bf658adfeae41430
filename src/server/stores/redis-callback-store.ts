// CallbackStore on Redis, for several servers behind one callback URL (docs/stores.md). It
// talks to a connected node-redis client through the few methods below (redis-client.ts), so pay-form
// never imports the `redis` package (an optional peer dependency) and its types do not need it either;
// the same client can serve RedisPayoutLedger.
import type { CallbackStore, ClaimResult, OrderOutcome, OrderStatus } from './callback-store.js';
import { Watchers } from './watchers.js';
import { isRedisCommandClient, redisCommand, type RedisCommandClient } from './redis-client.js';
import { ConfigError, StoreError, requireOptions } from '../errors.js';
import { milliseconds, timerMilliseconds } from '../../service/option-rules.js';

/** The subscriber connection: what node-redis's `client.duplicate()` gives. */
export interface RedisSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  destroy?(): unknown;
}

/** The part of a connected node-redis client (v5 and later) the store uses: commands, and a second
 *  connection for pub/sub. */
export interface RedisClientLike extends RedisCommandClient {
  duplicate(): RedisSubscriberLike;
}

export interface RedisCallbackStoreOptions {
  /** Put before every key and the channel name. Default 'pay-form:'. */
  prefix?: string;
  /** How long an in-flight claim holds: past it, the next delivery claims the key again. Default 60 s. */
  leaseMs?: number;
  /** How long a done key and an order's status are remembered. Default 7 days. */
  ttlMs?: number;
  /** Each command's own limit, so a Redis that does not answer is a failure (503), not a hang. Default 2000. */
  commandTimeoutMs?: number;
  /** Told about subscriber errors (pub/sub is only a hint: the status handler also re-reads). */
  onError?: (error: unknown) => void;
}

// begin: a done key answers done; a live claim answers in-flight; else a new claim with the lease.
// The claim's value is this claim's own token, so fail() releases only its own claim.
const BEGIN = `local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'done' end
if v then return 'in-flight' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'new'`;

const FAIL = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

// complete: done, the order's status, and the news of it, in one step: a waiter that hears the news
// always finds the status.
const COMPLETE = `redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1])
if KEYS[2] then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[1])
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return 1`;

/**
 * `new RedisCallbackStore(client, { prefix, leaseMs, ttlMs })`, `client` a connected node-redis client.
 * Every command fails fast while the client is not connected, and after commandTimeoutMs otherwise,
 * so the callback handler answers 503 and the service delivers again.
 */
export class RedisCallbackStore implements CallbackStore {
  readonly prefix: string;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly commandTimeoutMs: number;
  readonly #client: RedisClientLike;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #tokens = new Map<string, string>();
  readonly #watchers = new Watchers();
  #subscriber: Promise<RedisSubscriberLike> | undefined;

  constructor(client: RedisClientLike, options: RedisCallbackStoreOptions = {}) {
    if (!isRedisCommandClient(client) || typeof client.duplicate !== 'function') {
      throw new ConfigError([{ path: 'client', message: 'must be a connected node-redis client (createClient from the redis package)' }], 'RedisCallbackStore');
    }
    this.#client = client;
    this.prefix = options.prefix ?? 'pay-form:';
    this.leaseMs = options.leaseMs ?? 60_000;
    this.ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2000;
    this.#onError = options.onError;
    requireOptions('RedisCallbackStore', [
      ['leaseMs', milliseconds(this.leaseMs)],
      ['ttlMs', milliseconds(this.ttlMs)],
      ['commandTimeoutMs', timerMilliseconds(this.commandTimeoutMs)],
    ]);
  }

  get #channel(): string {
    return `${this.prefix}status`;
  }

  #claimKey(key: string): string {
    return `${this.prefix}callback:${key}`;
  }

  #statusKey(requestId: string): string {
    return `${this.prefix}order:${requestId}`;
  }

  #send(args: string[]): Promise<unknown> {
    // Fails at once while the client is not connected (node-redis would queue the command until it
    // reconnects) and after commandTimeoutMs otherwise: the callback handler then answers 503.
    return redisCommand(this.#client, args, this.commandTimeoutMs);
  }

  async begin(key: string): Promise<ClaimResult> {
    const token = `in-flight:${crypto.randomUUID()}`;
    let answer: unknown;
    try {
      answer = await this.#send(['EVAL', BEGIN, '1', this.#claimKey(key), token, String(this.leaseMs)]);
    } catch (error) {
      // The claim may still land (Redis, or this process's busy event loop, answered after our limit):
      // the release goes out on the same connection, so Redis runs it after the claim, and the key does
      // not wait for the lease. No limit on it: node-redis would drop it unsent at the limit.
      if (this.#client.isReady !== false) {
        this.#client.sendCommand(['EVAL', FAIL, '1', this.#claimKey(key), token]).catch(() => undefined);
      }
      throw error;
    }
    if (answer === 'new') this.#tokens.set(key, token);
    if (answer === 'new' || answer === 'done' || answer === 'in-flight') return answer;
    throw new StoreError(`Redis: unexpected answer to the claim: ${String(answer)}`);
  }

  async complete(key: string, outcome?: OrderOutcome): Promise<void> {
    const args = outcome === undefined
      ? ['EVAL', COMPLETE, '1', this.#claimKey(key), String(this.ttlMs)]
      : ['EVAL', COMPLETE, '2', this.#claimKey(key), this.#statusKey(outcome.request_id), String(this.ttlMs),
          JSON.stringify({ status: outcome.status, invoice_id: outcome.invoice_id }), this.#channel, outcome.request_id];
    try {
      await this.#send(args);
    } finally {
      this.#tokens.delete(key);
    }
  }

  async fail(key: string): Promise<void> {
    const token = this.#tokens.get(key);
    if (token === undefined) return;
    await this.#send(['EVAL', FAIL, '1', this.#claimKey(key), token]);
    this.#tokens.delete(key);
  }

  async status(requestId: string): Promise<OrderStatus | undefined> {
    const text = await this.#send(['GET', this.#statusKey(requestId)]);
    return parseOrderStatus(typeof text === 'string' ? text : null);
  }

  /** Told through Redis pub/sub on a duplicated connection, made on the first watch. */
  watch(requestId: string, listener: () => void): () => void {
    this.#subscribe();
    return this.#watchers.add(requestId, listener);
  }

  /** Closes the subscriber connection (the client given is the caller's to close). */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    const connected = await subscriber?.catch(() => undefined);
    connected?.destroy?.();
  }

  #subscribe(): void {
    if (this.#subscriber !== undefined) return;
    const subscriber = this.#client.duplicate();
    subscriber.on('error', (error) => this.#onError?.(error));
    this.#subscriber = (async () => {
      await subscriber.connect();
      await subscriber.subscribe(this.#channel, (requestId) => this.#watchers.notify(requestId));
      return subscriber;
    })();
    this.#subscriber.catch((error: unknown) => {
      // Try again on the next watch; meanwhile the status handler's re-reads carry the news.
      this.#onError?.(error);
      subscriber.destroy?.();
      this.#subscriber = undefined;
    });
  }
}

/** A verified status as stored: JSON of { status, invoice_id }; anything else reads as absent. */
export function parseOrderStatus(text: string | null | undefined): OrderStatus | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value = JSON.parse(text) as Partial<OrderStatus> | null;
    if (typeof value?.status === 'string' && typeof value.invoice_id === 'string') {
      return { status: value.status, invoice_id: value.invoice_id };
    }
  } catch {
    // A foreign value under our key: treated as no status.
  }
  return undefined;
}
