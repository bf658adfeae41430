// Clients of the real redis-server that redis-server.ts starts for the tests and benches.
export * from './redis-server.js';

import { after, before } from 'node:test';
import { createClient, type RedisClientOptions } from 'redis';
import { startRedis, type RedisServer } from './redis-server.js';

/** A node-redis client connected to `url`, its error events ignored (tests stop servers under it). */
export async function connectedClient(url: string, options: RedisClientOptions = {}) {
  const client = createClient({ ...options, url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * One redis-server for a test file: started before its first test, stopped after its last, with every
 * client that `client()` connected destroyed first. `server` is there once the file's tests run.
 */
export function redisPerFile(): { readonly server: RedisServer; client(options?: RedisClientOptions): ReturnType<typeof connectedClient> } {
  let server: RedisServer | undefined;
  const clients: Array<{ destroy(): void }> = [];
  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    for (const client of clients) client.destroy();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('redisPerFile: the server starts before the first test');
      return server;
    },
    async client(options = {}) {
      const client = await connectedClient(this.server.url, options);
      clients.push(client);
      return client;
    },
  };
}
