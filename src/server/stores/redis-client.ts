// The Redis commands pay-form sends, through a small structural type: the merchant passes a connected
// node-redis client (`await createClient(...).connect()`, v5 or later) and pay-form never imports
// 'redis', so the package works without it and its types do not depend on it. Any client with the
// same method shape fits. RedisCallbackStore's client type is this one plus `duplicate()` for pub/sub.
import { StoreError } from '../errors.js';

/** The part of a connected node-redis client that sends commands. */
export interface RedisCommandClient {
  /** false while the client is not connected: commands then fail at once instead of queueing. */
  readonly isReady?: boolean;
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
}

/** True when `client` can send commands; for option checks. */
export function isRedisCommandClient(client: unknown): client is RedisCommandClient {
  return typeof client === 'object' && client !== null && typeof (client as { sendCommand?: unknown }).sendCommand === 'function';
}

/**
 * Sends one command, failing at once while the client is disconnected and after `timeoutMs` otherwise.
 * A disconnected node-redis client queues commands until it reconnects, which would hold a caller
 * (and a payout) forever; the race is the bound for clients that ignore the `timeout` option.
 */
export async function redisCommand(client: RedisCommandClient, args: string[], timeoutMs: number): Promise<unknown> {
  if (client.isReady === false) throw new StoreError('Redis is not connected');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer ${args[0]} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([client.sendCommand(args, { timeout: timeoutMs }), late]);
  } finally {
    clearTimeout(timer);
  }
}
