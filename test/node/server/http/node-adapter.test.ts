// toNodeHandler over a real node:http server: raw bytes handed over, 413 over 64 KiB without reading
// the rest, the Response streamed back, errors to `next` when given.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createCallbackHandler, MAX_REQUEST_BYTES, sign, toNodeHandler, type FetchHandler } from '../../../../src/server/index.js';
import { SECRET, startServer } from '../../../support/servers/service.js';

const servers: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const s = await startServer(listener);
  servers.push(s);
  return s.url;
}

/** Echoes what the handler received, so tests see the Request it was given. */
const echo: FetchHandler = async (request) => {
  const bytes = new Uint8Array(await request.arrayBuffer());
  const headers = new Headers({ 'content-type': 'application/json', 'x-handler': 'yes' });
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  return new Response(
    JSON.stringify({ method: request.method, url: request.url, length: bytes.length, hex: Buffer.from(bytes).toString('hex'), type: request.headers.get('content-type') }),
    { status: 201, headers },
  );
};

/** Sends a raw request with node:http; resolves with the status as soon as an answer arrives. */
function rawPost(url: string, declaredLength: number | undefined, chunks: Buffer[], method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/x`, {
      method,
      headers: { 'content-type': 'application/json', ...(declaredLength === undefined ? {} : { 'content-length': declaredLength }) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    // The server may close while we still write: that is the point of a 413 without reading on.
    req.on('error', () => undefined);
    for (const c of chunks) req.write(c);
    if (declaredLength === undefined || chunks.reduce((n, c) => n + c.length, 0) === declaredLength) req.end();
  });
}

describe('toNodeHandler', () => {
  test('hands over the exact raw bytes, method, URL and headers; streams status, headers and cookies back', async () => {
    const url = await serve(toNodeHandler(echo));
    const raw = Buffer.from('{"b": 1,\n "a":"é"}', 'utf8'); // whitespace and order kept: signatures need them
    const response = await fetch(`${url}/cb?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-handler'), 'yes');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    const seen = (await response.json()) as Record<string, unknown>;
    assert.equal(seen['hex'], raw.toString('hex'));
    assert.equal(seen['method'], 'POST');
    assert.equal(seen['url'], `${url}/cb?x=1`);
    assert.equal(seen['type'], 'application/json');
  });
  test('a body of exactly 64 KiB is accepted', async () => {
    const url = await serve(toNodeHandler(echo));
    const { status, body } = await rawPost(url, MAX_REQUEST_BYTES, [Buffer.alloc(MAX_REQUEST_BYTES, 0x20)]);
    assert.equal(status, 201);
    assert.equal((JSON.parse(body) as { length: number }).length, MAX_REQUEST_BYTES);
  });
  test('a declared Content-Length over 64 KiB answers 413 before reading the body', async () => {
    let handled = 0;
    const url = await serve(toNodeHandler(async (r) => (handled++, echo(r))));
    // Only the first 1 KiB of a declared 10 MiB is ever written: the answer cannot wait for the rest.
    const { status, body } = await rawPost(url, 10 * 1024 * 1024, [Buffer.alloc(1024, 0x20)]);
    assert.equal(status, 413);
    assert.deepEqual(JSON.parse(body), { success: false, message: 'Request body too large' });
    assert.equal(handled, 0);
  });
  test('a chunked body that grows past 64 KiB answers 413 and the handler never runs', async () => {
    let handled = 0;
    const url = await serve(toNodeHandler(async (r) => (handled++, echo(r))));
    const { status } = await rawPost(url, undefined, Array.from({ length: 5 }, () => Buffer.alloc(20 * 1024, 0x20)));
    assert.equal(status, 413);
    assert.equal(handled, 0);
  });
  test('a handler that throws: the error goes to next when given, else 500', async () => {
    const boom: FetchHandler = async () => {
      throw new Error('handler bug');
    };
    const nextErrors: unknown[] = [];
    const withNext = await serve((req, res) =>
      toNodeHandler(boom)(req, res, (error) => {
        nextErrors.push(error);
        res.writeHead(599).end();
      }),
    );
    assert.equal((await fetch(withNext, { method: 'POST', body: '{}' })).status, 599);
    assert.equal((nextErrors[0] as Error).message, 'handler bug');
    const without = await serve(toNodeHandler(boom));
    const response = await fetch(without, { method: 'POST', body: '{}' });
    assert.equal(response.status, 500);
    assert.ok(!(await response.text()).includes('handler bug'));
  });
  // TRACE is the one such method node:http hands to a request listener: it refuses TRACK itself and
  // emits 'connect' for CONNECT.
  test('TRACE, which a Fetch Request cannot carry: 501 for any handler, which never runs, and nothing goes to next', async () => {
    let ran = 0;
    const nextErrors: unknown[] = [];
    const counted: FetchHandler = async (request) => {
      ran++;
      return echo(request);
    };
    const url = await serve((req, res) =>
      toNodeHandler(counted)(req, res, (error) => {
        nextErrors.push(error);
        res.writeHead(599).end();
      }),
    );
    for (const method of ['TRACE', 'trace']) {
      const answer = await rawPost(url, undefined, [], method);
      assert.equal(answer.status, 501, method);
      assert.deepEqual(JSON.parse(answer.body), { success: false, message: 'TRACE is not supported' });
    }
    assert.equal(ran, 0);
    assert.deepEqual(nextErrors, []);
  });

  test('behind express.raw(): a Buffer already in req.body is used as the raw body', async () => {
    const raw = Buffer.from('{"k":1}');
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        (req as IncomingMessage & { body?: unknown }).body = raw;
        toNodeHandler(echo)(req, res);
      });
    });
    const seen = (await (await fetch(url, { method: 'POST', body: 'ignored', headers: { 'content-type': 'application/json' } })).json()) as Record<string, unknown>;
    assert.equal(seen['hex'], raw.toString('hex'));
  });
  test('behind a JSON body parser (raw bytes gone): a clear error to next', async () => {
    const nextErrors: unknown[] = [];
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        (req as IncomingMessage & { body?: unknown }).body = { k: 1 };
        toNodeHandler(echo)(req, res, (error) => {
          nextErrors.push(error);
          res.writeHead(500).end();
        });
      });
    });
    assert.equal((await fetch(url, { method: 'POST', body: '{"k":1}' })).status, 500);
    assert.match((nextErrors[0] as Error).message, /before body parsers|express\.raw/);
  });
  test('GET requests pass through without a body', async () => {
    const url = await serve(toNodeHandler(echo));
    const seen = (await (await fetch(url)).json()) as Record<string, unknown>;
    assert.equal(seen['method'], 'GET');
    assert.equal(seen['length'], 0);
  });
  test('a large streamed Response arrives whole (backpressure respected)', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const url = await serve(
      toNodeHandler(async () => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ < 128) controller.enqueue(chunk);
            else controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
      }),
    );
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    assert.equal(bytes.length, 128 * 64 * 1024);
    assert.ok(bytes.every((b) => b === 0x61));
  });
});

