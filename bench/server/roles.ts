// The processes bench/server runs, one role each, so the load generator, the subject and the upstream
// never share an event loop:
//   upstream  a stand-in payment service answering obtain_token signed with the shared sign()
//   handler   createTokenHandler through toNodeHandler on node:http, upstream = argv[3]
//   proxy     the baseline: node:http + a raw fetch to the same upstream, no checks, no signing
//   callback  createCallbackHandler through toNodeHandler
// Each prints its URL on the IPC channel and runs until the parent kills it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCallbackHandler, createTokenHandler, PaymentClient, sign, toNodeHandler } from '../../src/server/index.js';
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

let keys = 0;
const upstream: Listener = (req, res) => {
  void readBody(req).then(async (text) => {
    const request = JSON.parse(text) as Record<string, unknown>;
    const payload = { success: true, key: `key-${String(request['request_id'])}-${++keys}` };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }));
  });
};

function handler(upstreamUrl: string): Listener {
  const client = new PaymentClient({ baseUrl: upstreamUrl, merchantId: MERCHANT, secret: SECRET });
  return toNodeHandler(createTokenHandler({ client, resolve: (_request, body) => ({ ...TOKEN_PARAMS, request_id: body.order_ref ?? 'o' }) }));
}

function proxy(upstreamUrl: string): Listener {
  // What a merchant would write without pay-form: forward a fixed body, hand the key back.
  const body = JSON.stringify({ ...TOKEN_PARAMS, merchant_id: MERCHANT, signature: 'not-checked' });
  return (req, res) => {
    void readBody(req)
      .then(() =>
        fetch(`${upstreamUrl}/api/jsapi/obtain_token/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
        }),
      )
      .then((r) => r.json() as Promise<{ key: string }>)
      .then(({ key }) => {
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
const listeners: Record<string, () => Listener> = {
  upstream: () => upstream,
  handler: () => handler(upstreamUrl),
  proxy: () => proxy(upstreamUrl),
  callback,
};
const make = listeners[role ?? ''];
if (!make) throw new Error(`unknown role ${String(role)}`);
const server = createServer({ keepAliveTimeout: 30_000 }, make());
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}` });
});
