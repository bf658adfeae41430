// pay-form on a real Sentinel set (a primary, a replica and three sentinels from REDIS_SERVER, started
// once for this file), through node-redis's createSentinel and ioredis's Redis with `sentinels`: the
// primary is killed (SIGKILL) under load, the sentinels promote the replica, and the old primary
// comes back as its replica.
import { startRedisSentinel } from '../../support/redis/redis-sentinel.js';
import { topologySuite } from '../../support/redis/topology-suite.js';

topologySuite({
  name: 'a Sentinel set',
  start: startRedisSentinel,
  stop: (sentinel) => sentinel.stop(),
  target: (sentinel) => ({ topology: 'sentinel', name: sentinel.name, sentinels: sentinel.sentinels }),
  ports: (sentinel) => sentinel.ports(),
  failover: (sentinel, _key, onPromoted) => sentinel.failover(onPromoted),
  demo: 'ioredis',
});
