// One address for the service: the token answer carries the base URL the key opens at (the client's
// baseUrl, or publicBaseUrl when the browser reaches the service elsewhere), normalised as the element
// compares it; a bad publicBaseUrl is refused when the handler is made.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConfigError, MemoryCallbackStore, PaymentClient, createTokenHandler, type TokenParams } from '../../../../src/server/index.js';
import { startSandbox } from '../../../../src/sandbox/index.js';
import { MERCHANT, SECRET, TOKEN } from '../../../support/servers/service.js';

const sandbox = await startSandbox({ merchantId: MERCHANT, secret: SECRET });
after(() => sandbox.close());

async function tokenAnswer(options: { baseUrl: string; publicBaseUrl?: string }): Promise<Record<string, unknown>> {
  const client = new PaymentClient({ baseUrl: options.baseUrl, merchantId: MERCHANT, secret: SECRET });
  const handler = createTokenHandler({
    client,
    store: new MemoryCallbackStore(),
    resolve: () => ({ ...TOKEN }) as unknown as TokenParams,
    ...(options.publicBaseUrl ? { publicBaseUrl: options.publicBaseUrl } : {}),
  });
  const response = await handler(new Request('http://shop.test/api/pay-token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

test("the key comes with the client's baseUrl as base_url, a trailing slash dropped", async () => {
  const answer = await tokenAnswer({ baseUrl: `${sandbox.url}/` });
  assert.equal(answer['base_url'], sandbox.url);
  assert.equal(typeof answer['key'], 'string');
});

test('publicBaseUrl, when the browser reaches the service at another address, is the base_url instead', async () => {
  const answer = await tokenAnswer({ baseUrl: sandbox.url, publicBaseUrl: 'https://pay.example/' });
  assert.equal(answer['base_url'], 'https://pay.example');
});

test('a publicBaseUrl that is not an http(s) base URL is a ConfigError naming it', () => {
  const client = new PaymentClient({ baseUrl: sandbox.url, merchantId: MERCHANT, secret: SECRET });
  assert.throws(() => createTokenHandler({ client, store: new MemoryCallbackStore(), resolve: () => null, publicBaseUrl: 'javascript:alert(1)' }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.match(error.message, /publicBaseUrl: base-url is javascript:, not https/);
    return true;
  });
});
