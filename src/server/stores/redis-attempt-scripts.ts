// RedisCallbackStore's attempts (docs/service-contract.md, Attempts): attempt-rules.ts in Lua, each
// step one script on the order's hash, so servers agree atomically (on a cluster too: the hash's key
// carries the order as its hash tag). The order's hash holds, beside `paid`, `current` and each
// attempt's outcome `a:{id}`: `payer` (the invoice judged to pay the order), and per attempt `t:{id}`
// (when it started, Redis's own clock), `m:{id}` (its amount and currency), `k:{id}` (its key, once
// kept), `x:{id}` (superseded) and `e:{id}` (ended by a status other than success). The hash lives ttlMs from its last write.
import { StoreError } from '../errors.js';
import type { AttemptRequest, AttemptStart, CallbackRecord, ExtraReason, KeptToken, Verdict } from './callback-store.js';
import { RedisScript } from './redis-script.js';

/** An attempt's terms as one comparable string. */
export const terms = (amount: string | undefined, currency: string | undefined): string => JSON.stringify([amount ?? '', currency ?? '']);

// ARGV: attempt, terms, lifetimeMs, obtainMs, ttlMs.
export const START = new RedisScript(`if redis.call('HEXISTS', KEYS[1], 'payer') == 1 then return {'paid'} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local id = redis.call('HGET', KEYS[1], 'current')
if id then
  local at = tonumber(redis.call('HGET', KEYS[1], 't:' .. id))
  if at and redis.call('HEXISTS', KEYS[1], 'x:' .. id) == 0 and redis.call('HEXISTS', KEYS[1], 'e:' .. id) == 0
    and redis.call('HEXISTS', KEYS[1], 'a:' .. id) == 0
    and redis.call('HGET', KEYS[1], 'm:' .. id) == ARGV[2] and now - at < tonumber(ARGV[3]) then
    local k = redis.call('HGET', KEYS[1], 'k:' .. id)
    if k then return {'live', id, k} end
    if now - at < tonumber(ARGV[4]) then return {'obtaining', id} end
  end
  redis.call('HSET', KEYS[1], 'x:' .. id, '1')
end
redis.call('HSET', KEYS[1], 'current', ARGV[1], 't:' .. ARGV[1], tostring(now), 'm:' .. ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'started', ARGV[1]}`);

// ARGV: attempt, the token's JSON.
export const KEEP = new RedisScript(`if redis.call('HEXISTS', KEYS[1], 'payer') == 1 then return 'paid' end
if redis.call('HGET', KEYS[1], 'current') ~= ARGV[1] or redis.call('HEXISTS', KEYS[1], 'x:' .. ARGV[1]) == 1 then return 'gone' end
redis.call('HSET', KEYS[1], 'k:' .. ARGV[1], ARGV[2])
return 'kept'`);

// ARGV: attempt.
export const DROP = new RedisScript(`if redis.call('HEXISTS', KEYS[1], 't:' .. ARGV[1]) == 1 then redis.call('HSET', KEYS[1], 'x:' .. ARGV[1], '1') end
return 1`);

// The judgement on the order's hash `hash`, its arguments from ARGV[first]: attempt, invoice, '1' for a
// success, terms, ttlMs. Alone (JUDGE), and after a claim in the same script (redis-callback-store.ts).
export const judgeLua = (hash: string, first: number): string => {
  const [attempt, invoice, success, terms, ttl] = [0, 1, 2, 3, 4].map((n) => `ARGV[${first + n}]`);
  return `if redis.call('HEXISTS', ${hash}, 't:' .. ${attempt}) == 0 then return {'foreign'} end
if ${success} ~= '1' then
  redis.call('HSET', ${hash}, 'e:' .. ${attempt}, '1')
  return {'attempt'}
end
local payer = redis.call('HGET', ${hash}, 'payer')
if payer == ${invoice} then return {'payment'} end
if payer then return {'extra', 'order-paid', payer} end
if redis.call('HEXISTS', ${hash}, 'x:' .. ${attempt}) == 1 then return {'extra', 'superseded'} end
if redis.call('HGET', ${hash}, 'm:' .. ${attempt}) ~= ${terms} then return {'extra', 'other-terms'} end
redis.call('HSET', ${hash}, 'payer', ${invoice})
redis.call('PEXPIRE', ${hash}, ${ttl})
return {'payment'}`;
};

export const JUDGE = new RedisScript(judgeLua('KEYS[1]', 1));

export function startArgs(request: AttemptRequest, ttlMs: number): string[] {
  return [request.attempt, terms(request.amount, request.currency), String(request.lifetimeMs), String(request.obtainMs), String(ttlMs)];
}

const unexpected = (step: string, reply: unknown) => new StoreError(`Redis: unexpected answer to the attempt's ${step}: ${JSON.stringify(reply)}`);

export function parseStart(reply: unknown): AttemptStart {
  const [state, attempt, token] = Array.isArray(reply) ? (reply as unknown[]) : [];
  if (state === 'paid') return { state };
  if ((state === 'started' || state === 'obtaining') && typeof attempt === 'string') return { state, attempt };
  if (state === 'live' && typeof attempt === 'string' && typeof token === 'string') {
    const kept = parseToken(token);
    if (kept !== undefined) return { state, attempt, token: kept };
  }
  throw unexpected('start', reply);
}

function parseToken(text: string): KeptToken | undefined {
  try {
    const { key, redirect_url } = Object(JSON.parse(text)) as Record<string, unknown>;
    return typeof redirect_url === 'string' ? { redirect_url } : typeof key === 'string' ? { key } : undefined;
  } catch {
    return undefined;
  }
}

export function judgeArgs(callback: CallbackRecord, success: boolean, ttlMs: number): string[] {
  return [callback.attempt, callback.invoice_id, success ? '1' : '0', terms(callback.amount, callback.currency), String(ttlMs)];
}

const REASONS: readonly string[] = ['order-paid', 'superseded', 'other-terms'] satisfies ExtraReason[];

export function parseVerdict(reply: unknown): Verdict {
  const [verdict, reason, paidBy] = Array.isArray(reply) ? (reply as unknown[]) : [];
  if (verdict === 'payment' || verdict === 'attempt' || verdict === 'foreign') return { verdict };
  if (verdict === 'extra' && typeof reason === 'string' && REASONS.includes(reason)) {
    return { verdict, reason: reason as ExtraReason, paidBy: typeof paidBy === 'string' ? paidBy : undefined };
  }
  throw unexpected('judgement', reply);
}
