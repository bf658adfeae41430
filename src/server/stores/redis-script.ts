// The Lua scripts of RedisCallbackStore and RedisPayoutLedger: sent by their SHA-1 (EVALSHA), and in
// full (EVAL) only when a node does not know one yet (its first use there, or a node restarted or
// promoted since), and each command bounded in time. A script's keys all carry one hash tag, so on a
// cluster every script runs on one node, atomically.
import { StoreError } from '../errors.js';
import type { RedisConnection } from './redis-connection.js';

/**
 * Runs `send`, failing at once while the client is not connected and after `timeoutMs` otherwise. A
 * disconnected client queues commands until it reconnects, which would hold a caller (and a payout)
 * for ever; the race is the bound for clients without a per-command time limit.
 */
export async function bounded<T>(redis: RedisConnection, what: string, timeoutMs: number, send: () => Promise<T>): Promise<T> {
  if (!redis.ready()) throw new StoreError('Redis is not connected');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreError(`Redis did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([send(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const unknownScript = (reply: unknown) => reply instanceof Error && reply.message.startsWith('NOSCRIPT');

export class RedisScript {
  readonly #source: string;
  #sha: Promise<string> | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  #digest(): Promise<string> {
    this.#sha ??= crypto.subtle
      .digest('SHA-1', new TextEncoder().encode(this.#source))
      .then((hash) => Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join(''));
    return this.#sha;
  }

  /** The script on the node holding keys[0]'s slot; without `timeoutMs`, as long as the client waits. */
  async run(redis: RedisConnection, keys: readonly string[], args: readonly string[], timeoutMs?: number): Promise<unknown> {
    const [key = ''] = keys;
    const tail = [String(keys.length), ...keys, ...args];
    const sha = await this.#digest();
    const send = async () => {
      try {
        return await redis.send(key, ['EVALSHA', sha, ...tail], timeoutMs);
      } catch (error) {
        if (!unknownScript(error)) throw error;
        return redis.send(key, ['EVAL', this.#source, ...tail], timeoutMs);
      }
    };
    return timeoutMs === undefined ? send() : bounded(redis, 'EVALSHA', timeoutMs, send);
  }

  /**
   * A write that must outlive a failover: the script, followed by WAIT on the same connection when
   * `wait.replicas` is above 0 (WAIT's limit on top of `timeoutMs`). Answers the script's reply, how
   * many replicas acknowledged it, and whether that is enough.
   */
  async runDurable(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly string[],
    wait: { replicas: number; waitMs: number },
    timeoutMs: number,
  ): Promise<{ reply: unknown; replicas: number; kept: boolean }> {
    if (wait.replicas === 0) return { reply: await this.run(redis, keys, args, timeoutMs), replicas: 0, kept: true };
    const { reply, replicas } = await this.runAndWait(redis, keys, args, wait, timeoutMs + wait.waitMs);
    return { reply, replicas, kept: replicas >= wait.replicas };
  }

  /**
   * The script, then WAIT on the same connection: answers the script's reply and how many replicas
   * acknowledged every write of that connection up to it, within `waitMs` (WAIT's own limit).
   */
  async runAndWait(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly string[],
    wait: { replicas: number; waitMs: number },
    timeoutMs: number,
  ): Promise<{ reply: unknown; replicas: number }> {
    const [key = ''] = keys;
    const tail = [String(keys.length), ...keys, ...args];
    const waitArgs = ['WAIT', String(wait.replicas), String(wait.waitMs)];
    const sha = await this.#digest();
    const attempt = async (script: string[]) => {
      try {
        return await redis.pipeline(key, [script, waitArgs]);
      } catch (error) {
        if (unknownScript(error)) return undefined;
        throw error;
      }
    };
    return bounded(redis, 'EVALSHA and WAIT', timeoutMs, async () => {
      const [reply, acknowledged] = (await attempt(['EVALSHA', sha, ...tail])) ?? (await redis.pipeline(key, [['EVAL', this.#source, ...tail], waitArgs]));
      return { reply, replicas: Number(acknowledged) };
    });
  }
}
