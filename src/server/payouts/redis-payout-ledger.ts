// The payout ledger on Redis, for several processes or machines: each step is one Lua script, so a
// claim, a finish or a resolve is atomic across every process sharing the Redis. An entry is a hash
// (state, token, fp, body, source, reason, invoice_id); an in-flight claim has a second key, its lease,
// that expires on its own: a claim without a lease reads as unknown (the holder died or hung), never as
// free. Paid entries expire after ttlMs; in-flight and unknown ones never do. Both keys carry the
// entry's key as their hash tag, so on a cluster each script runs on one node. A claim counts only once
// `replicas` replicas hold it (WAIT): a primary that dies with a claim only it had would free the
// request_id for a second payout.
import type { JsonObject } from '../../service/json.js';
import {
  LEASE_EXPIRED,
  type PaidSource,
  type PayoutClaim,
  type PayoutEntry,
  type PayoutFinish,
  type PayoutLedger,
  type PayoutResolution,
} from './payout-ledger.js';
import type { RedisCommandClient } from '../stores/redis-client.js';
import { redisConnection, type RedisConnection } from '../stores/redis-connection.js';
import { resolveRedisOptions, type RedisOptions } from '../stores/redis-options.js';
import { RedisScript } from '../stores/redis-script.js';
import { ConfigError, StoreError } from '../errors.js';

/** The shared Redis options: prefix default `pay-form:payout:`, ttlMs (how long a paid entry is remembered) default 30 days. */
export type RedisPayoutLedgerOptions = RedisOptions;

// Marks a stale claim unknown in place; shared by claim and get. Token and fingerprint are kept, so
// the late answer of a hung holder can still finish it.
const STALE = `
local s = redis.call('HGET', KEYS[1], 'state')
if s == 'in-flight' and redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[1], 'state', 'unknown', 'reason', '${LEASE_EXPIRED}')
  s = 'unknown'
end`;

// A token already released does nothing: its caller gave up, and a client that sends commands again
// after reconnecting (ioredis does) can deliver the claim after its release.
const CLAIM = new RedisScript(`if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then
  return {'state', 'unknown', 'fp', ARGV[2], 'reason', 'released'}
end
${STALE}
if not s then
  redis.call('HSET', KEYS[1], 'state', 'in-flight', 'token', ARGV[1], 'fp', ARGV[2])
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  return false
end
return redis.call('HGETALL', KEYS[1])`);

const GET = new RedisScript(`${STALE}
return redis.call('HGETALL', KEYS[1])`);

// ARGV: token, outcome (paid | unknown | free), body, reason, ttlMs, invoice_id. A release is remembered
// (KEYS[3], for ttlMs) even when its claim has not landed yet.
const FINISH = new RedisScript(`
if ARGV[2] == 'free' then
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ARGV[5])
end
local s = redis.call('HGET', KEYS[1], 'state')
if (s ~= 'in-flight' and s ~= 'unknown') or redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[2] == 'free' then redis.call('DEL', KEYS[1]) return 1 end
if ARGV[2] == 'paid' then
  redis.call('HSET', KEYS[1], 'state', 'paid', 'body', ARGV[3], 'source', 'answer', 'invoice_id', ARGV[6])
  redis.call('HDEL', KEYS[1], 'token', 'reason')
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
else
  redis.call('HSET', KEYS[1], 'state', 'unknown', 'reason', ARGV[4])
end
return 1`);

// ARGV: status (paid | not-paid), body, source, ttlMs, create (1 | 0), invoice_id ('' for any)
const RESOLVE = new RedisScript(`${STALE}
if ARGV[1] == 'paid' then
  if s == 'paid' or (not s and ARGV[5] ~= '1') or (s == 'in-flight' and ARGV[3] == 'merchant') then
    return redis.call('HGETALL', KEYS[1])
  end
  if not s then redis.call('HSET', KEYS[1], 'fp', '') end
  redis.call('HSET', KEYS[1], 'state', 'paid', 'body', ARGV[2], 'source', ARGV[3], 'invoice_id', ARGV[6])
  redis.call('HDEL', KEYS[1], 'token', 'reason')
  redis.call('DEL', KEYS[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return redis.call('HGETALL', KEYS[1])
end
if not s or s == 'in-flight' then return redis.call('HGETALL', KEYS[1]) end
if s == 'paid' and ARGV[6] ~= '' and redis.call('HGET', KEYS[1], 'invoice_id') ~= ARGV[6] then
  return redis.call('HGETALL', KEYS[1])
end
redis.call('DEL', KEYS[1], KEYS[2])
return {}`);

