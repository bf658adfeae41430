// `pay-form-sandbox doctor` against a whole shop (test/fixtures/shops/express-shop.ts: the recipe's
// endpoints, a checkout page and a return page) run as its own process: set up right it passes every
// check; each mistake (a body parser in front, another secret, a wrong PAY_BASE_URL, a CSP without the
// service, a return page without its script) fails the check that meets it, names the fix, and exits 1;
// a page it cannot find is skipped with the flag to set, and exits 0.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SECRET_ENV, sandboxCommand, withShop } from '../../support/apps/sandbox-command.js';

const SHOP = 'shops/express-shop.ts';
const line = (output: string, name: string) => output.split('\n').find((l) => l.includes(` ${name}: `)) ?? `(no ${name} line in)\n${output}`;

test('a shop set up as the docs say: every check ok, the CSP checked against the token answer\'s base_url, exit 0', () =>
  withShop(SHOP, async (shop, sandbox) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url, '--order', 'order-1'], SECRET_ENV);
    assert.equal(code, 0, output);
    for (const name of ['token endpoint', 'callback endpoint', 'callback signature', 'status endpoint', 'return page', 'checkout page CSP']) {
      assert.match(line(output, name), /^ok /, output);
    }
    assert.match(line(output, 'token endpoint'), /HTTP 200 with a key/);
    assert.match(line(output, 'callback signature'), /HTTP 401: refused/);
    assert.match(line(output, 'checkout page CSP'), new RegExp(`allows a frame from ${sandbox.url}`));
  }, { SHOP_CSP: "frame-src 'self' http://127.0.0.1:*; connect-src 'self'" }));

test('a body parser in front of the routes: the callback endpoint fails naming the body parser and the fix, exit 1', () =>
  withShop(SHOP, async (shop) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url], SECRET_ENV);
    assert.equal(code, 1, output);
    assert.match(line(output, 'callback endpoint'), /^FAIL .*already read by a body parser/);
    assert.match(output, /fix: a body parser read the body before the handler: mount the route before any body parser/);
    assert.match(line(output, 'callback signature'), /^skipped /);
  }, { SHOP_BODY_PARSER_FIRST: '1' }));

test('a shop with another secret: the signed probe is refused 401, the fix names PAY_SECRET', () =>
  withShop(SHOP, async (shop) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url, '--secret', 'not-the-shops']);
    assert.equal(code, 1, output);
    assert.match(line(output, 'callback endpoint'), /^FAIL .*HTTP 401/);
    assert.match(output, /fix: the signature did not verify: the shop's secret \(PAY_SECRET\)/);
  }));

test('a wrong PAY_BASE_URL on the server: the token check fails as the shop\'s setup (500 service_address), and the shop\'s log names the URL and baseUrl', () =>
  withShop(SHOP, async (shop, sandbox) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url, '--order', 'order-1'], SECRET_ENV);
    assert.equal(code, 1, output);
    assert.match(line(output, 'token endpoint'), /^FAIL .*HTTP 500.*Payment service address is wrong/);
    assert.match(output, /fix: the shop's own setup: .*PaymentClient's baseUrl/);
    const log = await shop.printedOnceSeen('check PaymentClient');
    assert.match(log, new RegExp(`pay-form: obtain_token asked ${sandbox.url}/pay/api/jsapi/obtain_token/ and what answered is not the payment service .*check PaymentClient's baseUrl \\(${sandbox.url}/pay\\)`));
  }, {}, (url) => `${url}/pay`));

test("a checkout page whose CSP leaves the service out: fails with the least CSP to send; a return page without its script fails", () =>
  withShop(SHOP, async (shop, sandbox) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url, '--base-url', sandbox.url], SECRET_ENV);
    assert.equal(code, 1, output);
    assert.match(line(output, 'checkout page CSP'), new RegExp(`^FAIL .*frame-src 'self'.* blocks a frame from ${sandbox.url}`));
    assert.match(output, new RegExp(`fix: add ${sandbox.url} to frame-src; the least a page needs: Content-Security-Policy: frame-src ${sandbox.url}; connect-src 'self' ${sandbox.url}`));
    assert.match(line(output, 'return page'), /^FAIL .*no return script/);
    assert.match(output, /pay-form-return\.min\.js/);
  }, { SHOP_CSP: "default-src 'self'; frame-src 'self'", SHOP_RETURN_SCRIPT: '0' }));

test('a shop without the pages (the Express recipe): both page checks skipped with the flag to set, exit 0', () =>
  withShop('recipes/express/server.ts', async (shop) => {
    const { code, output } = await sandboxCommand(['doctor', '--shop', shop.url], SECRET_ENV);
    assert.equal(code, 0, output);
    assert.match(line(output, 'return page'), /^skipped .*HTTP 404/);
    assert.match(output, /to check it: give the page's path with --return-page/);
    assert.match(output, /to check it: give the page's path with --checkout-page/);
  }));

test('nothing at --shop: each endpoint fails as unreachable, exit 1; --base-url alone prints the CSP header', async () => {
  const down = await sandboxCommand(['doctor', '--shop', 'http://127.0.0.1:9'], SECRET_ENV);
  assert.equal(down.code, 1, down.output);
  assert.match(down.output, /fix: start the shop, or give its origin with --shop/);
  const csp = await sandboxCommand(['doctor', '--base-url', 'https://pay.example/base/']);
  assert.equal(csp.code, 0, csp.output);
  assert.equal(csp.output.trim(), "Content-Security-Policy: frame-src https://pay.example; connect-src 'self' https://pay.example");
});
