// pay-form on a real Redis Cluster (3 primaries, 3 replicas from REDIS_SERVER, started once for this
// file), through node-redis's createCluster and ioredis's Cluster: CLUSTER FAILOVER on the replica of
// the primary holding the load's first key, under load.
import { startRedisCluster } from '../../support/redis/redis-cluster.js';
import { topologySuite } from '../../support/redis/topology-suite.js';

topologySuite({
  name: 'a Redis Cluster',
  start: startRedisCluster,
  stop: (cluster) => cluster.stop(),
  target: (cluster) => ({ topology: 'cluster', rootNodes: cluster.rootNodes }),
  ports: (cluster) => cluster.nodes.map((node) => node.port),
  failover: (cluster, key, onPromoted) => cluster.failover(key, onPromoted),
  demo: 'node-redis',
});
