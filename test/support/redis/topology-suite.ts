// The tests every Redis topology gets (test/node/redis-topologies/): started once per file, then for
// each client library the store's and the ledger's contracts, a page's wait that outlives its pub/sub
// connections, and callbacks and payouts through a failover run under load, whose new primary must say
// ROLE master and whose old one ROLE slave. A file names its topology and how to fail it over; the
// assertions are the same for all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RedisCallbackStore, RedisPayoutLedger } from '../../../src/server/index.js';
import { connectRedis, LIBRARIES, type ConnectedRedis, type RedisLibrary, type RedisTarget } from './redis-clients.js';
import { settlesAcrossBackends, startTestCluster } from '../servers/cluster.js';
import { ledgerContract } from '../contracts/ledger-contract.js';
import { cb, record, startedAttempt, storeContract } from '../contracts/store-contract.js';
import { attemptContract } from '../contracts/attempt-contract.js';
import { assertExactlyOnce } from './exactly-once.js';
import { ledgerKey, payoutsThroughFailover } from './payouts-through-failover.js';
import { callbacksThroughFailover } from './callbacks-through-failover.js';
import { command, role } from './resp.js';
import { until, within } from '../poll.js';

export interface Topology<T> {
  name: string;
  start(): Promise<T>;
  stop(set: T): Promise<void>;
  target(set: T): RedisTarget;
  /** Every data node's port (primaries and replicas, not sentinels). */
  ports(set: T): number[];
  /** Fails over the primary holding `key` (or the only one); answers the old and new primary's ports. */
  failover(set: T, key: string, onPromoted: () => void): Promise<{ from: number; to: number }>;
  /** The client library `npm run start:cluster` is tried with on this topology. */
  demo: RedisLibrary;
}

/** The new primary says ROLE master and the old one ROLE slave: the failover really happened. */
async function assertFailedOver({ from, to }: { from: number; to: number }): Promise<void> {
  assert.notEqual(from, to);
  assert.equal(await role(to), 'master');
  assert.equal(await role(from), 'slave');
}

