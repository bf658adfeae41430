// One backend process of bench/open-checkouts: the callback handler (POST /callback) and the status
// handler (GET /status) of pay-form/server on a RedisCallbackStore over node-redis (REDIS_URL), set up
// as docs/server.md and docs/stores.md do, on the defaults (maxWaiters, waitMs); /stats and the rest
// as every backend of the bench has them (backend-process.ts).
import { createCallbackHandler, createStatusHandler, RedisCallbackStore, toNodeHandler } from '../../src/server/index.js';
import { createClient } from 'redis';
import { serveBackend } from './backend-process.js';

// node-redis alone: loading ioredis as well (test/support's clients do) would add about 20 MiB of RSS.
const client = createClient({ url: process.env['REDIS_URL']!, disableOfflineQueue: true });
client.on('error', () => undefined);
await client.connect();
const store = new RedisCallbackStore(client, { prefix: 'open:', onError: () => undefined });
const callback = toNodeHandler(createCallbackHandler({ secret: process.env['SECRET']!, store, onStatus: () => undefined }));
const errors: Record<string, number> = {};
const onError = (error: unknown) => {
  const name = error instanceof Error ? error.message.slice(0, 80) : String(error);
  errors[name] = (errors[name] ?? 0) + 1;
};
// Reads of the store, counted so the bench starts its idle window once the pages' first asks are read.
let reads = 0;
const counted = { status: (order: string, attempt?: string) => (reads++, store.status(order, attempt)), watch: store.watch.bind(store) };
const status = toNodeHandler(createStatusHandler({ store: counted, authorize: () => true, onError }));
if (process.env['TRACE_READS']) {
  let last = 0;
  setInterval(() => { process.stderr.write(`${process.pid} reads/s ${reads - last}\n`); last = reads; }, 1000).unref();
}

await serveBackend({ status, callback, reads: () => reads, errors });
