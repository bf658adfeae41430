// toNodeHandler runs pay-form's own handlers without a Fetch Request or Response in between (the logic
// behind the Fetch shape, src/server/http/handler-logic.ts). The same requests, sent as raw bytes to a server on that
// path and to one where the handler is wrapped (so toNodeHandler only sees a plain Fetch handler), must
// get byte-for-byte the same answers (the Date line aside), and the merchant's callbacks the same Request.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import {
  createCallbackHandler,
  createStatusHandler,
  createTokenHandler,
  hmacSigner,
  MemoryCallbackStore,
  signed,
  toNodeHandler,
  type FetchHandler,
} from '../../../../src/server/index.js';
import { clientFor, happyService, SECRET, startServer, startService, TOKEN } from '../../../support/servers/service.js';

const closers: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

async function serve(handler: FetchHandler): Promise<number> {
  const server = await startServer(toNodeHandler(handler));
  closers.push(() => server.close());
  return Number(new URL(server.url).port);
}

/** One raw HTTP/1.1 exchange on its own connection: the whole answer, its Date line taken out. */
function exchange(port: number, raw: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A server that answers before reading the rest (413) may reset the connection: what came is the answer.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').replace(/\r\nDate: [^\r]*/i, '')));
    setTimeout(() => reject(new Error('no answer')), 10_000).unref();
  });
}

interface Sent {
  method?: string;
  target?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function rawRequest({ method = 'POST', target = '/x', headers = {}, body }: Sent): Buffer {
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const all: Record<string, string> = { host: 'shop.test', connection: 'close', ...headers };
  if (bytes !== undefined && !('content-length' in all)) all['content-length'] = String(bytes.length);
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes ?? Buffer.alloc(0)]);
}

/** An answer with each token's random attempt id (docs/server.md, Token endpoint) written as 12 x's. */
const sameAttempt = (answer: string) => answer.replace(/(~|"attempt":")[0-9a-z]{12}/g, '$1xxxxxxxxxxxx');

/** Every request to both servers, in order; each answer pair must be equal. Returns the native answers. */
async function sameOnBothPaths(native: number, fetchPath: number, requests: Sent[]): Promise<string[]> {
  const answers: string[] = [];
  for (const sent of requests) {
    const raw = rawRequest(sent);
    const a = sameAttempt(await exchange(native, raw));
    const b = sameAttempt(await exchange(fetchPath, raw));
    assert.equal(a, b, `${sent.method ?? 'POST'} ${sent.target ?? '/x'} ${String(sent.body ?? '').slice(0, 60)}`);
    answers.push(a);
  }
  return answers;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const json = (body: string | Buffer, headers: Record<string, string> = JSON_TYPE): Sent => ({ headers, body });
/** Requests every POST handler must refuse the same way. */
/** A Host header no URL can be made of: the Fetch path cannot build its Request and answers 500. */
const BAD_HOST: Sent = { target: '/x', headers: { ...JSON_TYPE, host: 'bad host' }, body: '{}' };

const badPosts: Sent[] = [
  { method: 'GET' },
  { method: 'PUT', ...json('{}') },
  { method: 'DELETE', headers: JSON_TYPE },
  json('{}', { 'content-type': 'text/plain' }),
  json('{}', {}),
  json('{"a":', JSON_TYPE),
  json('[1,2]'),
  json(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])),
  json('{"x":1e400}'),
  json('['.repeat(3000)),
  json(''),
  json('{"a":1}', { 'content-type': 'application/json', 'content-length': String(70 * 1024) }),
  json(`{"a":1}${' '.repeat(64 * 1024 - 7)}`),
  json('{"a":1}', { 'content-type': 'Application/JSON; charset=utf-8' }),
  BAD_HOST,
];

/** Counts Fetch Requests and Responses constructed while `run` runs. */
async function fetchObjectsDuring(run: () => Promise<unknown>): Promise<number> {
  const { Request: RealRequest, Response: RealResponse } = globalThis;
  let made = 0;
  globalThis.Request = class extends RealRequest {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      made++;
    }
  };
  globalThis.Response = class extends RealResponse {
    constructor(...args: ConstructorParameters<typeof Response>) {
      super(...args);
      made++;
    }
  };
  try {
    await run();
  } finally {
    globalThis.Request = RealRequest;
    globalThis.Response = RealResponse;
  }
  return made;
}

