// A real Redis Cluster for the tests and benches: 3 primaries and 3 replicas, each a REDIS_SERVER
// process on a free loopback port with its own temporary directory, joined with CLUSTER MEET, the
// 16384 slots split in three, one replica per primary, and stopped by PID. `failover` runs CLUSTER
// FAILOVER on a replica, as an operator would before maintenance, and returns once that node says
// ROLE master and every node agrees on who holds the slots.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, kill, nodeArgs, spawnRedis } from './redis-server.js';
import { command, role } from './resp.js';
import { until } from '../poll.js';

export interface ClusterNode {
  readonly port: number;
  readonly pid: number;
}

export interface RedisClusterSet {
  /** Every node, primaries first as created; roles change with failovers (ask `primaryFor(key)`). */
  readonly nodes: readonly ClusterNode[];
  /** `[{ host: '127.0.0.1', port }]`: where a client starts discovering the cluster. */
  readonly rootNodes: ReadonlyArray<{ host: string; port: number }>;
  /** The port of the primary holding `key`'s slot now. */
  primaryFor(key: string): Promise<number>;
  /** CLUSTER FAILOVER on a replica of the primary holding `key`; answers the old and new primary's
   *  ports. `onPromoted` runs as soon as the replica says ROLE master, before the others agree. */
  failover(key: string, onPromoted?: () => void): Promise<{ from: number; to: number }>;
  stop(): Promise<void>;
}

const THIRDS = [[0, 5460], [5461, 10922], [10923, 16383]] as const;

interface Line {
  id: string;
  port: number;
  flags: string[];
  primaryId: string;
  slots: string[];
}

/** CLUSTER NODES as this node sees it. */
async function clusterNodes(port: number): Promise<Line[]> {
  const text = String(await command(port, 'CLUSTER', 'NODES'));
  return text
    .trim()
    .split('\n')
    .map((row) => {
      const [id = '', address = '', flags = '', primaryId = '', , , , , ...slots] = row.split(' ');
      return { id, port: Number(address.split('@')[0]?.split(':')[1]), flags: flags.split(','), primaryId, slots };
    });
}

const isPrimary = (line: Line) => line.flags.includes('master') && !line.flags.includes('fail');

/** CRC16 (XMODEM) of the key's hash tag, mod 16384: the slot Redis Cluster keeps it in. */
export function slotOf(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const tagged = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(tagged)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

const holds = (line: Line, slot: number) =>
  line.slots.some((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return from !== undefined && to !== undefined && slot >= from && slot <= to;
  });

export async function startRedisCluster(): Promise<RedisClusterSet> {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => kill(child)));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < 6; i++) {
      const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-cluster-'));
      dirs.push(dir);
      const port = await freePort();
      ports.push(port);
      // A failure is noticed after 3 s (not the default 15): tests stop nodes on purpose.
      const args = [...nodeArgs(port, dir), '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '3000'];
      children.push(await spawnRedis(port, args));
    }
    for (const port of ports.slice(1)) await command(port, 'CLUSTER', 'MEET', '127.0.0.1', ports[0] as number);
    for (const [i, [from, to]] of THIRDS.entries()) await command(ports[i] as number, 'CLUSTER', 'ADDSLOTSRANGE', from, to);
    await until('every node to know the other five', async () =>
      (await Promise.all(ports.map(clusterNodes))).every((lines) => lines.length === 6 && lines.every((l) => !l.flags.includes('handshake'))),
    );
    const ids = await Promise.all(ports.slice(0, 3).map(async (port) => (await command(port, 'CLUSTER', 'MYID')) as string));
    for (const [i, port] of ports.slice(3).entries()) await command(port, 'CLUSTER', 'REPLICATE', ids[i] as string);
    await settled(ports);
  } catch (error) {
    await stop();
    throw error;
  }

  const primaryFor = async (key: string) => {
    const slot = slotOf(key);
    const owner = (await clusterNodes(ports[0] as number)).find((l) => isPrimary(l) && holds(l, slot));
    if (owner === undefined) throw new Error(`no primary holds slot ${slot}`);
    return owner.port;
  };
  return {
    nodes: ports.map((port, i) => ({ port, pid: children[i]?.pid as number })),
    rootNodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    primaryFor,
    async failover(key, onPromoted) {
      const from = await primaryFor(key);
      const lines = await clusterNodes(from);
      const primaryId = lines.find((l) => l.flags.includes('myself'))?.id;
      const replica = lines.find((l) => l.primaryId === primaryId && l.flags.includes('slave'));
      if (replica === undefined) throw new Error(`the primary on ${from} has no replica`);
      await command(replica.port, 'CLUSTER', 'FAILOVER');
      await until(`the replica on ${replica.port} to say ROLE master`, async () => (await role(replica.port)) === 'master');
      onPromoted?.();
      await settled(ports);
      return { from, to: replica.port };
    },
    stop,
  };
}

/** Waits until every node says cluster_state:ok, sees 3 primaries each with one replica in sync,
 *  and agrees with the others on the slots' owners. */
async function settled(ports: number[]): Promise<void> {
  await until('the cluster to settle', async () => {
    const views = await Promise.all(ports.map(clusterNodes));
    const states = await Promise.all(ports.map((port) => command(port, 'CLUSTER', 'INFO')));
    if (!states.every((text) => String(text).includes('cluster_state:ok'))) return false;
    const owners = views.map((lines) => lines.filter(isPrimary).map((l) => `${l.port}:${l.slots.join(',')}`).sort().join(' '));
    if (new Set(owners).size !== 1) return false;
    const view = views[0] ?? [];
    const primaryIds = view.filter(isPrimary).map((l) => l.id);
    if (primaryIds.length !== 3 || !primaryIds.every((id) => view.some((l) => l.primaryId === id))) return false;
    const replicas = view.filter((l) => l.flags.includes('slave')).map((l) => l.port);
    const links = await Promise.all(replicas.map((port) => command(port, 'INFO', 'replication')));
    return links.every((text) => String(text).includes('master_link_status:up'));
  });
}
