// The demo's Redis store, when REDIS_URL names a Redis: a node-redis client that fails commands at once
// while Redis is away (the callback handler then answers 503 and the service delivers again).
import { RedisCallbackStore } from '../src/server/index.js';

export interface DemoRedis {
  store: RedisCallbackStore;
  close(): Promise<void>;
}

export async function demoRedisStore(url: string, prefix = 'pay-form-demo:'): Promise<DemoRedis> {
  // Imported here, not at the top: `npm start` without REDIS_URL never loads redis.
  const { createClient } = await import('redis');
  const client = createClient({ url, disableOfflineQueue: true });
  client.on('error', (error: unknown) => console.error(`pay-form demo: Redis ${url}: ${String(error)}`));
  await client.connect();
  const store = new RedisCallbackStore(client, { prefix });
  return {
    store,
    async close() {
      await store.close();
      client.destroy();
    },
  };
}
