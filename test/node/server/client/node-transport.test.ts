// The two ways PaymentClient sends: the Node transport (node:http with a keep-alive Agent, the default on
// Node when no fetch is given) and fetch (given by the user, or on other runtimes). Each rule is proven
// for both here; `npm run test:node:fetch` runs every other client test through fetch as well.
import { describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BadResponseError,
  NetworkError,
  TimeoutError,
  type PaymentClientOptions,
  type PayoutParams,
  type TokenParams,
} from '../../../../src/server/index.js';
import { isNode, nodeTransport } from '../../../../src/server/client/node-transport.js';
import { answerSigned, clientFor, happyService, PAYOUT, refusedUrl, startService, TOKEN, type Responder, type Service } from '../../../support/servers/service.js';
import { readText, startServer } from '../../../support/servers/loopback.js';

const token = TOKEN as unknown as TokenParams;
const payout = PAYOUT as unknown as PayoutParams;
const LIMIT = { timeout: 20_000 };
/** A loopback service closed when test `t` ends. */
async function service(t: TestContext, respond: Responder): Promise<Service> {
  const s = await startService(respond);
  t.after(() => s.close());
  return s;
}

async function rejects<E extends Error>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await call.then(
    () => assert.fail(`expected ${type.name}, got success`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
  return error;
}

/** No fetch option (also under PAY_FORM_TRANSPORT=fetch, which the test clients follow otherwise). */
const NODE = { fetch: undefined };
const TRANSPORTS: Record<string, Partial<PaymentClientOptions>> = {
  'Node transport': NODE,
  fetch: { fetch: (url, init) => globalThis.fetch(url, init) },
};

for (const [name, transport] of Object.entries(TRANSPORTS)) {
  describe(name, () => {
    test('a redirect is not followed: the signed body goes nowhere else', LIMIT, async (t) => {
      const s = await service(t, (request, res) => {
        if (request.path === '/elsewhere/') return happyService(request, res);
        res.writeHead(307, { location: '/elsewhere/', 'content-type': 'text/plain' });
        res.end('moved');
      });
      const error = await rejects(clientFor(s.url, transport).createPayout(payout), BadResponseError);
      assert.equal(error.status, 307);
      assert.deepEqual(s.requests.map((r) => r.path), ['/api/payout/']);
    });

    test('a JSON redirect is not followed either: BadResponseError shape', LIMIT, async (t) => {
      const s = await service(t, (_request, res) => answerSigned(res, 308, { success: true, key: 'k' }));
      const error = await rejects(clientFor(s.url, { ...transport, maxRetries: 0 }).obtainToken(token), BadResponseError);
      assert.equal(error.reason, 'shape');
      assert.equal(s.requests.length, 1);
    });

    test('per attempt timeout, payout sent once', LIMIT, async (t) => {
      const s = await service(t, () => undefined);
      const error = await rejects(clientFor(s.url, { ...transport, timeoutMs: 1000 }).createPayout(payout), TimeoutError);
      assert.equal(error.outcomeUnknown, true);
      assert.equal(s.requests.length, 1);
    });

    test('connection refused: the payout is retried, and known not to have left', LIMIT, async () => {
      const error = await rejects(clientFor(await refusedUrl(), transport).createPayout(payout), NetworkError);
      assert.equal(error.attempts, 3);
      assert.equal(error.systemCode, 'ECONNREFUSED');
      assert.equal(error.outcomeUnknown, false);
    });
  });
}

test('the Node transport keeps connections alive: sequential requests share one TCP connection', LIMIT, async (t) => {
    let connections = 0;
    let requests = 0;
    const s = await startServer((req, res) => {
      requests++;
      void readText(req).then(() => answerSigned(res, 200, { success: true, key: 'k' }));
    });
    t.after(() => s.close());
    s.server.on('connection', () => connections++);
    const client = clientFor(s.url, NODE);
    for (let i = 0; i < 5; i++) await client.obtainToken({ ...token, request_id: `order-${i}` });
    assert.equal(requests, 5);
    assert.equal(connections, 1, `5 requests came over ${connections} connections`);
  });

test('the Node transport reaches an IPv6 loopback base URL (brackets dropped for node:http)', LIMIT, async (t) => {
  const server = createServer((req, res) => void readText(req).then(() => answerSigned(res, 200, { success: true, key: 'k6' })));
  await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const answer = await clientFor(`http://[::1]:${port}`, NODE).obtainToken(token);
  assert.equal(answer.key, 'k6');
});

test('without a fetch option, the client on Node does not use globalThis.fetch; with one, it does', LIMIT, async (t) => {
  const s = await service(t, happyService);
  const calls: string[] = [];
  const real = globalThis.fetch;
  t.mock.method(globalThis, 'fetch', (url: string | URL | Request, init?: RequestInit) => {
    calls.push(String(url));
    return real(url, init);
  });
  await clientFor(s.url, NODE).obtainToken(token);
  assert.deepEqual(calls, [], 'the default client on Node sends through node:http');
  await clientFor(s.url, { fetch: globalThis.fetch }).obtainToken(token);
  assert.deepEqual(calls, [`${s.url}/api/jsapi/obtain_token/`]);
});

test('Node is told apart from Bun, Deno and Workers, which keep fetch', () => {
  const node = { process: { release: { name: 'node' }, versions: { node: '20.19.0' }, getBuiltinModule: () => ({}) } };
  assert.equal(isNode(globalThis as never), true);
  assert.equal(isNode(node), true);
  assert.equal(isNode({ process: { ...node.process, versions: { node: '22.0.0', bun: '1.2.0' } } }), false);
  assert.equal(isNode({ ...node, Bun: {} }), false);
  assert.equal(isNode({ process: { ...node.process, versions: { node: '22.0.0', deno: '2.0.0' } } }), false);
  assert.equal(isNode({ ...node, Deno: {} }), false);
  assert.equal(isNode({ ...node, navigator: { userAgent: 'Cloudflare-Workers' } }), false);
  assert.equal(isNode({}), false);
  assert.equal(nodeTransport({}), undefined);
  // Node without node:http handed out (getBuiltinModule missing): fetch, not a crash.
  assert.equal(nodeTransport({ process: { release: { name: 'node' }, versions: { node: '20.0.0' } } }), undefined);
});

test('the Node transport imports nothing of Node at load time (only types)', async () => {
  const source = await readFile(new URL('../../../../src/server/client/node-transport.ts', import.meta.url), 'utf8');
  const nodeImports = [...source.matchAll(/^import\s+(type\s+)?[^;]*from\s+'(node:[^']+)'/gm)];
  assert.ok(nodeImports.length > 0, 'the check sees the type imports');
  assert.deepEqual(nodeImports.filter((m) => m[1] === undefined).map((m) => m[2]), []);
  assert.doesNotMatch(source, /import\(\s*'node:/);
});
