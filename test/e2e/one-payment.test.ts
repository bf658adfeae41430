// One order, one payment, across two backend processes on one real Redis, with the built sandbox as the
// service and Chromium as the shopper (test/support/callback-worker.ts): 20 token requests at once over
// both backends make one invoice with one key; two tabs on one order show the same form, and paying in
// one pays the order once: the other tab settles success with the same invoice, the service refuses
// the key a second time, onStatus hears one success, and a third tab gets order-paid.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eventsOf as seen, recordEvents, startTwoBackends, waitForEvents as waitFor, type TwoBackends } from './two-backends.js';

let shop: TwoBackends;

before(async () => {
  shop = await startTwoBackends('one-payment:');
});
after(async () => {
  await shop?.close();
});

/** The invoices the sandbox made for the order: one per obtain_token. */
const invoicesOf = (order: string) => shop.sandbox.invoices().filter((i) => i.request_id.startsWith(`${order}~`));

test('20 token requests at once for one order over both backends: one obtain_token, one key in all 20 answers', async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const response = await fetch(`${(i % 2 ? shop.a : shop.b).url}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order_ref":"ORDER-201"}' });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }));
  assert.deepEqual(answers.map((x) => x.status), Array(20).fill(200));
  assert.equal(new Set(answers.map((x) => x.body['key'])).size, 1, 'one key');
  assert.equal(new Set(answers.map((x) => x.body['attempt'])).size, 1, 'one attempt');
  assert.equal(invoicesOf('ORDER-201').length, 1, 'the sandbox made one invoice: one obtain_token');
});

async function tab(order: string): Promise<Page> {
  const page = await shop.browser.newPage();
  await recordEvents(page);
  await page.goto(`${shop.b.url}/checkout?order=${order}`);
  return page;
}

test('two tabs on one order: the same form; paying in one pays once, the other settles success with that invoice; a third tab: order-paid', async () => {
  const [one, two] = [await tab('ORDER-202'), await tab('ORDER-202')];
  try {
    await Promise.all([waitFor(one, 'pay-form-ready'), waitFor(two, 'pay-form-ready')]);
    const src = (page: Page) => page.locator('pay-form iframe').getAttribute('src');
    assert.equal(await src(two), await src(one), 'the same form in both tabs');
    await two.frameLocator('pay-form iframe').getByRole('button', { name: 'Pay', exact: true }).click();
    await Promise.all([waitFor(one, 'pay-form-settled'), waitFor(two, 'pay-form-settled')]);
    const invoices = invoicesOf('ORDER-202');
    assert.equal(invoices.length, 1, 'one invoice');
    assert.equal(invoices[0]!.status, 'success');
    for (const page of [one, two]) {
      assert.deepEqual((await seen(page, 'pay-form-settled')).map((e) => e.detail), [{ status: 'success', invoice_id: invoices[0]!.invoice_id }]);
    }
    // The first tab's form is the paid invoice's: the service refuses to take it again.
    await one.frameLocator('pay-form iframe').getByRole('button', { name: 'Pay', exact: true }).click({ timeout: 2000 }).catch(() => undefined);
    await shop.sandbox.callbacksIdle();
    assert.equal(invoicesOf('ORDER-202').filter((i) => i.status === 'success').length, 1, 'still one paid invoice');
    const calls = [...(await shop.a.calls()), ...(await shop.b.calls())].filter((c) => c.includes(invoices[0]!.invoice_id));
    assert.deepEqual(calls, [JSON.stringify([invoices[0]!.invoice_id, 'success'])], 'onStatus heard one success');
    const three = await tab('ORDER-202');
    try {
      await waitFor(three, 'pay-form-error');
      assert.deepEqual((await seen(three, 'pay-form-error')).map((e) => e.detail['code']), ['order-paid']);
    } finally {
      await three.close();
    }
  } finally {
    await Promise.all([one.close(), two.close()]);
  }
});
