// The floor of bench/open-checkouts: what any backend of this shape costs, with no pay-form in it.
// `BACKEND_ENTRY=bench/open-checkouts/floor-backend.ts node --import tsx bench/open-checkouts/run.ts 10000`
// A status ask is held in a Map until its attempt's news comes, or until its 25 s (less up to a fifth)
// run out on one shared sweep a second (204); a callback is read, parsed and PUBLISHed once (node-redis,
// one subscription a process), and answered 200; the news answers the waiting ask from the message.
// Nothing is verified (no signature, no exactly-once claim, no attempt check) and nothing is stored:
// a backend that meets the page's contract does at least this much, so this floor's RSS, CPU per
// callback and callback → answer times bound what pay-form's handlers can reach on the same machine.
import type http from 'node:http';
import { createClient } from 'redis';
import { attemptRequestId } from '../../src/service/checkout.js';
import { serveBackend } from './backend-process.js';

const CHANNEL = 'floor:news';
const client = createClient({ url: process.env['REDIS_URL']!, disableOfflineQueue: true });
client.on('error', () => undefined);
await client.connect();
const subscriber = client.duplicate();
subscriber.on('error', () => undefined);
await subscriber.connect();

interface Wait {
  res: http.ServerResponse;
  deadline: number;
}
const waiting = new Map<string, Wait>();
const news = new Map<string, string>();
const errors: Record<string, number> = {};
let reads = 0;

const answer = (res: http.ServerResponse, status: string) => {
  const body = JSON.stringify({ status });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
};

await subscriber.subscribe(CHANNEL, (message) => {
  const space = message.indexOf(' ');
  const key = message.slice(0, space);
  const status = message.slice(space + 1);
  news.set(key, status);
  const wait = waiting.get(key);
  if (wait) {
    waiting.delete(key);
    answer(wait.res, status);
  }
});

setInterval(() => {
  const now = Date.now();
  for (const [key, wait] of waiting) {
    if (wait.deadline > now) continue;
    waiting.delete(key);
    wait.res.writeHead(204, { 'cache-control': 'no-store' });
    wait.res.end();
  }
}, 1000).unref();

function status(req: http.IncomingMessage, res: http.ServerResponse): void {
  reads++;
  const query = new URL(req.url!, 'http://backend').searchParams;
  const key = attemptRequestId(query.get('order_ref') ?? '', query.get('attempt') ?? '');
  const known = news.get(key);
  if (known) return answer(res, known);
  waiting.set(key, { res, deadline: Date.now() + 25_000 * (0.8 + 0.2 * Math.random()) });
  req.once('close', () => {
    if (waiting.get(key)?.res === res) waiting.delete(key);
  });
}

function callback(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request_id: string; status: string };
    client.publish(CHANNEL, `${payload.request_id} ${payload.status}`).then(
      () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"received":true}');
      },
      (error: unknown) => {
        errors[String(error)] = (errors[String(error)] ?? 0) + 1;
        res.writeHead(503);
        res.end();
      },
    );
  });
}

await serveBackend({ status, callback, reads: () => reads, errors });
