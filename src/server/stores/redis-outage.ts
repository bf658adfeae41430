// A shop that starts, and stays up, while its Redis is away (docs/stores.md, Redis down): the store's
// commands fail at once while the client is not connected (503 with Retry-After, the service delivers
// callbacks again), the client reconnects by itself, and this says so in the log once per outage, where
// the client's own 'error' event comes at every reconnect attempt.

/** The two events both node-redis's and ioredis's clients emit: `error` at each failed (re)connect, `ready` once connected. */
export interface RedisEventSource {
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown;
}

/**
 * Logs one line when Redis becomes unreachable (the first connection failing, or a live one lost) and
 * one when it is back, never one per reconnect attempt. Also the client's `error` listener, without
 * which Node would end the process at the first failed connection. Call it before `connect()`.
 */
export function logRedisOutages(client: RedisEventSource, log: (line: string) => void = console.error): void {
  // Unknown until the first event: a failed first connection is an outage too.
  let down = false;
  client.on('error', (error) => {
    if (down) return;
    down = true;
    const reason = error instanceof Error ? `${(error as { code?: unknown }).code ?? error.name}: ${error.message}` : String(error);
    log(`pay-form: Redis is unreachable (${reason}); until it is back the store answers 503 with Retry-After and callbacks are delivered again. Reconnecting in the background.`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log('pay-form: Redis is back; the store answers again.');
  });
}
