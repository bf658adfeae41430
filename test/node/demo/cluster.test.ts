// `npm run start:cluster` without a browser: the page's backend (B, Vite) and the callbacks' backend
// (A, its own process) share only a real Redis; an order paid at the sandbox is settled on B by the
// callback A verified, and only for the shopper whose cookie created the order.
import { after, before, test } from 'node:test';
import { settlesAcrossBackends, startTestCluster, type TestCluster } from '../../support/servers/cluster.js';

let cluster: TestCluster;
before(async () => {
  cluster = await startTestCluster();
});
after(() => cluster?.close());

test('a callback that reaches backend A settles the order on backend B, for its shopper only', () => settlesAcrossBackends(cluster));