describe('toNodeHandler: native path and Fetch path answer alike', () => {
  test('callback handler: valid, repeat, bad signature, malformed, oversized, wrong method and type', async () => {
    const make = () => {
      const seen: string[] = [];
      const handler = createCallbackHandler({
        secret: SECRET,
        onStatus: (p) => {
          if (p.invoice_id === 'inv-throws') throw new Error('merchant bug');
          seen.push(`${p.invoice_id}/${p.status}`);
        },
        onError: () => undefined,
      });
      return { handler, seen };
    };
    const native = make();
    const wrapped = make();
    const signer = hmacSigner(SECRET);
    const valid = JSON.stringify(await signed({ invoice_id: 'inv-1', request_id: 'order-1', status: 'success', amount: 1500 }, signer));
    const pending = JSON.stringify(await signed({ invoice_id: 'inv-1', status: 'pending', amount: 1500 }, signer));
    const throws = JSON.stringify(await signed({ invoice_id: 'inv-throws', status: 'success' }, signer));
    const numeric = JSON.stringify(await signed({ invoice_id: 7, status: 'success' }, signer));
    const answers = await sameOnBothPaths(await serve(native.handler), await serve((r) => wrapped.handler(r)), [
      json(valid),
      json(valid),
      json(pending),
      json(valid.replace('"success"', '"fail"')),
      json(JSON.stringify({ invoice_id: 'inv-2', status: 'success' })),
      json(JSON.stringify({ invoice_id: 'inv-2', status: 'success', signature: 42 })),
      json(throws),
      json(numeric),
      ...badPosts.filter((sent) => sent !== BAD_HOST),
    ]);
    // The callback handler reads no URL, so under node:http it needs none and judges the body (an
    // unsigned one: 401); the Fetch path must build a Request first, and cannot.
    const raw = rawRequest(BAD_HOST);
    assert.match(await exchange(await serve(native.handler), raw), /^HTTP\/1\.1 401 /);
    assert.match(await exchange(await serve((r) => wrapped.handler(r)), raw), /^HTTP\/1\.1 500 /);
    assert.deepEqual(native.seen, ['inv-1/success', 'inv-1/pending']);
    assert.deepEqual(wrapped.seen, native.seen);
    assert.match(answers[0]!, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(answers[0]!, /\r\n\r\n\{"success":true\}$/);
    assert.match(answers[3]!, /^HTTP\/1\.1 401 /);
    assert.match(answers[6]!, /^HTTP\/1\.1 500 /);
    assert.equal(answers.filter((a) => /^HTTP\/1\.1 413 /.test(a)).length, 1);
    assert.equal(answers.filter((a) => /^HTTP\/1\.1 405 .*\r\nallow: POST\r\n/s.test(a)).length, 3);
  });

  test('token handler: resolve gets a real Request with the same method, URL and headers on both paths, and the same answers come back', async () => {
    const service = await startService(happyService);
    closers.push(() => service.close());
    const make = () => {
      const seen: unknown[] = [];
      const bodies: string[] = [];
      const handler = createTokenHandler({
        client: clientFor(service.url),
        store: new MemoryCallbackStore(),
        resolve: async (request, body) => {
          const url = new URL(request.url);
          // The handler has read the body (resolve gets it parsed): under node:http the Request carries
          // none (docs/server.md); the Fetch path hands over the Request it was given.
          seen.push([request instanceof Request, request.method, url.host, url.pathname + url.search, [...request.headers], body]);
          bodies.push(request.body === null ? 'none' : 'bytes');
          if (body.order_ref === 'boom') throw new Error('merchant bug');
          return body.order_ref === 'order-1' ? TOKEN : null;
        },
        onError: () => undefined,
      });
      return { handler, seen, bodies };
    };
    const native = make();
    const wrapped = make();
    const answers = await sameOnBothPaths(await serve(native.handler), await serve((r) => wrapped.handler(r)), [
      { target: '/token?x=1', headers: { ...JSON_TYPE, 'x-session': 'abc' }, body: '{ "order_ref": "order-1", "amount": 1 }' },
      json('{"order_ref":"order-1"}'),
      json('{"order_ref":"nope"}'),
      json('{"order_ref":"boom"}'),
      json('{"order_ref":5}'),
      json('{}'),
      ...badPosts,
    ]);
    assert.match(answers[0]!, /\r\n\r\n\{"key":"/);
    assert.match(answers[2]!, /^HTTP\/1\.1 404 /);
    assert.equal(native.seen.length, 8); // five of its own, two of badPosts (valid JSON objects), the bad host never
    assert.deepEqual(wrapped.seen, native.seen);
    assert.deepEqual(native.bodies, Array(8).fill('none'));
    assert.deepEqual(native.seen[0], [
      true,
      'POST',
      'shop.test',
      '/token?x=1',
      [['connection', 'close'], ['content-length', '39'], ['content-type', 'application/json'], ['host', 'shop.test'], ['x-session', 'abc']],
      { order_ref: 'order-1' },
    ]);
  });

  test('status handler: found, HEAD, none within the wait, refused, authorize failing, wrong method', async () => {
    const make = async () => {
      const store = new MemoryCallbackStore();
      // The order's payment: a success of the attempt its token request started, judged then finished.
      await store.startAttempt('order-1', { attempt: 'a00000000001', amount: '1500', currency: 'USD', lifetimeMs: 60_000, obtainMs: 5_000 });
      const paid = { order_ref: 'order-1', attempt: 'a00000000001', status: 'success', invoice_id: 'inv-1', amount: '1500', currency: 'USD' };
      await store.finish({ ...paid, verdict: await store.judge(paid) });
      const seen: unknown[] = [];
      const handler = createStatusHandler({
        store,
        waitMs: 30,
        onError: () => undefined,
        authorize: (request, ref) => {
          seen.push([request.method, new URL(request.url).search, request.headers.get('cookie')]);
          if (ref === 'throws') throw new Error('session store down');
          return ref === 'hidden' ? false : ref === 'alias' ? 'order-1' : true;
        },
      });
      return { handler, seen };
    };
    const native = await make();
    const wrapped = await make();
    const get = (target: string, method = 'GET'): Sent => ({ method, target, headers: { cookie: 's=1' } });
    const answers = await sameOnBothPaths(await serve(native.handler), await serve((r) => wrapped.handler(r)), [
      get('/status?order_ref=order-1'),
      get('/status?order_ref=order-1', 'HEAD'),
      get('/status?order_ref=alias'),
      get('/status?order_ref=other'),
      get('/status?order_ref=other', 'HEAD'),
      get('/status'),
      get('/status?order_ref='),
      get('/status?order_ref=hidden'),
      get('/status?order_ref=throws'),
      { ...get('/status?order_ref=order-1', 'POST'), body: '{}' },
      get('/status?order_ref=order%20one&order_ref=x'),
    ]);
    assert.match(answers[0]!, /\r\n\r\n\{"status":"success","invoice_id":"inv-1"\}$/);
    assert.match(answers[3]!, /^HTTP\/1\.1 204 /);
    assert.deepEqual(wrapped.seen, native.seen);
  });

  test('the native path builds no Request or Response for a callback; the wrapped handler does', async () => {
    const handler = createCallbackHandler({ secret: SECRET, onStatus: () => undefined });
    const native = await serve(handler);
    const fetchPath = await serve((r) => handler(r));
    const signer = hmacSigner(SECRET);
    const send = async (port: number, n: number) =>
      exchange(port, rawRequest(json(JSON.stringify(await signed({ invoice_id: `inv-${n}`, status: 'success' }, signer)))));
    assert.equal(await fetchObjectsDuring(() => send(native, 1)), 0);
    assert.equal(await fetchObjectsDuring(() => send(fetchPath, 2)), 2);
  });
});
