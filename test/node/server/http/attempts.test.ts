// One order, one payment (docs/service-contract.md, Attempts), through createTokenHandler,
// createCallbackHandler and createStatusHandler on two backends in front of the real sandbox, on a
// MemoryCallbackStore and on two RedisCallbackStores of one real redis-server: the service asked once
// for 20 concurrent token requests, two tabs paying once, an old amount's key paid as an extra payment
// reported once, a payout's callback on an order's reference paying nothing, an expired attempt
// replaced, and a payment on an expired key reported as extra.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCallbackStore, RedisCallbackStore, sign, type CallbackStore } from '../../../../src/server/index.js';
import { redisPerFile } from '../../../support/redis/redis.js';
import { pay, startShop, type Shop } from '../../../support/servers/attempt-shop.js';
import { SECRET } from '../../../support/constants.js';
import { setTimeout as sleep } from 'node:timers/promises';

const OBTAIN = '/api/jsapi/obtain_token/';

/** The obtain_token requests the sandbox answered. */
const obtained = (shop: Shop) => shop.sandbox.requests().filter((r) => r.path === OBTAIN).length;

const redis = redisPerFile();

let prefixes = 0;
const kinds: Array<[string, () => Promise<[CallbackStore, CallbackStore]>]> = [
  ['one MemoryCallbackStore', async () => {
    const store = new MemoryCallbackStore();
    return [store, store];
  }],
  ['two RedisCallbackStores on one redis-server', async () => {
    const prefix = `shop${++prefixes}:`;
    const server = async () => {
      const client = await redis.client();
      return new RedisCallbackStore(client, { prefix });
    };
    return [await server(), await server()];
  }],
];

