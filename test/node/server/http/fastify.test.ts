// The handlers under a real Fastify 5 app. With Fastify's default body parsers the request stream is
// read before the route runs: toNodeHandler must say so at once with a 500, not wait for bytes that
// will never come. In a scope whose JSON parser leaves the body unread, the raw bytes get through.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { createCallbackHandler, sign, toNodeHandler, type CallbackPayload } from '../../../../src/server/index.js';
import { SECRET } from '../../../support/servers/service.js';

let app: FastifyInstance;
let base: string;
const seen: CallbackPayload[] = [];
const LIMIT = { timeout: 15_000 };

before(async () => {
  const callback = toNodeHandler(createCallbackHandler({ secret: SECRET, onStatus: (p) => void seen.push(p) }));
  app = Fastify();
  // Fastify's default parsers: application/json is parsed before the route runs.
  app.post('/default/callback', (request, reply) => {
    reply.hijack();
    callback(request.raw, reply.raw);
  });
  // The recipe that works: a scope whose parser hands the stream on unread.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.post('/raw/callback', (request, reply) => {
      reply.hijack();
      callback(request.raw, reply.raw);
    });
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
after(() => app.close());

const post = (path: string, body: string) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test('Fastify with its default body parsers: a 500 naming the cause, at once, not a hung request', LIMIT, async () => {
  const response = await post('/default/callback', '{"invoice_id":"a","status":"b","signature":"c"}');
  assert.equal(response.status, 500);
  const body = (await response.json()) as { success: boolean; message: string };
  assert.equal(body.success, false);
  assert.match(body.message, /body was already read by a body parser/);
  assert.match(body.message, /Fastify/);
});

test('Fastify in a scope that leaves the body unread: the signed callback is verified on its raw bytes', LIMIT, async () => {
  const payload = { invoice_id: 'inv-fastify', status: 'success', amount: 5 };
  const body = `{ "status": "success", "amount": 5, "invoice_id": "inv-fastify", "signature": "${await sign(payload, SECRET)}" }`;
  assert.equal((await post('/raw/callback', body)).status, 200);
  assert.deepEqual(seen.map((p) => p.invoice_id), ['inv-fastify']);
  assert.equal((await post('/raw/callback', body.replace('success', 'SUCCESS'))).status, 401);
});

test('node:http: a body another listener already read is a 500 naming the cause, at once', LIMIT, async (t) => {
  const callback = toNodeHandler(createCallbackHandler({ secret: SECRET, onStatus: () => undefined }));
  const server = http.createServer((req, res) => {
    // Someone else's middleware drained the stream before the handler ran.
    req.resume();
    req.once('end', () => callback(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"invoice_id":"a","status":"b","signature":"c"}',
    });
    assert.equal(response.status, 500);
    assert.match(((await response.json()) as { message: string }).message, /body was already read by a body parser/);
    t.diagnostic('consumed body: Fastify default parsers and a node:http pre-read both answered 500 with the cause (Express express.json(): express.test.ts)');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
