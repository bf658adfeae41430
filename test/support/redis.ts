// The real redis-server for tests lives in scripts/redis.ts, so bench/ can start one too without
// importing from test/.
export * from '../../scripts/redis.js';
