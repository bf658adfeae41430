// CallbackStore on Redis (one server, a Sentinel-managed primary or a Redis Cluster), for several
// servers behind one callback URL (docs/stores.md). It talks to a connected client of node-redis or
// ioredis through redis-connection.ts, so pay-form never imports either library (optional peer
// dependencies) and its types do not need them; the same client can serve RedisPayoutLedger.
import { claimKey, orderStatus, type AttemptRequest, type AttemptStart, type CallbackRecord, type CallbackStore, type ClaimResult, type KeptToken, type OrderStatus, type StatusNews, type Verdict } from './callback-store.js';
import { DROP, JUDGE, judgeArgs, judgeLua, KEEP, parseStart, parseVerdict, START, startArgs } from './redis-attempt-scripts.js';
import { PAID_STATUS } from '../../service/checkout.js';
import { parseOrderStatus, StatusFeed } from './status-feed.js';
import type { RedisClientLike } from './redis-client.js';
import { redisConnection, type RedisConnection } from './redis-connection.js';
import { resolveRedisOptions, type RedisOptions } from './redis-options.js';
import { RedisScript } from './redis-script.js';
import { sendUntilTaken } from './retry.js';
import { ConfigError, StoreError } from '../errors.js';
import { milliseconds } from '../../service/option-rules.js';

/** The shared Redis options (prefix default 'pay-form:', ttlMs default 7 days), and the store's own. */
export interface RedisCallbackStoreOptions extends RedisOptions {
  /** How long an in-flight claim holds: past it, the next delivery claims the key again. Default 60 s. */
  leaseMs?: number;
  /** Told about subscriber errors (a watched order reads again whenever the subscription may have missed news: status-feed.ts). */
  onError?: (error: unknown) => void;
}

// Every key of one order carries the order reference as its hash tag: `{prefix}{{order}}:`, the order
// reference percent-encoded, so no `{`, `}` or `:` of it changes the key's shape, each script touches
// one hash slot, and no prefix followed by one store's keys can be another store's key. A brace in the
// prefix would be the tag instead, so the prefix holds none (redisPrefix).

// claim: a finished callback answers finished; a live claim answers in-flight; else a new claim with
// the lease. The claim's value is this claim's own token, so release() frees only its own claim. A
// token already released (KEYS[2]) takes nothing: its caller gave up, and a client that sends commands
// again after reconnecting (ioredis does) can deliver the claim after its release.
const CLAIM_LUA = `if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 'in-flight' end
local v = redis.call('GET', KEYS[1])
if v == 'done' then return 'finished' end
if v then return 'in-flight' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'claimed'`;
const CLAIM = new RedisScript(CLAIM_LUA);

// A callback for an order: the claim and, when it claims, the judgement (KEYS[3], the order's hash;
// ARGV[3…], judgeArgs) in one round trip, answered as { 'claimed', verdict… } or { claim's answer }. A
// judgement whose claim is released stands: judged again, the same invoice gets the same verdict.
const CLAIM_AND_JUDGE = new RedisScript(`local function claim()
${CLAIM_LUA}
end
local claimed = claim()
if claimed ~= 'claimed' then return {claimed} end
local function judge()
${judgeLua('KEYS[3]', 3)}
end
local verdict = judge()
table.insert(verdict, 1, 'claimed')
return verdict`);

// ARGV: token, ttlMs (how long the release is remembered).
const RELEASE = new RedisScript(`redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`);

// finish: the callback done, its outcome for its attempt (a success is never overwritten; the payment
// marks the order paid), and the news of it, in one step: a waiter that hears the news always finds it.
// The news carries what the write left (the attempt's own outcome, the order's payment), so a waiting
// request is answered without reading it back (status-feed.ts reads the message).
// An outcome is the JSON of { status, invoice_id, extra? } in that order, so a success starts with the
// same 20 characters. A foreign callback (judge) comes with the claim's key only: it touches no order.
// ARGV: ttlMs, the attempt's field, the outcome's JSON, '1' for the order's payment, channel, order reference.
const FINISH = new RedisScript(`redis.call('SET', KEYS[1], 'done', 'PX', ARGV[1])
if KEYS[2] then
  local own = redis.call('HGET', KEYS[2], ARGV[2])
  if ARGV[4] == '1' then
    redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
    redis.call('HSETNX', KEYS[2], 'paid', ARGV[3])
  elseif not own or string.sub(own, 1, 20) ~= '{"status":"success",' then
    redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  local now = redis.call('HMGET', KEYS[2], ARGV[2], 'paid')
  redis.call('PUBLISH', ARGV[5], '\\1' .. cjson.encode({ARGV[6], ARGV[2], now[1], now[2]}))
end
return 1`);

// status: the order's payment and the asked attempt's own status (ARGV[2] '0': the current attempt).
const STATUS = new RedisScript(`local attempt = ARGV[1]
if ARGV[2] == '0' then attempt = redis.call('HGET', KEYS[1], 'current') or '' end
return redis.call('HMGET', KEYS[1], 'paid', 'a:' .. attempt)`);

