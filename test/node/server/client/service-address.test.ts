// A wrong PaymentClient baseUrl is the merchant's setup, never the payment service failing: what answers
// there (an HTML page, a 404, another API's JSON, the sandbox under a wrong path) gives a
// ServiceAddressError naming the URL asked and baseUrl, and the token handler answers 500 with the code
// service_address, not 502. A proxy's 5xx page in front of a service that is down stays the service's.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  BadResponseError,
  MemoryCallbackStore,
  PaymentClient,
  ServiceAddressError,
  createTokenHandler,
  type TokenParams,
} from '../../../../src/server/index.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { MERCHANT, SECRET, TOKEN, fails, startService, type Responder } from '../../../support/servers/service.js';

const raw = (status: number, contentType: string, body: string): Responder => (_request, res) => void res.writeHead(status, { 'content-type': contentType }).end(body);
const client = (baseUrl: string) => new PaymentClient({ baseUrl, merchantId: MERCHANT, secret: SECRET, maxRetries: 1 });
const token = TOKEN as unknown as TokenParams;

const services: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(services.map((s) => s.close())));
async function serving(respond: Responder): Promise<string> {
  const s = await startService(respond);
  services.push(s);
  return s.url;
}

describe('ServiceAddressError: what answers at baseUrl is not the service', () => {
  for (const [name, respond] of [
    ["the shop's own web server (404 HTML)", raw(404, 'text/html', '<h1>Not Found</h1>')],
    ['a web page (200 HTML)', raw(200, 'text/html; charset=utf-8', '<!doctype html><p>Welcome')],
    ["another API's JSON (404, no success)", raw(404, 'application/json', '{"error":"no route"}')],
    ['JSON without success (200)', raw(200, 'application/json', '{"ok":true}')],
  ] as const) {
    test(`${name}: ServiceAddressError naming the URL asked and baseUrl, not retried`, async () => {
      const base = await serving(respond);
      const error = await fails(client(base).obtainToken(token), ServiceAddressError);
      assert.ok(error instanceof BadResponseError, 'still a BadResponseError, for code that catches those');
      assert.equal(error.code, 'service_address');
      assert.equal(error.url, `${base}/api/jsapi/obtain_token/`);
      assert.equal(error.baseUrl, base);
      assert.ok(error.message.includes(`asked ${base}/api/jsapi/obtain_token/`), error.message);
      assert.ok(error.message.includes(`check PaymentClient's baseUrl (${base}), e.g. PAY_BASE_URL`), error.message);
      assert.equal(error.attempts, 1);
    });
  }

  test('the sandbox under a wrong path (its signed 404): ServiceAddressError, reason not-found, with its message', async () => {
    const sandbox = await startSandbox({ merchantId: MERCHANT, secret: SECRET });
    services.push(sandbox);
    const error = await fails(client(`${sandbox.url}/pay`).obtainToken(token), ServiceAddressError);
    assert.equal(error.reason, 'not-found');
    assert.match(error.message, /HTTP 404, not-found: Not found: \/pay\/api\/jsapi\/obtain_token\//);
    assert.equal(error.baseUrl, `${sandbox.url}/pay`);
  });

  test("a proxy's 502 page in front of a service that is down: BadResponseError, the service's failure", async () => {
    const error = await fails(client(await serving(raw(502, 'text/html', '<h1>Bad Gateway</h1>'))).obtainToken(token), BadResponseError);
    assert.ok(!(error instanceof ServiceAddressError));
    assert.equal(error.code, 'bad_response');
  });
});

describe('the token handler in front of a wrong baseUrl', () => {
  test('answers 500 { code: "service_address" } (the shop\'s setup, not 502), and onError hears the ServiceAddressError', async () => {
    const base = await serving(raw(404, 'text/html', '<h1>Not Found</h1>'));
    const seen: unknown[] = [];
    const handler = createTokenHandler({ client: client(base), store: new MemoryCallbackStore(), resolve: () => ({ ...token }), onError: (error) => seen.push(error) });
    const response = await handler(new Request('http://shop.test/api/pay-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    assert.equal(response.status, 500);
    assert.deepEqual(await response.json(), { success: false, message: "Payment service address is wrong: check the shop's PaymentClient baseUrl", code: 'service_address' });
    assert.equal(seen.length, 1);
    assert.ok(seen[0] instanceof ServiceAddressError);
    assert.ok(!JSON.stringify(seen).includes(SECRET));
  });
});
