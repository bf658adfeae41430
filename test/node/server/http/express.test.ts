// The handlers under real Express 5 as the README shows them: mounted before body parsers, behind
// express.raw(), and (wrongly) behind express.json(), whose error reaches Express's error handler.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from 'express';
import {
  createCallbackHandler,
  createTokenHandler,
  MemoryCallbackStore,
  sign,
  toNodeHandler,
  type CallbackPayload,
  type TokenParams,
} from '../../../../src/server/index.js';
import { clientFor, happyService, SECRET, startService, TOKEN, type Service } from '../../../support/servers/service.js';

let upstream: Service;
let server: Server;
let base: string;
const seen: CallbackPayload[] = [];

before(async () => {
  upstream = await startService(happyService);
  const token = toNodeHandler(
    createTokenHandler({ client: clientFor(upstream.url), store: new MemoryCallbackStore(), resolve: (_r, { order_ref }) => ({ ...TOKEN, request_id: order_ref ?? 'none' }) as TokenParams }),
  );
  const callback = toNodeHandler(createCallbackHandler({ secret: SECRET, onStatus: (p) => void seen.push(p) }));
  const app = express();
  app.post('/pay/token', token);
  app.post('/pay/callback', callback);
  app.post('/raw/callback', express.raw({ type: 'application/json' }), callback);
  app.post('/parsed/callback', express.json(), callback);
  app.use((error: Error, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    res.status(500).json({ error: error.message });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await upstream.close();
});

const post = (path: string, body: string | Buffer<ArrayBuffer>) =>
  fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

test('Express: token endpoint answers { key, attempt }', async () => {
  const response = await post('/pay/token', '{"order_ref":"o-1"}');
  assert.equal(response.status, 200);
  const { key, attempt } = (await response.json()) as { key: string; attempt: string };
  assert.equal(key, `key-o-1~${attempt}`);
});

test('Express: callback endpoint, directly and behind express.raw(), verifies the raw bytes', async () => {
  const payload = { invoice_id: 'inv-x', status: 'paid', request_id: 'o-1' };
  // Spacing and key order as the service might send them: the signature covers the parsed object.
  const body = `{ "status": "paid", "invoice_id": "inv-x", "request_id": "o-1", "signature": "${await sign(payload, SECRET)}" }`;
  assert.equal((await post('/pay/callback', body)).status, 200);
  assert.equal((await post('/raw/callback', body)).status, 200);
  assert.equal(seen.length, 1, 'the second delivery is a repeat');
  assert.equal((await post('/pay/callback', body.replace('paid', 'PAID'))).status, 401);
});

test('Express: behind express.json() the handler refuses with a clear error to the error handler', async () => {
  const response = await post('/parsed/callback', '{"invoice_id":"a","status":"b","signature":"c"}');
  assert.equal(response.status, 500);
  const { error } = (await response.json()) as { error: string };
  assert.match(error, /the request body was already read by a body parser/);
  assert.match(error, /before body parsers \(Express\), behind express\.raw\(\)/);
});

test('Express: a body over 64 KiB answers 413', async () => {
  const response = await post('/pay/callback', Buffer.alloc(65 * 1024, 0x20));
  assert.equal(response.status, 413);
});
