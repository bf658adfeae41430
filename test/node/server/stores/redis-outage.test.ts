// A shop started while its Redis is down (test/fixtures/shops/express-shop.ts, its Redis client made as
// docs/stores.md says): it listens at once; the token, callback and status endpoints answer 503 with
// Retry-After (the page's token-request-failed says HTTP 503, the doctor names the store); the log says
// so once, not once per reconnect attempt; and when redis-server starts, the shop recovers by itself.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort, kill, nodeArgs, spawnRedis } from '../../../support/redis/redis-server.js';
import { SECRET_ENV, sandboxCommand, withShop } from '../../../support/apps/sandbox-command.js';
import { until } from '../../../support/poll.js';
import { SANDBOX_MERCHANT } from '../../../support/apps/recipes.js';
import { callbackRequest, successCallback } from '../../../../src/sandbox/testing.js';

const UNREACHABLE = /pay-form: Redis is unreachable \(ECONNREFUSED/g;

test('Redis down at start: the shop listens and answers 503 with Retry-After, logs the outage once, and recovers when Redis starts', { timeout: 120_000 }, async () => {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'pay-form-outage-'));
  try {
    await withShop('shops/express-shop.ts', async (shop) => {
      // startRecipe returned: the shop answers HTTP while nothing listens on Redis's port.
      const paid = await successCallback({ secret: SANDBOX_MERCHANT.secret, order: 'order-1' });
      const refused = await fetch(callbackRequest(`${shop.url}/api/pay-callback`, paid));
      assert.equal(refused.status, 503, await refused.text());
      assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After: the service delivers again');

      const token = await fetch(`${shop.url}/api/pay-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order_ref":"order-1"}' });
      assert.equal(token.status, 503, 'the page reports token-request-failed (HTTP 503), not a service failure');
      assert.equal(token.headers.get('retry-after'), '1');

      const doctor = await sandboxCommand(['doctor', '--shop', shop.url, '--order', 'order-2'], SECRET_ENV);
      assert.equal(doctor.code, 1, doctor.output);
      assert.match(doctor.output, /FAIL +token endpoint: .*HTTP 503/);
      assert.match(doctor.output, /fix: the shop's store failed \(its Redis down\?\)/);
      assert.match(doctor.output, /FAIL +callback endpoint: .*HTTP 503/);
      assert.match(doctor.output, /its store is down/);
      assert.match(doctor.output, /FAIL +status endpoint: .*HTTP 503/);

      // node-redis retried the connection many times by now (every ~0.05 to 2 s); the log says so once.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      assert.equal((await shop.printedOnceSeen('Redis is unreachable')).match(UNREACHABLE)?.length, 1);

      const redis = await spawnRedis(port, nodeArgs(port, dir));
      try {
        let answer = 0;
        await until('the callback is taken once Redis is up', async () => {
          answer = (await fetch(callbackRequest(`${shop.url}/api/pay-callback`, paid))).status;
          return answer === 200;
        });
        // The token endpoint works again too: a key for an order (the store started its attempt).
        const again = await fetch(`${shop.url}/api/pay-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order_ref":"order-2"}' });
        assert.equal(again.status, 200, await again.clone().text());
        assert.equal(typeof ((await again.json()) as { key?: unknown }).key, 'string');
        const log = await shop.printedOnceSeen('Redis is back');
        assert.equal(log.match(UNREACHABLE)?.length, 1, log);
        assert.match(log, /pay-form: Redis is back; the store answers again\./);

        // A second outage is a second line, once.
        await kill(redis);
        await until('Redis gone again is noticed', async () => (await fetch(callbackRequest(`${shop.url}/api/pay-callback`, paid))).status === 503);
        await new Promise((resolve) => setTimeout(resolve, 2000));
        assert.equal((await shop.printedOnceSeen('x')).match(/pay-form: Redis is unreachable/g)?.length, 2);
      } finally {
        await kill(redis);
      }
    }, { REDIS_URL: `redis://127.0.0.1:${port}` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
