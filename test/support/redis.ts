// The real redis-server for tests lives in scripts/redis.ts, so bench/ can start one too without
// importing from test/.
export * from '../../scripts/redis.js';

import { createClient, type RedisClientOptions } from 'redis';

/** A node-redis client connected to `url`, its error events ignored (tests stop servers under it). */
export async function connectedClient(url: string, options: RedisClientOptions = {}) {
  const client = createClient({ ...options, url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
