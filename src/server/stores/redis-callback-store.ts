// CallbackStore on Redis, for several servers behind one callback URL (docs/stores.md). It
// talks to a connected node-redis client through the few methods below (redis-client.ts), so pay-form
// never imports the `redis` package (an optional peer dependency) and its types do not need it either;
// the same client can serve RedisPayoutLedger.
import { claimKey, orderStatus, type CallbackRecord, type CallbackStore, type ClaimResult, type OrderStatus } from './callback-store.js';
import { PAID_STATUS } from '../../service/checkout.js';
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
  /** How long a finished callback and an order's record are remembered. Default 7 days. */
  ttlMs?: number;
  /** Each command's own limit, so a Redis that does not answer is a failure (503), not a hang. Default 2000. */
  commandTimeoutMs?: number;
  /** Told about subscriber errors (pub/sub is only a hint: the status handler also re-reads). */
  onError?: (error: unknown) => void;
}

/**
 * Every key of one order carries the order reference as its hash tag: `{prefix}{{order}}:`. A brace in
 * the prefix would be the tag instead (every key in one hash slot), so the prefix holds none; the order
 * reference is percent-encoded, so no `{`, `}` or `:` of it changes the key's shape, and no prefix
 * followed by one store's keys can be another store's key.
 */
const prefixProblem = (prefix: unknown): string | undefined =>
  typeof prefix !== 'string'
    ? 'must be a string'
    : /[{}]/.test(prefix)
      ? 'must not hold "{" or "}" (each key\'s hash tag is its order reference)'
      : undefined;

// Every key of one order carries the order reference as its hash tag ({…}, percent-encoded so that
// no `{`, `}` or `:` of the reference can change the key's shape), so each script touches one hash slot.

// claim: a finished callback answers finished; a live claim answers in-flight; else a new claim with
// the lease. The claim's value is this claim's own token, so release() frees only its own claim.
const CLAIM = `local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'finished' end
if v then return 'in-flight' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'claimed'`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

// finish: the callback done, its outcome for its attempt (a success is never overwritten; the first one
// marks the order paid), and the news of it, in one step: a waiter that hears the news always finds it.
// An outcome is the JSON of { status, invoice_id } in that order, so a success starts with the same 20
// characters.
// ARGV: ttlMs, the attempt's field, the outcome's JSON, '1' for a success, channel, order reference.
const FINISH = `redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1])
if KEYS[2] then
  local own = redis.call('HGET', KEYS[2], ARGV[2])
  if ARGV[4] == '1' then
    redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
    redis.call('HSETNX', KEYS[2], 'paid', ARGV[3])
  elseif not own or string.sub(own, 1, 20) ~= '{"status":"success",' then
    redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  redis.call('PUBLISH', ARGV[5], ARGV[6])
end
return 1`;

// status: the order's payment and the asked attempt's own status (ARGV[2] '0': the current attempt).
const STATUS = `local attempt = ARGV[1]
if ARGV[2] == '0' then attempt = redis.call('HGET', KEYS[1], 'current') or '' end
return redis.call('HMGET', KEYS[1], 'paid', 'a:' .. attempt)`;

// startAttempt: a paid order answers paid; else the attempt becomes the order's current one.
const START = `if redis.call('HEXISTS', KEYS[1], 'paid') == 1 then return 'paid' end
redis.call('HSET', KEYS[1], 'current', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 'started'`;

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
      ['prefix', prefixProblem(this.prefix)],
      ['leaseMs', milliseconds(this.leaseMs)],
      ['ttlMs', milliseconds(this.ttlMs)],
      ['commandTimeoutMs', timerMilliseconds(this.commandTimeoutMs)],
    ]);
  }

  get #channel(): string {
    return `${this.prefix}status`;
  }

  /** The start of every key of one order: its reference as the hash tag. */
  #orderKey(orderRef: string): string {
    return `${this.prefix}{${encodeURIComponent(orderRef)}}:`;
  }

  #claimKey(callback: CallbackRecord): string {
    return `${this.#orderKey(callback.order_ref)}callback:${claimKey(callback)}`;
  }

  #send(args: string[]): Promise<unknown> {
    // Fails at once while the client is not connected (node-redis would queue the command until it
    // reconnects) and after commandTimeoutMs otherwise: the callback handler then answers 503.
    return redisCommand(this.#client, args, this.commandTimeoutMs);
  }

  async claim(callback: CallbackRecord): Promise<ClaimResult> {
    const key = this.#claimKey(callback);
    const token = `in-flight:${crypto.randomUUID()}`;
    let answer: unknown;
    try {
      answer = await this.#send(['EVAL', CLAIM, '1', key, token, String(this.leaseMs)]);
    } catch (error) {
      // The claim may still land (Redis, or this process's busy event loop, answered after our limit):
      // the release goes out on the same connection, so Redis runs it after the claim, and the key does
      // not wait for the lease. No limit on it: node-redis would drop it unsent at the limit.
      if (this.#client.isReady !== false) {
        this.#client.sendCommand(['EVAL', RELEASE, '1', key, token]).catch(() => undefined);
      }
      throw error;
    }
    if (answer === 'claimed') this.#tokens.set(key, token);
    if (answer === 'claimed' || answer === 'finished' || answer === 'in-flight') return answer;
    throw new StoreError(`Redis: unexpected answer to the claim: ${String(answer)}`);
  }

  async finish(callback: CallbackRecord): Promise<void> {
    const key = this.#claimKey(callback);
    const { order_ref, attempt, status, invoice_id } = callback;
    const args = order_ref === ''
      ? ['EVAL', FINISH, '1', key, String(this.ttlMs)]
      : ['EVAL', FINISH, '2', key, `${this.#orderKey(order_ref)}order`, String(this.ttlMs), `a:${attempt}`,
          JSON.stringify({ status, invoice_id }), status === PAID_STATUS ? '1' : '0', this.#channel, order_ref];
    try {
      await this.#send(args);
    } finally {
      this.#tokens.delete(key);
    }
  }

  async release(callback: CallbackRecord): Promise<void> {
    const key = this.#claimKey(callback);
    const token = this.#tokens.get(key);
    if (token === undefined) return;
    await this.#send(['EVAL', RELEASE, '1', key, token]);
    this.#tokens.delete(key);
  }

  async status(orderRef: string, attempt?: string): Promise<OrderStatus | undefined> {
    const reply = await this.#send(['EVAL', STATUS, '1', `${this.#orderKey(orderRef)}order`, attempt ?? '', attempt === undefined ? '0' : '1']);
    const [paid, own] = Array.isArray(reply) ? reply : [];
    return orderStatus({ paid: parseOrderStatus(paid), own: parseOrderStatus(own) });
  }

  async startAttempt(orderRef: string, attempt: string): Promise<'started' | 'paid'> {
    const answer = await this.#send(['EVAL', START, '1', `${this.#orderKey(orderRef)}order`, attempt, String(this.ttlMs)]);
    if (answer === 'started' || answer === 'paid') return answer;
    throw new StoreError(`Redis: unexpected answer to the attempt's start: ${String(answer)}`);
  }

  /** Told through Redis pub/sub on a duplicated connection, made on the first watch. */
  watch(orderRef: string, listener: () => void): () => void {
    this.#subscribe();
    return this.#watchers.add(orderRef, listener);
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
      await subscriber.subscribe(this.#channel, (orderRef) => this.#watchers.notify(orderRef));
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
export function parseOrderStatus(text: unknown): OrderStatus | undefined {
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