function invoiceId(invoice: JsonObject): string {
  const id = invoice['invoice_id'];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

/** HGETALL's flat [field, value, …] reply as an entry; undefined for none. */
function toEntry(reply: unknown): PayoutEntry | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const h: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) h[String(reply[i])] = String(reply[i + 1]);
  const fingerprint = h['fp'] ?? '';
  switch (h['state']) {
    case 'in-flight':
      return { state: 'in-flight', fingerprint };
    case 'paid':
      return { state: 'paid', fingerprint, invoice: JSON.parse(h['body'] ?? '{}') as JsonObject, source: (h['source'] ?? 'answer') as PaidSource };
    default:
      // Anything this version does not know is treated as unknown: never as free.
      return { state: 'unknown', fingerprint, reason: h['reason'] ?? `unreadable state ${JSON.stringify(h['state'])}` };
  }
}

/**
 * The ledger shared by every process on one Redis, Sentinel-managed primary or Redis Cluster. Pass a
 * connected client of node-redis or ioredis: `new RedisPayoutLedger(await createClient({ url }).connect())`.
 */
export class RedisPayoutLedger implements PayoutLedger {
  readonly prefix: string;
  readonly ttlMs: number;
  readonly commandTimeoutMs: number;
  readonly replicas: number;
  readonly replicaWaitMs: number;
  readonly #redis: RedisConnection;

  constructor(client: RedisCommandClient, options: RedisPayoutLedgerOptions = {}) {
    const redis = redisConnection(client);
    if (redis === undefined) throw new ConfigError([{ path: 'client', message: 'must be a connected client of node-redis or ioredis' }], 'RedisPayoutLedger');
    this.#redis = redis;
    ({ prefix: this.prefix, ttlMs: this.ttlMs, commandTimeoutMs: this.commandTimeoutMs, replicas: this.replicas, replicaWaitMs: this.replicaWaitMs } =
      resolveRedisOptions('RedisPayoutLedger', redis, options, { prefix: 'pay-form:payout:', ttlMs: 30 * 24 * 60 * 60 * 1000 }));
  }

  async claim(key: string, claim: PayoutClaim): Promise<PayoutEntry | undefined> {
    const lease = String(Math.max(1, Math.ceil(claim.leaseMs)));
    const args = [claim.token, claim.fingerprint, lease];
    const wait = { replicas: this.replicas, waitMs: this.replicaWaitMs };
    const { reply, replicas, kept } = await CLAIM.runDurable(this.#redis, this.#keys(key), args, wait, this.commandTimeoutMs);
    const held = toEntry(reply);
    // Ours, but too few replicas have it: a throw, so the payout is refused and the claim released.
    if (held === undefined && !kept) {
      throw new StoreError(`Redis: the claim reached ${replicas} of ${this.replicas} replicas within ${this.replicaWaitMs} ms`);
    }
    return held;
  }

  async finish(key: string, token: string, outcome: PayoutFinish): Promise<void> {
    const body = outcome.state === 'paid' ? JSON.stringify(outcome.invoice) : '';
    const reason = outcome.state === 'unknown' ? outcome.reason : '';
    const id = outcome.state === 'paid' ? invoiceId(outcome.invoice) : '';
    await this.#run(FINISH, key, [token, outcome.state, body, reason, String(this.ttlMs), id]);
  }

  async resolve(key: string, resolution: PayoutResolution): Promise<PayoutEntry | undefined> {
    const args =
      resolution.status === 'paid'
        ? ['paid', JSON.stringify(resolution.invoice), resolution.source, String(this.ttlMs), resolution.create ? '1' : '0', invoiceId(resolution.invoice)]
        : ['not-paid', '', '', '', '0', resolution.invoiceId ?? ''];
    return toEntry(await this.#run(RESOLVE, key, args));
  }

  async get(key: string): Promise<PayoutEntry | undefined> {
    return toEntry(await this.#run(GET, key, []));
  }

  /** The entry, its lease and the tokens released, under one hash tag: one slot on a cluster, as a
   *  script needs. */
  #keys(key: string): string[] {
    const entry = `${this.prefix}{${key}}`;
    return [entry, `${entry}:lease`, `${entry}:released`];
  }

  #run(script: RedisScript, key: string, args: string[]): Promise<unknown> {
    return script.run(this.#redis, this.#keys(key), args, this.commandTimeoutMs);
  }
}