/**
 * `new RedisCallbackStore(client, { prefix, leaseMs, ttlMs })`, `client` a connected client of
 * node-redis or ioredis. Every command fails fast while the client is not connected, and after
 * commandTimeoutMs otherwise, so the callback handler answers 503 and the service delivers again.
 */
export class RedisCallbackStore implements CallbackStore {
  readonly prefix: string;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly commandTimeoutMs: number;
  readonly replicas: number;
  readonly replicaWaitMs: number;
  readonly #redis: RedisConnection;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #tokens = new Map<string, string>();
  /** Verdicts judged with their claim, until judge() takes them (or the claim ends). */
  readonly #verdicts = new Map<string, Verdict>();
  readonly #feed: StatusFeed;

  constructor(client: RedisClientLike, options: RedisCallbackStoreOptions = {}) {
    const redis = redisConnection(client);
    if (redis === undefined || typeof (client as { duplicate?: unknown }).duplicate !== 'function') {
      throw new ConfigError([{ path: 'client', message: 'must be a connected client of node-redis or ioredis' }], 'RedisCallbackStore');
    }
    this.#redis = redis;
    this.leaseMs = options.leaseMs ?? 60_000;
    ({ prefix: this.prefix, ttlMs: this.ttlMs, commandTimeoutMs: this.commandTimeoutMs, replicas: this.replicas, replicaWaitMs: this.replicaWaitMs } =
      resolveRedisOptions('RedisCallbackStore', redis, options, { prefix: 'pay-form:', ttlMs: 7 * 24 * 60 * 60 * 1000 }, [
        ['leaseMs', milliseconds(this.leaseMs)],
      ]));
    this.#onError = options.onError;
    this.#feed = new StatusFeed(redis, this.#channel, (error) => this.#onError?.(error));
  }