for (const [kind, stores] of kinds) {
  describe(`one order, one payment: ${kind}`, () => {
    const shops: Shop[] = [];
    after(() => Promise.all(shops.map((s) => s.close())));
    const shop = async (options: Parameters<typeof startShop>[1] = {}) => {
      const made = await startShop(await stores(), options);
      shops.push(made);
      return made;
    };

    test('20 concurrent token requests over both backends: the sandbox sees one obtain_token, all 20 answers carry one key', async () => {
      const s = await shop();
      s.cart.set('o-20', 2000);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => s.token('o-20', i)));
      assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
      assert.equal(new Set(answers.map((a) => a.body['key'])).size, 1, 'one key');
      assert.equal(new Set(answers.map((a) => a.body['attempt'])).size, 1, 'one attempt');
      assert.equal(obtained(s), 1, 'one obtain_token');
      assert.equal(s.sandbox.invoices().length, 1);
    });

    test('two tabs on one order: the same form; paying in one pays the order once, the other tab cannot pay again', async () => {
      const s = await shop();
      s.cart.set('o-tabs', 1500);
      const [one, two] = [await s.token('o-tabs', 0), await s.token('o-tabs', 1)];
      assert.deepEqual(two.body, one.body, 'the second tab gets the same key and attempt');
      assert.equal(await pay(s.sandbox, one.body['key']), 200);
      assert.equal(await pay(s.sandbox, two.body['key']), 410, 'the invoice cannot be paid twice');
      await s.sandbox.callbacksIdle();
      assert.deepEqual(s.calls.map((c) => [c.payload.status, c.order.verdict]), [['success', 'payment']], 'onStatus success once');
      assert.equal(s.sandbox.invoices().filter((i) => i.status === 'success').length, 1, 'one paid invoice');
      const settled = await s.status('o-tabs', String(two.body['attempt']));
      assert.equal(settled.status, 200);
      assert.equal((settled.body as { status: string }).status, 'success');
      assert.equal((await s.token('o-tabs', 1)).status, 409, 'a third tab: order-paid');
    });

    test('two tabs waiting on the status endpoint of both backends: paying in one answers both with the one payment, told to onStatus once', async () => {
      const s = await shop({ statusWaitMs: 10_000 });
      s.cart.set('o-waiting', 1500);
      const [one, two] = [await s.token('o-waiting', 0), await s.token('o-waiting', 1)];
      assert.deepEqual(two.body, one.body, 'the second tab gets the same key and attempt');
      const attempt = String(one.body['attempt']);
      const waiting = [s.status('o-waiting', attempt, 0), s.status('o-waiting', attempt, 1)];
      await sleep(100);
      assert.equal(await pay(s.sandbox, one.body['key']), 200);
      assert.equal(await pay(s.sandbox, two.body['key']), 410, 'the invoice cannot be paid twice');
      for (const answer of await Promise.all(waiting)) {
        assert.equal(answer.status, 200, 'each waiting tab is answered, not left to its 204');
        assert.equal((answer.body as { status: string }).status, 'success');
      }
      await s.sandbox.callbacksIdle();
      assert.deepEqual(s.calls.map((c) => [c.payload.status, c.order.verdict]), [['success', 'payment']], 'onStatus success once');
    });

    test('a key at 100, then a token at 99,900: paying the old key is an extra payment reported once; the order stays unpaid and the new attempt pending', async () => {
      const s = await shop();
      s.cart.set('o-cart', 100);
      const old = await s.token('o-cart', 0);
      s.cart.set('o-cart', 99_900);
      const now = await s.token('o-cart', 1);
      assert.notEqual(now.body['key'], old.body['key']);
      assert.notEqual(now.body['attempt'], old.body['attempt']);
      assert.equal(await pay(s.sandbox, old.body['key']), 200, 'the service still takes the old key');
      await s.sandbox.callbacksIdle();
      assert.equal(s.calls.length, 1);
      const [call] = s.calls;
      assert.equal(call!.order.verdict, 'extra');
      assert.deepEqual(call!.order.extra, {
        reason: 'superseded', orderRef: 'o-cart', attempt: old.body['attempt'], invoice_id: call!.payload.invoice_id, amount: 100, currency: 'USD', paidBy: undefined,
      });
      // The service delivers it again, to both servers at once: still reported once.
      const again = JSON.stringify(s.sandbox.callbacks().at(-1)!.body);
      const redelivered = await Promise.all(s.backends.map((url) => fetch(`${url}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: again })));
      assert.deepEqual(redelivered.map((r) => r.status), [200, 200]);
      assert.equal(s.calls.length, 1, 'the extra payment reached onStatus once');
      assert.deepEqual(await s.status('o-cart', String(old.body['attempt'])), { status: 200, body: { status: 'success', invoice_id: call!.payload.invoice_id, extra: true } });
      assert.equal((await s.status('o-cart', String(now.body['attempt']))).status, 204, 'the new attempt is pending');
      assert.equal((await s.status('o-cart')).status, 204, 'the order is unpaid');
      assert.deepEqual((await s.token('o-cart', 0)).body, now.body, 'the new attempt is still the one handed out');
      // The new key pays the order, at its own amount.
      assert.equal(await pay(s.sandbox, now.body['key']), 200);
      await s.sandbox.callbacksIdle();
      assert.deepEqual(s.calls.map((c) => c.order.verdict), ['extra', 'payment']);
    });

    test('two invoices paid on one attempt, their callbacks at both backends at once: one pays the order, the other is an extra payment naming the payer, each told once', async () => {
      const s = await shop();
      s.cart.set('o-twice', 1500);
      const live = await s.token('o-twice', 0);
      const deliveries = ['inv-twice-a', 'inv-twice-b'].map(async (invoice_id, i) => {
        const payload = { invoice_id, request_id: `o-twice~${String(live.body['attempt'])}`, status: 'success', amount: 1500, currency: 'USD' };
        const body = JSON.stringify({ ...payload, signature: await sign(payload, SECRET) });
        // Each delivered to both backends at once, as a service that retries does.
        return Promise.all([i, 1 - i].map((b) => fetch(`${s.backends[b]}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })));
      });
      for (const answers of await Promise.all(deliveries)) {
        for (const answer of answers) assert.ok(answer.status === 200 || answer.status === 503, `status ${answer.status}`);
      }
      // A delivery that found the other backend's claim in flight answered 503: the service delivers again.
      for (const invoice_id of ['inv-twice-a', 'inv-twice-b']) {
        const payload = { invoice_id, request_id: `o-twice~${String(live.body['attempt'])}`, status: 'success', amount: 1500, currency: 'USD' };
        const again = await fetch(`${s.backends[0]}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }) });
        assert.equal(again.status, 200);
      }
      const verdicts = s.calls.map((c) => c.order.verdict).sort();
      assert.deepEqual(verdicts, ['extra', 'payment'], 'each invoice reached onStatus once');
      const payer = s.calls.find((c) => c.order.verdict === 'payment')!.payload.invoice_id;
      const extra = s.calls.find((c) => c.order.verdict === 'extra')!;
      assert.deepEqual(extra.order.extra, {
        reason: 'order-paid', orderRef: 'o-twice', attempt: live.body['attempt'], invoice_id: extra.payload.invoice_id, amount: 1500, currency: 'USD', paidBy: payer,
      });
      assert.deepEqual(await s.status('o-twice'), { status: 200, body: { status: 'success', invoice_id: payer } });
    });

    test("a signed payout callback on an order's reference (bare, or with a made-up attempt): onStatus hears it as foreign, the order stays unpaid", async () => {
      const s = await shop();
      s.cart.set('o-payout', 5000);
      const live = await s.token('o-payout', 0);
      for (const request_id of ['o-payout', 'o-payout~abcdefghijkl']) {
        const payload = { invoice_id: `payout-${request_id}`, request_id, status: 'success', amount: 5000, currency: 'USD' };
        const response = await fetch(`${s.backends[1]}/callback`, {
          method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...payload, signature: await sign(payload, SECRET) }),
        });
        assert.equal(response.status, 200);
      }
      assert.deepEqual(s.calls.map((c) => c.order.verdict), ['foreign', 'foreign']);
      assert.equal((await s.status('o-payout')).status, 204, 'not paid');
      assert.deepEqual((await s.token('o-payout', 1)).body, live.body, 'still payable: the same attempt');
    });

    test('an attempt past keyLifetimeMs: the next token request starts a new attempt; a payment on the expired key is extra, the new one pays', async () => {
      // The shop's key lifetime is shorter than the sandbox's, so the old key still pays: a forced extra payment.
      const s = await shop({ keyLifetimeMs: 300, keyTtlMs: 60_000 });
      s.cart.set('o-expired', 700);
      const old = await s.token('o-expired', 0);
      assert.deepEqual((await s.token('o-expired', 1)).body, old.body, 'within its lifetime: the same key');
      await sleep(400);
      const next = await s.token('o-expired', 1);
      assert.notEqual(next.body['attempt'], old.body['attempt']);
      assert.equal(obtained(s), 2);
      assert.equal(await pay(s.sandbox, old.body['key']), 200);
      assert.equal(await pay(s.sandbox, next.body['key']), 200);
      await s.sandbox.callbacksIdle();
      const verdicts = s.calls.map((c) => [c.payload.invoice_id, c.order.verdict, c.order.extra?.reason]);
      assert.deepEqual(verdicts.map(([, v, r]) => [v, r]), [['extra', 'superseded'], ['payment', undefined]]);
    });
  });
}
