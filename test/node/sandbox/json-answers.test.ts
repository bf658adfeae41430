// Every JSON answer pay-form writes comes from one pair of helpers (service/body.ts): the handlers'
// answers, the sandbox's API answers and the demo shop's routes carry the same headers, and a
// Response from jsonResponse is what those places used to build by hand.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jsonHeaders, jsonResponse } from '../../../src/service/body.js';
import { createStatusHandler, MemoryCallbackStore, toNodeHandler } from '../../../src/server/index.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { DemoBackend } from '../../../demo/backend.js';
import { SERVICE_PATHS } from '../../../src/service/paths.js';
import { startServer, type Loopback } from '../../support/servers/loopback.js';
import { MERCHANT, sandbox, SECRET } from './helpers.js';

const JSON_LINES = [
  ['cache-control', 'no-store'],
  ['content-type', 'application/json; charset=utf-8'],
];

/** The answer's headers without the ones the connection adds (date, length or chunking, keep-alive). */
function ownHeaders(response: Response): string[][] {
  return [...response.headers].filter(([name]) => !['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name));
}

let sb: Sandbox;
let demo: Loopback;
let handler: Loopback;
before(async () => {
  sb = await sandbox();
  const backend = new DemoBackend({
    baseUrl: sb.url, merchantId: MERCHANT, secret: SECRET, siteId: 1, redirectSiteId: undefined, sandbox: true, shopOrigin: 'http://shop.test',
  });
  demo = await startServer((req, res) => backend.middleware(req, res, () => res.writeHead(418).end()));
  const status = createStatusHandler({ store: new MemoryCallbackStore(), authorize: () => false });
  handler = await startServer(toNodeHandler(status));
});
after(async () => {
  await Promise.all([sb.close(), demo.close(), handler.close()]);
});

test('jsonResponse: the JSON text of the body, the status, the JSON headers and then the extra ones', async () => {
  const response = jsonResponse(405, { success: false, message: 'é' }, { allow: 'POST' });
  assert.equal(response.status, 405);
  assert.equal(await response.text(), '{"success":false,"message":"é"}');
  assert.deepEqual([...response.headers], [['allow', 'POST'], ...JSON_LINES]);
  assert.deepEqual(Object.entries(jsonHeaders({ allow: 'POST' })), [
    ['content-type', 'application/json; charset=utf-8'],
    ['cache-control', 'no-store'],
    ['allow', 'POST'],
  ]);
  assert.deepEqual(Object.entries(jsonHeaders()), Object.entries(jsonHeaders({})));
});

test('the handlers, the sandbox and the demo shop answer JSON with the same headers', async () => {
  const token = `${sb.url}${SERVICE_PATHS.obtain_token}`;
  const answers: Array<[where: string, response: Response, extra: string[][]]> = [
    ['status handler, 404', await fetch(`${handler.url}/status?order_ref=x`), []],
    ['status handler, 405', await fetch(`${handler.url}/status`, { method: 'POST' }), [['allow', 'GET, HEAD']]],
    ['sandbox, 404', await fetch(`${sb.url}/nowhere`), []],
    ['sandbox, 405', await fetch(token), [['allow', 'POST']]],
    ['sandbox, 400', await fetch(token, { method: 'POST', body: '{' }), []],
    ['demo, config', await fetch(`${demo.url}/api/checkout/config`), []],
    ['demo, bad order', await fetch(`${demo.url}/api/checkout/orders`, { method: 'POST', body: 'x' }), []],
    ['demo, no such route', await fetch(`${demo.url}/api/checkout/nowhere`), []],
  ];
  for (const [where, response, extra] of answers) {
    // The demo hands a first-time visitor a shopper cookie (demo/shoppers.ts); that is no JSON header.
    const headers = ownHeaders(response).filter(([name]) => !(where.startsWith('demo') && name === 'set-cookie'));
    assert.deepEqual(headers, [...extra, ...JSON_LINES], where);
    assert.equal(typeof JSON.parse(await response.text()), 'object', where);
  }
});
