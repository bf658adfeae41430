// The tests every Redis topology gets (test/node/redis-topologies/): started once per file, then for
// each client library the ledger's contract, and payouts through a failover run under load, whose new
// primary must say ROLE master and whose old one ROLE slave. A file names its topology and how to fail
// it over; the assertions are the same for all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RedisPayoutLedger } from '../../src/server/index.js';
import { connectRedis, LIBRARIES, type ConnectedRedis, type RedisTarget } from './redis-clients.js';
import { ledgerContract } from './ledger-contract.js';
import { assertExactlyOnce } from './exactly-once.js';
import { payoutsThroughFailover } from './payouts-through-failover.js';
import { role } from './resp.js';

export interface Topology<T> {
  name: string;
  start(): Promise<T>;
  stop(set: T): Promise<void>;
  target(set: T): RedisTarget;
  /** Fails over the primary of `prefix`'s payout keys (or the only one); answers the old and new ports. */
  failover(set: T, prefix: string, onPromoted: () => void): Promise<{ from: number; to: number }>;
}

export function topologySuite<T>(topology: Topology<T>): void {
  let set: T;
  const open: ConnectedRedis[] = [];
  before(async () => {
    set = await topology.start();
  });
  after(async () => {
    await Promise.all(open.map((c) => c.close()));
    await topology.stop(set);
  });

  for (const library of LIBRARIES) {
    describe(`${library} on ${topology.name}`, () => {
      let redis: ConnectedRedis;
      before(async () => {
        redis = await connectRedis({ library, target: topology.target(set) });
        open.push(redis);
      });

      describe('RedisPayoutLedger contract', () => {
        let run = 0;
        ledgerContract((o) => new RedisPayoutLedger(redis.client, { prefix: `${library}-c${++run}:`, ...o }));
      });

      test('3 processes x 100 payouts over 50 request_ids through a failover under load: exactly 50 sent', { timeout: 120_000 }, async () => {
        const prefix = `${library}-failover:`;
        const started = Date.now();
        const run = await payoutsThroughFailover({ library, target: topology.target(set) }, prefix, (promoted) => topology.failover(set, prefix, promoted));
        const { from, to } = run.failover;
        console.log(
          `# ${library} on ${topology.name}: failover ${from} -> ${to}; payouts sent when it began ${run.sentAt.start}, at the promotion ${run.sentAt.promoted}, when it ended ${run.sentAt.end}; ${Date.now() - started} ms`,
        );
        assert.equal(await role(to), 'master');
        assert.equal(await role(from), 'slave');
        assert.ok(run.sentAt.promoted < run.ids.length, 'payouts still went out after the new primary took over');
        assertExactlyOnce(run);
      });
    });
  }
}
