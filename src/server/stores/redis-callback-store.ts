// CallbackStore on Redis, for several servers behind one callback URL (docs/stores.md). It talks to
// a connected client of node-redis or ioredis through redis-connection.ts, so pay-form never imports
// either library (optional peer dependencies) and its types do not need them; the same client can
// serve RedisPayoutLedger.
import type { CallbackStore, ClaimResult, OrderOutcome, OrderStatus } from './callback-store.js';
import { Watchers } from './watchers.js';
import type { RedisClientLike } from './redis-client.js';
import { redisConnection, type RedisConnection, type RedisSubscription } from './redis-connection.js';
import { bounded, RedisScript } from './redis-script.js';
import { ConfigError, StoreError, requireOptions } from '../errors.js';
import { milliseconds, timerMilliseconds } from '../../service/option-rules.js';

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

/** What follows the prefix in each key: a claim's, and an order's status. */
const KINDS = { claim: 'callback:', status: 'order:' } as const;

/**
 * A prefix holding a key kind could be another store's prefix with that kind added ('n:' and
 * 'n:order:'): the one store's keys would be the other's, and the two would read each other's claims
 * and statuses. Refused, so that two stores on one Redis never share a key.
 */
const prefixProblem = (prefix: unknown): string | undefined =>
  typeof prefix !== 'string'
    ? 'must be a string'
    : Object.values(KINDS).some((kind) => prefix.includes(kind))
      ? `must not hold ${Object.values(KINDS).map((kind) => `"${kind}"`).join(' or ')} (this store's own key names: it could then share keys with a store whose prefix is shorter)`
      : undefined;

// begin: a done key answers done; a live claim answers in-flight; else a new claim with the lease.
// The claim's value is this claim's own token, so fail() releases only its own claim.
const BEGIN = new RedisScript(`local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'done' end
if v then return 'in-flight' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'new'`);

const FAIL = new RedisScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`);

// complete: done, the order's status, and the news of it, in one step: a waiter that hears the news
// always finds the status.
const COMPLETE = new RedisScript(`redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1])
if KEYS[2] then
  redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[1])
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return 1`);

/**
 * `new RedisCallbackStore(client, { prefix, leaseMs, ttlMs })`, `client` a connected client of node-redis or ioredis.
 * Every command fails fast while the client is not connected, and after commandTimeoutMs otherwise,
 * so the callback handler answers 503 and the service delivers again.
 */
export class RedisCallbackStore implements CallbackStore {
  readonly prefix: string;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly commandTimeoutMs: number;
  readonly #redis: RedisConnection;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #tokens = new Map<string, string>();
  readonly #watchers = new Watchers();
  #subscription: RedisSubscription | undefined;

  constructor(client: RedisClientLike, options: RedisCallbackStoreOptions = {}) {
    const redis = redisConnection(client);
    if (redis === undefined || typeof (client as { duplicate?: unknown }).duplicate !== 'function') {
      throw new ConfigError([{ path: 'client', message: 'must be a connected client of node-redis or ioredis' }], 'RedisCallbackStore');
    }
    this.#redis = redis;
    this.prefix = options.prefix ?? 'pay-form:';
    this.leaseMs = options.leaseMs ?? 60_000;
    this.ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60 * 1000;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 2000;
    this.#onError = options.onError;
    requireOptions('RedisCallbackStore', [
      ['prefix', prefixProblem(this.prefix)],
      ['leaseMs', milliseconds(this.leaseMs)],
      ['ttlMs', milliseconds(this.ttlMs)],
      ['commandTimeoutMs', timerMilliseconds(this.commandTimeoutMs)],
    ]);
  }

  get #channel(): string {
    return `${this.prefix}status`;
  }

  #claimKey(key: string): string {
    return `${this.prefix}${KINDS.claim}${key}`;
  }

  #statusKey(requestId: string): string {
    return `${this.prefix}${KINDS.status}${requestId}`;
  }

  async begin(key: string): Promise<ClaimResult> {
    const token = `in-flight:${crypto.randomUUID()}`;
    let answer: unknown;
    try {
      answer = await BEGIN.run(this.#redis, [this.#claimKey(key)], [token, String(this.leaseMs)], this.commandTimeoutMs);
    } catch (error) {
      // The claim may still land (Redis, or this process's busy event loop, answered after our limit):
      // the release goes out on the same connection, so Redis runs it after the claim, and the key does
      // not wait for the lease. No limit on it: node-redis would drop it unsent at the limit.
      if (this.#redis.ready()) FAIL.run(this.#redis, [this.#claimKey(key)], [token]).catch(() => undefined);
      throw error;
    }
    if (answer === 'new') this.#tokens.set(key, token);
    if (answer === 'new' || answer === 'done' || answer === 'in-flight') return answer;
    throw new StoreError(`Redis: unexpected answer to the claim: ${String(answer)}`);
  }

  async complete(key: string, outcome?: OrderOutcome): Promise<void> {
    const [keys, args] = outcome === undefined
      ? [[this.#claimKey(key)], [String(this.ttlMs)]]
      : [[this.#claimKey(key), this.#statusKey(outcome.request_id)],
          [String(this.ttlMs), JSON.stringify({ status: outcome.status, invoice_id: outcome.invoice_id }), this.#channel, outcome.request_id]];
    try {
      await COMPLETE.run(this.#redis, keys, args, this.commandTimeoutMs);
    } finally {
      this.#tokens.delete(key);
    }
  }

  async fail(key: string): Promise<void> {
    const token = this.#tokens.get(key);
    if (token === undefined) return;
    await FAIL.run(this.#redis, [this.#claimKey(key)], [token], this.commandTimeoutMs);
    this.#tokens.delete(key);
  }

  async status(requestId: string): Promise<OrderStatus | undefined> {
    const statusKey = this.#statusKey(requestId);
    const text = await bounded(this.#redis, 'GET', this.commandTimeoutMs, () => this.#redis.send(statusKey, ['GET', statusKey], this.commandTimeoutMs));
    return parseOrderStatus(typeof text === 'string' ? text : null);
  }

  /** Told through Redis pub/sub on a duplicated connection, made on the first watch. */
  watch(requestId: string, listener: () => void): () => void {
    this.#subscribe();
    return this.#watchers.add(requestId, listener);
  }

  /** Closes the subscriber connection (the client given is the caller's to close). */
  async close(): Promise<void> {
    this.#subscription?.close();
    this.#subscription = undefined;
  }

  #subscribe(): void {
    if (this.#subscription !== undefined) return;
    const subscription = this.#redis.subscribe(this.#channel, (requestId) => this.#watchers.notify(requestId), (error) => this.#onError?.(error));
    this.#subscription = subscription;
    subscription.subscribed.catch((error: unknown) => {
      // Try again on the next watch; meanwhile the status handler's re-reads carry the news.
      this.#onError?.(error);
      subscription.close();
      if (this.#subscription === subscription) this.#subscription = undefined;
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
