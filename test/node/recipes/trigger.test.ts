// `pay-form-sandbox trigger` run as a merchant runs it (the bin, a child process) against the server
// recipes of docs/recipes.md, each its own process: every event's callbacks answered as the service
// expects. And against shops set up wrong (another secret, a body parser in front of the callback
// route): the command says so, names the cause and exits 1.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_MERCHANT, builtSandbox, startRecipe, type RunningRecipe } from '../../support/apps/recipes.js';
import { SECRET_ENV, sandboxCommand, withShop } from '../../support/apps/sandbox-command.js';
import { TRIGGER_EVENTS } from '../../../src/sandbox/trigger.js';

const fixture = (file: string) => fileURLToPath(new URL(`../../fixtures/${file}`, import.meta.url));

for (const [name, file] of [
  ['Express', 'recipes/express/server.ts'],
  ['Fastify', 'recipes/fastify/server.ts'],
  ['Hono on @hono/node-server', 'recipes/hono/server.ts'],
] as const) {
  describe(`trigger against the ${name} recipe (test/fixtures/${file})`, () => {
    let shop: RunningRecipe;
    let sandbox: Awaited<ReturnType<Awaited<ReturnType<typeof builtSandbox>>['startSandbox']>>;
    before(async () => {
      sandbox = await (await builtSandbox()).startSandbox({ port: 0, ...SANDBOX_MERCHANT });
      shop = await startRecipe({ command: process.execPath, args: ['--import', 'tsx', fixture(file)] }, sandbox.url);
    });
    after(async () => {
      await shop?.stop();
      await sandbox?.close();
    });

    for (const event of TRIGGER_EVENTS) {
      test(`${event}: every answer is what the service expects, exit 0`, async () => {
        const { code, output } = await sandboxCommand(['trigger', event, '--to', `${shop.url}/api/pay-callback`, '--order', 'order-3'], SECRET_ENV);
        assert.equal(code, 0, output);
        assert.match(output, /every answer is what the service expects/);
        assert.doesNotMatch(output, /WRONG/);
        // The answers themselves, as printed: 401 for the forged one, 200 for each signed one.
        assert.match(output, event === 'bad-signature' ? /HTTP 401 .*Invalid signature/ : /HTTP 200 \{"success":true\}/);
      });
    }
  });
}

test('trigger without --order makes one up; onStatus hears it with that order reference', () =>
  withShop('recipes/express/server.ts', async (shop) => {
    const { code, output } = await sandboxCommand(['trigger', 'success', '--to', `${shop.url}/api/pay-callback`], SECRET_ENV);
    assert.equal(code, 0, output);
    const order = /order (test-order-[0-9a-z]{12})/.exec(output)?.[1];
    assert.ok(order, output);
    assert.match(await shop.printedOnceSeen(`order ${order}: success`), new RegExp(`order ${order}: success`));
  }));

test('a shop with another secret: trigger success exits 1, says 401 and names the secret', () =>
  withShop('recipes/express/server.ts', async (shop) => {
    const { code, output } = await sandboxCommand(['trigger', 'success', '--to', `${shop.url}/api/pay-callback`, '--secret', 'not-the-shops-secret']);
    assert.equal(code, 1, output);
    assert.match(output, /HTTP 401/);
    assert.match(output, /WRONG: refused .*the service expects taken/);
    assert.match(output, /PAY_SECRET/);
  }));

test('a body parser in front of the callback route: trigger success exits 1 and names the body parser, with the fix', () =>
  withShop('shops/express-shop.ts', async (shop) => {
    const { code, output } = await sandboxCommand(['trigger', 'success', '--to', `${shop.url}/api/pay-callback`], SECRET_ENV);
    assert.equal(code, 1, output);
    assert.match(output, /HTTP 500 .*already read by a body parser/);
    assert.match(output, /Fix: a body parser read the body before the handler: mount the route before any body parser/);
    // The shop's own log names it too (the recipe's onError, or the adapter's error).
    assert.match(await shop.printedOnceSeen('body parser'), /already read by a body parser/);
  }, { SHOP_BODY_PARSER_FIRST: '1' }));

test('nothing at --to: exit 1, "nothing answered"', async () => {
  const { code, output } = await sandboxCommand(['trigger', 'fail', '--to', 'http://127.0.0.1:9/api/pay-callback'], SECRET_ENV);
  assert.equal(code, 1, output);
  assert.match(output, /nothing answered/);
});

test('an unknown event or no --to is a usage error: exit 2 with the events listed', async () => {
  const unknown = await sandboxCommand(['trigger', 'refund', '--to', 'http://127.0.0.1:9/']);
  assert.equal(unknown.code, 2, unknown.output);
  assert.match(unknown.output, /name one event of success, fail, duplicate, late, out-of-order, bad-signature, extra-payment/);
  const noTarget = await sandboxCommand(['trigger', 'success']);
  assert.equal(noTarget.code, 2, noTarget.output);
  assert.match(noTarget.output, /--to: is required/);
});
