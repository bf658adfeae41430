// The Redis commands pay-form uses, as a small structural type: the merchant passes a connected
// node-redis client (`createClient(...).connect()`, v5 or later) and pay-form never imports 'redis', so
// the package works without it and its types do not depend on it. Any client with the same method
// shape fits.

/** The part of a node-redis client pay-form calls. */
export interface RedisClientLike {
  /** EVAL: runs a Lua script atomically on the server. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** True when `client` has the methods pay-form calls; for option checks. */
export function isRedisClientLike(client: unknown): client is RedisClientLike {
  return typeof client === 'object' && client !== null && typeof (client as { eval?: unknown }).eval === 'function';
}

/**
 * Runs `command`, failing after `timeoutMs`. A disconnected node-redis client queues commands until it
 * reconnects, which would hold a caller forever; a bounded wait turns an unreachable Redis into an error.
 */
export async function withTimeout<T>(command: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer ${what} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([command, late]);
  } finally {
    clearTimeout(timer);
  }
}
