// A retried order, across two backend processes on one real Redis, with the sandbox as the service and
// Chromium as the shopper: backend B serves the page, the token and the status endpoint; backend A takes
// the sandbox's callbacks, and its onStatus takes 2 s (a slow database write), so the decline's callback
// is recorded after the next attempt has begun. Decline, open the checkout again at once and pay: the
// page settles success with the new invoice, never the decline's fail. Opened once more, the paid order
// ends in order-paid and no token request reaches the service. (test/support/servers/callback-worker.ts)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { watchPage } from './harness.js';
import { eventsOf as events, recordEvents, startTwoBackends, waitForEvents as waitFor, type TwoBackends } from './two-backends.js';

let shop: TwoBackends;

before(async () => {
  shop = await startTwoBackends('attempts:', { SLOW_MS: '2000' });
});
after(async () => {
  await shop?.close();
});

const tokenRequests = () => shop.sandbox.requests().filter((r) => r.path === '/api/jsapi/obtain_token/').length;

test('decline, then pay at once while the decline is still being recorded (onStatus 2 s on another process): settled success with the new invoice; the paid order then gets order-paid', async () => {
  const { a, b, sandbox } = shop;
  const page = await shop.browser.newPage();
  const problems = watchPage(page);
  await recordEvents(page);
  try {
    await page.goto(`${b.url}/checkout?order=ORDER-104`);
    const form = page.frameLocator('pay-form iframe');
    const declined = a.nextCall();
    await form.getByRole('button', { name: 'Decline', exact: true }).click({ timeout: 30_000 });
    await declined; // the decline's callback reached A, whose onStatus now takes 2 s

    // The shopper tries again at once: a new token, a new attempt, paid.
    await page.locator('pay-form').evaluate((element) => (element as HTMLElement & { open(): void }).open());
    await waitFor(page, 'pay-form-ready', 2);
    await form.getByRole('button', { name: 'Pay', exact: true }).click();
    await waitFor(page, 'pay-form-settled', 1);
    // Both callbacks are recorded by now (the decline's first): a wrong answer would have come before.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const invoices = sandbox.invoices().filter((invoice) => invoice.request_id.startsWith('ORDER-104~'));
    const [failed, paid] = [invoices.find((i) => i.status === 'fail'), invoices.find((i) => i.status === 'success')];
    assert.ok(failed && paid && failed.request_id !== paid.request_id, 'two attempts, each its own request_id');
    assert.deepEqual((await events(page, 'pay-form-settled')).map((e) => e.detail), [{ status: 'success', invoice_id: paid.invoice_id }]);
    assert.equal(await page.locator('pay-form').getAttribute('state'), 'success');
    assert.deepEqual((await a.calls()).sort(), [JSON.stringify([failed.invoice_id, 'fail']), JSON.stringify([paid.invoice_id, 'success'])].sort(), 'onStatus once per callback');
    assert.deepEqual(await b.calls(), [], 'every callback went to A');

    // Opened once more: the store (on Redis, written by A) knows the order is paid.
    const before = tokenRequests();
    await page.locator('pay-form').evaluate((element) => (element as HTMLElement & { open(): void }).open());
    await waitFor(page, 'pay-form-error', 1);
    assert.deepEqual((await events(page, 'pay-form-error')).map((e) => e.detail['code']), ['order-paid']);
    assert.equal(tokenRequests(), before, 'no token request reached the service');
    assert.equal(await page.locator('pay-form iframe').count(), 0, 'nothing framed');
    // The one failed request the page made is the paid order's 409.
    assert.deepEqual(problems.filter((p) => !p.endsWith('/token')), []);
  } finally {
    await page.close();
  }
});