  get #channel(): string {
    return `${this.prefix}status`;
  }

  /** The start of every key of one order: its reference as the hash tag. */
  #orderKey(orderRef: string): string {
    return `${this.prefix}{${encodeURIComponent(orderRef)}}:`;
  }

  /** The order's hash: its payment, attempts and their outcomes. */
  #hash(orderRef: string): string {
    return `${this.#orderKey(orderRef)}order`;
  }

  /** A callback's claim, and the tokens released on its order. */
  #claimKeys(callback: CallbackRecord): [string, string] {
    const order = this.#orderKey(callback.order_ref);
    return [`${order}callback:${claimKey(callback)}`, `${order}released`];
  }

  /** A write that must outlive a failover (RedisScript.runDurable): its reply, and whether enough replicas hold it. */
  async #durable(script: RedisScript, keys: string[], args: string[]): Promise<[reply: unknown, kept: boolean]> {
    const { reply, kept } = await script.runDurable(this.#redis, keys, args, { replicas: this.replicas, waitMs: this.replicaWaitMs }, this.commandTimeoutMs);
    return [reply, kept];
  }

  #tooFew(step: string): StoreError {
    return new StoreError(`Redis: the ${step} reached fewer than ${this.replicas} replicas within ${this.replicaWaitMs} ms`);
  }

  /** The claim's script; an order's callback is judged in it too, one round trip fewer (judge() hands the verdict over). */
  async #claimScript(callback: CallbackRecord, keys: string[], token: string): Promise<{ answer: unknown; kept: boolean; verdict?: Verdict }> {
    if (callback.order_ref === '') {
      const [answer, kept] = await this.#durable(CLAIM, keys, [token, String(this.leaseMs)]);
      return { answer, kept };
    }
    const [reply, kept] = await this.#durable(CLAIM_AND_JUDGE, [...keys, this.#hash(callback.order_ref)], [token, String(this.leaseMs), ...this.#judgeArgs(callback)]);
    const [answer, ...judged] = Array.isArray(reply) ? (reply as unknown[]) : [];
    return answer === 'claimed' ? { answer, kept, verdict: parseVerdict(judged) } : { answer, kept };
  }

  async claim(callback: CallbackRecord): Promise<ClaimResult> {
    const keys = this.#claimKeys(callback);
    const token = `in-flight:${crypto.randomUUID()}`;
    // Unbounded: node-redis would drop it unsent at a limit. Sent again until taken: a claim that ran on
    // a primary which died before answering is held by its replica now, for the lease otherwise.
    const release = () => sendUntilTaken(() => RELEASE.run(this.#redis, keys, [token, String(this.ttlMs)]), this.leaseMs);
    let answer: unknown;
    let kept: boolean;
    let verdict: Verdict | undefined;
    try {
      ({ answer, kept, verdict } = await this.#claimScript(callback, keys, token));
    } catch (error) {
      // The claim may still land (Redis, or this process's busy event loop, answered after our limit):
      // the release goes out on the same connection, so Redis runs it after the claim, and the key does
      // not wait for the lease. A judgement that does not parse gives the claim back too.
      void release();
      throw error;
    }
    if (answer === 'claimed' && !kept) {
      // Only the primary holds it: a failover now could hand the callback to a second onStatus.
      void release();
      throw this.#tooFew('claim');
    }
    if (answer === 'claimed') this.#tokens.set(keys[0], token);
    if (verdict !== undefined) this.#verdicts.set(keys[0], verdict);
    if (answer === 'claimed' || answer === 'finished' || answer === 'in-flight') return answer;
    throw new StoreError(`Redis: unexpected answer to the claim: ${String(answer)}`);
  }

  async finish(callback: CallbackRecord): Promise<void> {
    const [key] = this.#claimKeys(callback);
    const { order_ref, attempt, status, invoice_id, verdict } = callback;
    const extra = verdict?.verdict === 'extra' ? { extra: true } : {};
    const [keys, args] = order_ref === '' || verdict === undefined || verdict.verdict === 'foreign'
      ? [[key], [String(this.ttlMs)]]
      : [[key, this.#hash(order_ref)],
          [String(this.ttlMs), `a:${attempt}`, JSON.stringify({ status, invoice_id, ...extra }), verdict.verdict === 'payment' ? '1' : '0', this.#channel, order_ref]];
    try {
      // Too few replicas: a 503 now, and the callback handler finishes again while the lease lasts.
      const [, kept] = await this.#durable(FINISH, keys, args);
      if (!kept) throw this.#tooFew('finish');
    } finally {
      this.#tokens.delete(key);
      this.#verdicts.delete(key);
    }
  }

  async release(callback: CallbackRecord): Promise<void> {
    const keys = this.#claimKeys(callback);
    const token = this.#tokens.get(keys[0]);
    if (token === undefined) return;
    this.#verdicts.delete(keys[0]);
    await RELEASE.run(this.#redis, keys, [token, String(this.ttlMs)], this.commandTimeoutMs);
    this.#tokens.delete(keys[0]);
  }

  async status(orderRef: string, attempt?: string): Promise<OrderStatus | undefined> {
    const reply = await STATUS.run(this.#redis, [this.#hash(orderRef)], [attempt ?? '', attempt === undefined ? '0' : '1'], this.commandTimeoutMs);
    const [paid, own] = Array.isArray(reply) ? reply : [];
    return orderStatus({ paid: parseOrderStatus(paid), own: parseOrderStatus(own) });
  }

  /** Durable (RedisCallbackStore's replicas): the judgement decides which invoice pays the order. */
  async judge(callback: CallbackRecord): Promise<Verdict> {
    if (callback.order_ref === '') return { verdict: 'foreign' };
    // Judged with its claim, durably like it: taken once.
    const [key] = this.#claimKeys(callback);
    const judged = this.#verdicts.get(key);
    if (judged !== undefined) {
      this.#verdicts.delete(key);
      return judged;
    }
    const [reply, kept] = await this.#durable(JUDGE, [this.#hash(callback.order_ref)], this.#judgeArgs(callback));
    if (!kept) throw this.#tooFew('judgement');
    return parseVerdict(reply);
  }

  #judgeArgs(callback: CallbackRecord): string[] {
    return judgeArgs(callback, callback.status === PAID_STATUS, this.ttlMs);
  }

  async startAttempt(orderRef: string, request: AttemptRequest): Promise<AttemptStart> {
    return parseStart(await START.run(this.#redis, [this.#hash(orderRef)], startArgs(request, this.ttlMs), this.commandTimeoutMs));
  }

  async keepToken(orderRef: string, attempt: string, token: KeptToken): Promise<'kept' | 'paid' | 'gone'> {
    const reply = await KEEP.run(this.#redis, [this.#hash(orderRef)], [attempt, JSON.stringify(token)], this.commandTimeoutMs);
    if (reply === 'kept' || reply === 'paid' || reply === 'gone') return reply;
    throw new StoreError(`Redis: unexpected answer to the key's keeping: ${String(reply)}`);
  }

  async dropAttempt(orderRef: string, attempt: string): Promise<void> {
    await DROP.run(this.#redis, [this.#hash(orderRef)], [attempt], this.commandTimeoutMs);
  }

  /** Told through Redis pub/sub on a duplicated connection, made on the first watch, and after any news
   *  the subscription may have missed (status-feed.ts). An ordinary channel, not a sharded one: on a
   *  cluster PUBLISH reaches every node, so one subscription per process hears every order, and the
   *  messages are as many as callbacks, not waits (docs/stores.md, the status wait on a cluster). */
  watch(orderRef: string, listener: (news?: StatusNews) => void): () => void {
    return this.#feed.watch(orderRef, listener);
  }

  /** Closes the subscriber connection (the client given is the caller's to close). */
  async close(): Promise<void> {
    this.#feed.close();
  }
}
