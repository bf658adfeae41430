// The cluster demo (`npm run start:cluster`) for a test file: its own redis-server, the demo's two
// backends on free ports, and no PAY_FORM_* settings from the caller's shell.
import { startCluster, type Cluster } from '../../demo/cluster.js';
import { startRedis } from './redis.js';

export interface TestCluster extends Cluster {
  /** The sandbox's origin, as the page's config names it. */
  serviceOrigin: string;
}

export async function startTestCluster(): Promise<TestCluster> {
  const redis = await startRedis();
  for (const name of Object.keys(process.env)) if (name.startsWith('PAY_FORM_')) delete process.env[name];
  process.env.PAY_FORM_SANDBOX_PORT = '0';
  const cluster = await startCluster({ port: 0, redisUrl: redis.url });
  const config = (await (await fetch(`${cluster.url}/api/checkout/config`)).json()) as { base_url: string };
  return {
    ...cluster,
    serviceOrigin: config.base_url.replace(/\/$/, ''),
    async close() {
      await cluster.close();
      await redis.stop();
    },
  };
}