export function topologySuite<T>(topology: Topology<T>): void {
  let set: T;
  const open: ConnectedRedis[] = [];
  before(async () => {
    set = await topology.start();
  });
  after(async () => {
    // The clients' own teardown (node-redis's destroy, ioredis's disconnect) is the libraries' code, not
    // pay-form's: one that does not end is told, and the file goes on to stop the servers.
    await within('closing the Redis clients', Promise.all(open.map((c) => c.close())), 10_000).catch((error: unknown) =>
      console.log(`# ${topology.name}: ${String(error)}`),
    );
    await within(`stopping ${topology.name}`, topology.stop(set));
  });

  for (const library of LIBRARIES) {
    describe(`${library} on ${topology.name}`, () => {
      let redis: ConnectedRedis;
      before(async () => {
        redis = await within(`${library} connecting to ${topology.name}`, connectRedis({ library, target: topology.target(set) }));
        open.push(redis);
      });
      const stores: RedisCallbackStore[] = [];
      after(() => within(`closing ${library}'s stores`, Promise.all(stores.map((s) => s.close()))));
      const store = async (o: { prefix?: string; leaseMs?: number } = {}) => {
        const made = new RedisCallbackStore(redis.client, { ...o, prefix: `${library}-${o.prefix ?? ''}` });
        stores.push(made);
        return made;
      };

      describe('RedisCallbackStore contract', () => storeContract(store));
      describe('RedisCallbackStore attempts', () => attemptContract(() => store({ prefix: 'attempts:' }), ''));

      describe('RedisPayoutLedger contract', () => {
        let run = 0;
        ledgerContract((o) => new RedisPayoutLedger(redis.client, { prefix: `${library}-c${++run}:`, ...o }));
      });

      test("a page's wait outlives its pub/sub connection: every one cut, the client subscribes again and the news arrives", async () => {
        const [a, b] = [await store({ prefix: 'cut:' }), await store({ prefix: 'cut:' })];
        let told = 0;
        b.watch('order-cut', () => told++);
        const channel = `${library}-cut:status`;
        const subscribers = async () => {
          const counts = await Promise.all(topology.ports(set).map((port) => command(port, 'PUBSUB', 'NUMSUB', channel)));
          return counts.reduce<number>((sum, reply) => sum + (Array.isArray(reply) ? Number(reply[1]) : 0), 0);
        };
        await until('the store to subscribe', async () => (await subscribers()) > 0);
        let cut = 0;
        for (const port of topology.ports(set)) cut += Number(await command(port, 'CLIENT', 'KILL', 'TYPE', 'pubsub'));
        assert.ok(cut > 0, 'pub/sub connections were cut');
        // The news goes out once the client has subscribed again: it can only come over a new connection.
        await until('the client to subscribe again', async () => (await subscribers()) > 0);
        await record(a, cb('inv-cut', 'success', 'order-cut', await startedAttempt(a, 'order-cut')));
        await until('the news to reach the watcher', async () => told > 0);
      });

      if (library === topology.demo) {
        test('the cluster demo on this Redis: a callback backend A takes settles the page backend B serves, for its shopper only', async () => {
          const demo = await startTestCluster({ redis: { library, target: topology.target(set) } });
          try {
            await settlesAcrossBackends(demo);
          } finally {
            await demo.close();
          }
        });
      }

      test('3 servers x 1,000 callback deliveries through a failover under load: exactly 500 onStatus calls, every page settles', { timeout: 180_000 }, async () => {
        const prefix = `${library}-callbacks:`;
        const started = Date.now();
        const run = await callbacksThroughFailover({ library, target: topology.target(set) }, prefix, (promoted) =>
          topology.failover(set, `${prefix}{order-0}:order`, promoted),
        );
        const { from, to } = run.failover;
        console.log(
          `# ${library} on ${topology.name}: failover ${from} -> ${to}; deliveries ended when it began ${run.deliveredAt.start}, at the promotion ${run.deliveredAt.promoted}, when it ended ${run.deliveredAt.end}; ` +
            `503 answers ${run.answers.flat().filter((s) => s === 503).length}, status requests asked again ${run.statusRetries}; ${Date.now() - started} ms`,
        );
        await assertFailedOver(run.failover);
        assert.ok(run.deliveredAt.promoted < run.answers.length, 'deliveries still ended after the new primary took over');
        assert.deepEqual(run.answers.filter((seen) => seen.at(-1) !== 200), [], 'every delivery ends in 200');
        // 0 is a delivery that got no answer at all (a kept-alive socket the server had just closed, on a
        // starved machine): the service delivers again, as after a 503. Any other status is a fault.
        assert.deepEqual(run.answers.flat().filter((s) => s !== 200 && s !== 503 && s !== 0), [], 'a delivery refused is a 503 or no answer, nothing else');
        assert.equal(run.calls.length, 500, 'exactly 500 onStatus calls');
        assert.equal(new Set(run.calls).size, 500);
        const unsettled = run.orders.filter((order) => run.settled.get(order) === undefined);
        assert.deepEqual(unsettled, [], 'every page settles');
        // Paid stays paid: each order's recorded answer is its success, whichever callback came first.
        const reader = await store({ prefix: 'callbacks:' });
        const recorded = await Promise.all(run.orders.map((order) => reader.status(order)));
        assert.deepEqual(new Set(recorded.map((r) => r?.status)), new Set(['success']));
      });

      test('3 processes x 100 payouts over 50 request_ids through a failover under load: exactly 50 sent', { timeout: 120_000 }, async () => {
        const prefix = `${library}-failover:`;
        const started = Date.now();
        const run = await payoutsThroughFailover({ library, target: topology.target(set) }, prefix, (promoted) =>
          topology.failover(set, ledgerKey(prefix, 'payout-0'), promoted),
        );
        const { from, to } = run.failover;
        console.log(
          `# ${library} on ${topology.name}: failover ${from} -> ${to}; payouts sent when it began ${run.sentAt.start}, at the promotion ${run.sentAt.promoted}, when it ended ${run.sentAt.end}; ${Date.now() - started} ms`,
        );
        await assertFailedOver(run.failover);
        assert.ok(run.sentAt.promoted < run.ids.length, 'payouts still went out after the new primary took over');
        assertExactlyOnce(run);
      });
    });
  }
}
