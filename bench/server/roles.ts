// The processes bench/server runs, one role each, so the load generator, the subject and the upstream
// never share an event loop:
//   upstream  the sandbox (pay-form/sandbox, startSandbox): obtain_token with every check, signed answers
//   handler   createTokenHandler through toNodeHandler on node:http, upstream = argv[3]
//   proxy     the baseline: node:http + a raw fetch to the same upstream, no checks, no signing
//   callback  createCallbackHandler through toNodeHandler
// Each prints its URL on the IPC channel and runs until the parent kills it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackHandler, createTokenHandler, hmacSigner, PaymentClient, signed, toNodeHandler } from '../../src/server/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { MERCHANT, SECRET, TOKEN_PARAMS } from './shared.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

function handler(upstreamUrl: string): Listener {
  const client = new PaymentClient({ baseUrl: upstreamUrl, merchantId: MERCHANT, secret: SECRET });
  return toNodeHandler(createTokenHandler({ client, resolve: (_request, body) => ({ ...TOKEN_PARAMS, request_id: body.order_ref ?? 'o' }) }));
}

async function proxy(upstreamUrl: string): Promise<Listener> {
  // What a merchant would write without pay-form: forward one body signed in advance, hand the key
  // back; no validation, no signing per request, no verification of the answer.
  const body = JSON.stringify(await signed({ ...TOKEN_PARAMS, merchant_id: MERCHANT }, hmacSigner(SECRET)));
  return (req, res) => {
    void readBody(req)
      .then(() =>
        fetch(`${upstreamUrl}/api/jsapi/obtain_token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
        }),
      )
      .then((r) => r.json() as Promise<{ key?: unknown }>)
      .then(({ key }) => {
        if (typeof key !== 'string') throw new Error('no key');
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ key }));
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  };
}

const callback = (): Listener =>
  toNodeHandler(createCallbackHandler({ secret: SECRET, onStatus: () => undefined }));

const [role, upstreamUrl = ''] = process.argv.slice(2);
if (role === 'upstream') {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', merchantId: MERCHANT, secret: SECRET });
  process.send?.({ url: sandbox.url });
} else {
  const listeners: Record<string, () => Listener | Promise<Listener>> = {
    handler: () => handler(upstreamUrl),
    proxy: () => proxy(upstreamUrl),
    callback,
  };
  const make = listeners[role ?? ''];
  if (!make) throw new Error(`unknown role ${String(role)}`);
  const server = createServer({ keepAliveTimeout: 30_000 }, await make());
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `http://127.0.0.1:${port}` });
  });
}
