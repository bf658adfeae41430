// The processes bench/server runs, one role each, so the load generator, the subject and the upstream
// never share an event loop:
//   upstream       a minimal payment service: checks each obtain_token request's signature and answers
//                  a signed key; keeps nothing, so its memory stays flat however long the run
//   token          createTokenHandler through toNodeHandler, PaymentClient with its default transport
//                  (node:http with keep-alive on Node)
//   token-fetch    the same handler with `fetch: globalThis.fetch` (the transport before the Node one)
//   proxy          the baseline: node:http + a raw fetch to the same upstream, no checks, no signing
//   callback       createCallbackHandler through toNodeHandler
//   callback-redis the same on a RedisCallbackStore (node-redis) on REDIS_URL: the deployment of two
//                  or more servers
//   bare-callback  the floor for callbacks: node:http that parses the JSON and checks the HMAC, nothing else
// Each prints { url, pid } on the IPC channel, answers { cpu, rss } to 'usage', and runs until killed.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MERCHANT, SECRET, TOKEN_PARAMS } from './shared.js';

// The shipped build (run `npm run build` first), as a merchant runs it; typed from its source.
// bench/telemetry names another build (PAY_FORM_BENCH_SERVER) and may register an OpenTelemetry SDK
// first (PAY_FORM_BENCH_SDK, a module to import), and with PAY_FORM_BENCH_REQUEST_SPAN=1 run each
// request in a server span, as an app's HTTP instrumentation does.
const DIST = process.env['PAY_FORM_BENCH_SERVER'] ?? new URL('../../dist/server/index.js', import.meta.url).href;
if (process.env['PAY_FORM_BENCH_SDK']) await import(process.env['PAY_FORM_BENCH_SDK']);
const { canonicalJson, createCallbackHandler, createTokenHandler, hmacSigner, MemoryCallbackStore, PaymentClient, RedisCallbackStore, signed, toNodeHandler } =
  (await import(DIST)) as typeof import('../../src/server/index.js');

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

const hmac = (payload: Record<string, unknown>) => createHmac('sha256', SECRET).update(canonicalJson(payload), 'utf8').digest('hex');

/** Parses a signed JSON object and checks its HMAC: what every service and callback receiver must do. */
function verified(text: string): Record<string, unknown> | undefined {
  try {
    const { signature, ...payload } = JSON.parse(text) as Record<string, unknown>;
    return signature === hmac(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const upstream = (): Listener => (req, res) => {
  void readBody(req).then((text) => {
    const request = verified(text);
    if (!request) return json(res, 400, { success: false, message: 'Invalid signature' });
    const answer = { success: true, key: `key-${String(request['request_id'])}` };
    json(res, 200, { ...answer, signature: hmac(answer) });
  });
};

function token(upstreamUrl: string, viaFetch: boolean): Listener {
  const client = new PaymentClient({
    baseUrl: upstreamUrl,
    merchantId: MERCHANT,
    secret: SECRET,
    ...(viaFetch ? { fetch: globalThis.fetch } : {}),
  });
  return toNodeHandler(createTokenHandler({ client, store: new MemoryCallbackStore(), resolve: (_request, body) => ({ ...TOKEN_PARAMS, request_id: body.order_ref ?? 'o' }) }));
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
        json(res, 200, { key });
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  };
}

const callback = (): Listener => toNodeHandler(createCallbackHandler({ secret: SECRET, onStatus: () => undefined }));

async function redisCallback(): Promise<Listener> {
  const { connectRedis } = await import('../../test/support/redis/redis-clients.js');
  const redis = await connectRedis({ library: 'node-redis', target: { topology: 'standalone', url: process.env['REDIS_URL'] ?? '' } });
  const store = new RedisCallbackStore(redis.client, { prefix: `bench-${process.pid}:` });
  return toNodeHandler(createCallbackHandler({ secret: SECRET, store, onStatus: () => undefined }));
}

/** What @opentelemetry/instrumentation-http does around each request: a server span, active while the
 *  listener runs, ended when the answer is sent. */
async function inRequestSpan(listener: Listener): Promise<Listener> {
  const { trace, SpanKind } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('bench-http');
  return (req, res) =>
    tracer.startActiveSpan(`${req.method ?? 'GET'}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? 'GET' } }, (span) => {
      res.once('finish', () => {
        span.setAttribute('http.response.status_code', res.statusCode);
        span.end();
      });
      listener(req, res);
    });
}

const bareCallback = (): Listener => (req, res) => {
  void readBody(req).then((text) => {
    if (verified(text)) json(res, 200, { success: true });
    else json(res, 401, { success: false, message: 'Invalid signature' });
  });
};

const [role, upstreamUrl = ''] = process.argv.slice(2);
const listeners: Record<string, () => Listener | Promise<Listener>> = {
  upstream,
  token: () => token(upstreamUrl, false),
  'token-fetch': () => token(upstreamUrl, true),
  proxy: () => proxy(upstreamUrl),
  callback,
  'callback-redis': redisCallback,
  'bare-callback': bareCallback,
};
const make = listeners[role ?? ''];
if (!make) throw new Error(`unknown role ${String(role)}`);
const made = await make();
const server = createServer({ keepAliveTimeout: 30_000 }, process.env['PAY_FORM_BENCH_REQUEST_SPAN'] === '1' ? await inRequestSpan(made) : made);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://127.0.0.1:${port}`, pid: process.pid });
});
process.on('message', (m) => {
  // A clean exit, so a --cpu-prof profile gets written.
  if (m === 'exit') process.exit(0);
  if (m === 'usage') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system, rss: process.memoryUsage().rss });
  }
});