// toNodeHandler hands its raw bytes to the handlers, and writes the handlers' own answers in one go;
// a Request or Response made by anyone else (middleware in between) must still be read as a stream.
test('toNodeHandler leaves no listener of its own on a request whose body it has read', async () => {
  // A status wait holds its request for up to 25 s: a body reader's listeners left on it would keep
  // their scope (the chunks, the promise's functions) as long.
  const counts: Array<[number, number]> = [];
  const handler = toNodeHandler(async () => new Response(null, { status: 204 }));
  const url = await serve((req, res) => {
    const before: [number, number] = [req.listenerCount('data'), req.listenerCount('error')];
    handler(req, res);
    res.once('finish', () => counts.push([req.listenerCount('data') - before[0], req.listenerCount('error') - before[1]]));
  });
  for (const init of [{}, { method: 'POST', body: '{"a":1}' }]) assert.equal((await fetch(url, init)).status, 204);
  assert.deepEqual(counts, [[0, 0], [0, 0]], "the adapter's 'data' and 'error' listeners are gone once the body is read");
});

describe('toNodeHandler with the handlers: bodies made elsewhere are read, not assumed', () => {
  const payload = { invoice_id: 'inv-fast', status: 'success', amount: 1 };
  const signedBody = async () => JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
  const post = (url: string, body: string) =>
    fetch(`${url}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  test('a Request rebuilt by middleware: the handler reads its body, not the bytes that arrived', async () => {
    const seen: unknown[] = [];
    const callback = createCallbackHandler({ secret: SECRET, onStatus: (p) => void seen.push(p.invoice_id) });
    const replacement = await signedBody();
    const url = await serve(
      toNodeHandler((request) =>
        callback(new Request(request.url, { method: 'POST', headers: request.headers, body: replacement })),
      ),
    );
    // What arrived is not even JSON; the rebuilt Request carries the signed callback.
    const response = await post(url, 'not json at all');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { success: true });
    assert.deepEqual(seen, ['inv-fast']);
  });

  test('a Request whose stream was read before the handler: read as a stream, never from the kept bytes', async () => {
    const callback = createCallbackHandler({ secret: SECRET, onStatus: () => undefined });
    const url = await serve(
      toNodeHandler(async (request) => {
        await request.text();
        return callback(request);
      }),
    );
    // The handler cannot read a used body: it fails (500) instead of acting on bytes it never read.
    assert.equal((await post(url, await signedBody())).status, 500);
  });

  test("a Response rebuilt or edited by middleware: the client gets that Response, headers and body", async () => {
    const callback = createCallbackHandler({ secret: SECRET, onStatus: () => undefined });
    const rebuilt = await serve(
      toNodeHandler(async (request) => {
        const original = await callback(request);
        const text = (await original.text()).replace('true', 'true,"wrapped":true');
        return new Response(text, { status: 202, headers: original.headers });
      }),
    );
    const response = await post(rebuilt, await signedBody());
    assert.equal(response.status, 202);
    // Streamed (chunked, no length): the rebuilt Response, not the handler's kept text.
    assert.equal(response.headers.get('content-length'), null);
    assert.deepEqual(await response.json(), { success: true, wrapped: true });

    const edited = await serve(
      toNodeHandler(async (request) => {
        const original = await callback(request);
        original.headers.set('x-request-id', 'r-1');
        return original;
      }),
    );
    const again = await post(edited, await signedBody());
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-request-id'), 'r-1');
    assert.equal(again.headers.get('cache-control'), 'no-store');
    // The handler's own answer is written whole, with its length.
    const text = await again.text();
    assert.deepEqual(JSON.parse(text), { success: true });
    assert.equal(again.headers.get('content-length'), String(Buffer.byteLength(text)));
  });
});

test('pay-form/server loads no Node module at run time (Workers, Deno): only type imports from node:', async () => {
  const { readdir, readFile } = await import('node:fs/promises');
  const dir = new URL('../../../../src/server/', import.meta.url);
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts'))) {
    const source = await readFile(new URL(file, dir), 'utf8');
    const runtime = source.split('\n').filter((line) => /^import (?!type ).*from 'node:/.test(line));
    assert.deepEqual(runtime, [], file);
  }
});

