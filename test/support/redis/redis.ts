// Clients of the real redis-server that redis-server.ts starts for the tests and benches.
export * from './redis-server.js';

import { createClient, type RedisClientOptions } from 'redis';

/** A node-redis client connected to `url`, its error events ignored (tests stop servers under it). */
export async function connectedClient(url: string, options: RedisClientOptions = {}) {
  const client = createClient({ ...options, url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
