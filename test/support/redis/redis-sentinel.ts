// A real Sentinel set for the tests and benches: one primary, one replica and three sentinels, each a
// REDIS_SERVER process on a free loopback port with its own temporary directory, stopped by PID.
// `failover` stops the primary as a crash would (SIGKILL), waits for the sentinels to promote the
// replica and for that node to say ROLE master, then starts the old primary again as the new one's
// replica, the way an operator brings a failed node back.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, kill, nodeArgs, spawnRedis } from './redis-server.js';
import { command, info, role } from './resp.js';
import { until } from '../poll.js';

export const SENTINEL_NAME = 'pay-form';

export interface RedisSentinelSet {
  /** The name the sentinels monitor the primary under. */
  readonly name: string;
  readonly sentinels: ReadonlyArray<{ host: string; port: number }>;
  /** The primary's port, as the sentinels name it now. */
  primary(): Promise<number>;
  /** The ports of the primary and the replica (not the sentinels). */
  ports(): number[];
  /** Crashes the primary, waits until the replica is promoted and its old primary serves as its replica.
   *  `onPromoted` runs as soon as the promoted node says ROLE master. */
  failover(onPromoted?: () => void): Promise<{ from: number; to: number }>;
  stop(): Promise<void>;
}

interface Data {
  port: number;
  dir: string;
  child: ChildProcess;
}

export async function startRedisSentinel(): Promise<RedisSentinelSet> {
  const data: Data[] = [];
  const sentinels: Array<{ port: number; child: ChildProcess }> = [];
  const dirs: string[] = [];
  const stop = async () => {
    await Promise.all([...sentinels, ...data].map(({ child }) => kill(child)));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  const startData = async (port: number, dir: string, primary?: number) => {
    const args = [...nodeArgs(port, dir), ...(primary === undefined ? [] : ['--replicaof', '127.0.0.1', String(primary)])];
    return spawnRedis(port, args);
  };
  try {
    for (let i = 0; i < 2; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-sentinel-data-'));
      dirs.push(dir);
      const port = await freePort();
      data.push({ port, dir, child: await startData(port, dir, i === 0 ? undefined : data[0]?.port) });
    }
    const primary = data[0]?.port as number;
    for (let i = 0; i < 3; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-sentinel-'));
      dirs.push(dir);
      const port = await freePort();
      const config = path.join(dir, 'sentinel.conf');
      // Down after 2 s without an answer (the default is 30 s): the tests crash the primary on purpose,
      // and a busy machine can hold a healthy node for a second.
      await writeFile(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} 2000`,
          `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
          '',
        ].join('\n'),
      );
      sentinels.push({ port, child: await spawnRedis(port, [config, '--sentinel']) });
    }
    await ready(primary, data[1]?.port as number);
  } catch (error) {
    await stop();
    throw error;
  }

  const primary = async () => {
    const address = await command(sentinels[0]?.port as number, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME);
    return Number(Array.isArray(address) ? address[1] : NaN);
  };
  return {
    name: SENTINEL_NAME,
    sentinels: sentinels.map(({ port }) => ({ host: '127.0.0.1', port })),
    primary,
    ports: () => data.map(({ port }) => port),
    async failover(onPromoted) {
      const from = await primary();
      const old = data.find((d) => d.port === from);
      const next = data.find((d) => d.port !== from);
      if (old === undefined || next === undefined) throw new Error(`the sentinels name ${from}, not a node of this set`);
      await kill(old.child, 'SIGKILL');
      await until(
        `every sentinel to name ${next.port} the primary`,
        async () =>
          (await Promise.all(sentinels.map(({ port }) => command(port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME)))).every(
            (address) => Array.isArray(address) && Number(address[1]) === next.port,
          ),
      );
      await until(`${next.port} to say ROLE master`, async () => (await role(next.port)) === 'master');
      onPromoted?.();
      old.child = await startData(old.port, old.dir, next.port);
      await ready(next.port, old.port);
      return { from, to: next.port };
    },
    stop,
  };

  /** Waits until the replica is in sync with the primary and every sentinel sees both and the others. */
  async function ready(primaryPort: number, replicaPort: number): Promise<void> {
    try {
      await until(`the replica on ${replicaPort} to be in sync with ${primaryPort}`, async () => {
        const link = await info(replicaPort, 'replication');
        return link['master_port'] === String(primaryPort) && link['master_link_status'] === 'up';
      });
      const expected = `name=${SENTINEL_NAME},status=ok,address=127.0.0.1:${primaryPort},slaves=1,sentinels=3`;
      await until('every sentinel to see the primary, its replica and the other sentinels', async () =>
        (await Promise.all(sentinels.map(({ port }) => info(port, 'sentinel')))).every((fields) => fields['master0'] === expected),
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; now: ${await snapshot()}`);
    }
  }

  /** What each node and sentinel says, for a failure's message. */
  async function snapshot(): Promise<string> {
    const say = (port: number, ask: () => Promise<string>) => ask().then((text) => `${port}: ${text}`, (e: unknown) => `${port}: ${String(e)}`);
    const nodes = data.map(({ port }) =>
      say(port, async () => {
        const link = await info(port, 'replication');
        return `${link['role']} of ${link['master_port'] ?? '-'} link ${link['master_link_status'] ?? '-'}, ${link['connected_slaves'] ?? 0} replicas`;
      }),
    );
    const watchers = sentinels.map(({ port }) => say(port, async () => (await info(port, 'sentinel'))['master0'] ?? '?'));
    return (await Promise.all([...nodes, ...watchers])).join('; ');
  }
}
