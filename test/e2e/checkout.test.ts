// The whole chain through the demo, in Chromium: the shop page creates an order, <pay-form> gets a key
// from the shop's token handler (pay-form/server → sandbox), the person presses a button in the
// sandbox's form on another origin, the return page tells the element, and the sandbox's signed
// callback reaches the shop's callback handler. Each test checks what the person sees and the callback.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { backendCallbacks, demoPerFile, recordAnswers, verifiedCallback } from './harness.js';
import { poll, until } from '../support/poll.js';

const { demo, current } = demoPerFile();
let orders: Record<string, unknown>[];
let tokens: Record<string, unknown>[];

beforeEach(async () => {
  orders = await recordAnswers(current.page, '/api/checkout/orders');
  tokens = await recordAnswers(current.page, '/api/checkout/token');
});

interface Choices {
  product?: string;
  currency?: string;
  method?: string;
  language?: string;
  display?: 'inline' | 'modal' | 'redirect';
  redirectMode?: boolean;
}

/** Opens the shop, makes the choices, presses Pay; returns the order the backend created and the total shown. */
async function checkout(choices: Choices): Promise<{ orderRef: string; total: string }> {
  await current.page.goto(`${demo().url}/`);
  await current.page.locator('#pay:enabled').waitFor();
  for (const name of ['product', 'currency', 'method', 'language'] as const) {
    const value = choices[name];
    if (value) await current.page.locator(`select[name=${name}]`).selectOption(value);
  }
  await current.page.locator(`input[name=display][value=${choices.display ?? 'inline'}]`).check();
  await current.page.locator('input[name=redirect_mode]').setChecked(choices.redirectMode ?? false);
  const total = (await current.page.locator('#total').textContent()) ?? '';
  const before = orders.length;
  await current.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await until('the shop answered the order', async () => orders.length > before);
  const order = orders.at(-1)?.answer as { order_ref: string };
  return { orderRef: order.order_ref, total };
}

async function waitForText(selector: string, text: string): Promise<void> {
  await current.page.locator(selector).filter({ hasText: text }).first().waitFor();
}

const callbackFor = (orderRef: string, status: string) => verifiedCallback(demo(), current.page, orderRef, status);

const frame = () => current.page.frameLocator('pay-form iframe');

test('inline: Pay in the sandbox form ends in "Payment successful" and a verified success callback', async () => {
  const { orderRef, total } = await checkout({ product: 'grinder', currency: 'EUR', method: 'card', language: 'EN' });
  // The form on the service's origin shows the amount the backend priced, not one the page sent.
  await frame().getByRole('heading', { name: 'Payment' }).waitFor();
  assert.equal(await frame().locator('[data-testid=amount]').textContent(), total);
  assert.equal(total, '€81.88');
  assert.equal(await frame().locator('[data-testid=method]').textContent(), 'card');
  const formOrigin = new URL((await current.page.locator('pay-form iframe').getAttribute('src')) ?? '').origin;
  assert.notEqual(formOrigin, new URL(demo().url).origin, 'the form is framed from the service, another origin');
  await frame().getByRole('button', { name: 'Pay' }).click();

  // The return page's pay-form-success, or the verified pay-form-settled if it comes first.
  await waitForText('#result', 'Payment successful');
  const callback = await callbackFor(orderRef, 'success');
  assert.equal(callback?.amount, 8188);
  assert.equal(callback?.currency, 'EUR');
  await waitForText('#callbacks li', 'success: Hand grinder €81.88');
  // The backend's verified callback reaches the page through status-url.
  await waitForText('#confirmed', 'Payment confirmed by the shop');
  const events = await current.page.locator('#events li').allTextContents();
  const names = events.map((e) => e.split(' ')[0]).filter((n) => n?.startsWith('pay-form-'));
  // The shop closes the form (its framed return page, or the service's page) at the first outcome: the
  // return page's result, or the verified status, which status-url is asked for from the moment the
  // form is shown and may come first; then the element has removed the form itself (a paid order keeps
  // no payable form), so there is nothing to close, and the return page's late result is dropped.
  const endings = [
    ['pay-form-open', 'pay-form-ready', 'pay-form-success', 'pay-form-close', 'pay-form-settled'],
    ['pay-form-open', 'pay-form-ready', 'pay-form-settled'],
  ];
  assert.ok(endings.some((ending) => JSON.stringify(ending) === JSON.stringify(names)), names.join(', '));
});

test("inline: the terminal's timeline of a paid order has the page's steps, form shown and paid, beside the server's", async () => {
  // What `npm start` prints (demo/telemetry.ts, through Vite's logger); the page reports its steps as it shows them.
  const logger = demo().server.config.logger;
  const info = logger.info;
  const lines: string[] = [];
  logger.info = (message, options) => {
    lines.push(message);
    info.call(logger, message, options);
  };
  try {
    const { orderRef } = await checkout({ product: 'grinder', currency: 'EUR', method: 'card', language: 'EN' });
    await frame().getByRole('button', { name: 'Pay' }).click();
    await waitForText('#confirmed', 'Payment confirmed by the shop');
    const line = await poll(async () => lines.find((l) => l.includes(`order ${orderRef} attempt `)) ?? null, "the order's timeline printed");
    const steps = [...line.matchAll(/(?:: | → )([a-z ]+) \+/g)].map((m) => m[1]);
    assert.deepEqual(steps, ['token', 'service call', 'form shown', 'paid', 'callback', 'settled'], line);
  } finally {
    logger.info = info;
  }
});

test('inline: Decline ends in "Payment failed" and a verified fail callback', async () => {
  const { orderRef } = await checkout({ product: 'mug', currency: 'USD', language: 'EN' });
  await frame().getByRole('button', { name: 'Decline' }).click();
  await waitForText('#result', 'Payment failed');
  await callbackFor(orderRef, 'fail');
  await waitForText('#confirmed', 'The shop recorded the payment as declined');
  await waitForText('#callbacks li', 'fail: Enamel mug $12.50');
});

test('inline: the form speaks the chosen language', async () => {
  const { orderRef } = await checkout({ product: 'beans', currency: 'RUB', language: 'RU' });
  await frame().getByRole('button', { name: 'Оплатить' }).click();
  await waitForText('#result', 'Payment successful');
  await callbackFor(orderRef, 'success');
});

test('modal: paying in the dialog ends in success and a verified callback', async () => {
  const { orderRef } = await checkout({ product: 'beans', display: 'modal' });
  await current.page.getByRole('button', { name: 'Close' }).waitFor();
  await frame().getByRole('button', { name: 'Pay' }).click();
  await waitForText('#result', 'Payment successful');
  await callbackFor(orderRef, 'success');
});

test('modal: Close dismisses the form; nothing is paid and no callback comes', async () => {
  const { orderRef } = await checkout({ product: 'mug', display: 'modal' });
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  await current.page.getByRole('button', { name: 'Close' }).click();
  await waitForText('#result', 'Payment window closed');
  await waitForText('#events li', 'pay-form-close');
  assert.match(await current.page.locator('#events li').filter({ hasText: 'pay-form-close' }).innerText(), /"reason":"user"/);
  assert.equal(await current.page.locator('pay-form iframe').count(), 0, 'the form is gone');
  // Another order paid afterwards proves callbacks flow, and that the closed one never got one.
  const paid = await checkout({ product: 'beans' });
  await frame().getByRole('button', { name: 'Pay' }).click();
  await callbackFor(paid.orderRef, 'success');
  assert.deepEqual((await backendCallbacks(demo(), current.page)).filter((c) => c.order_ref === orderRef), []);
});

test('display redirect: the whole page goes to the form, Pay returns to the shop\'s success page', async () => {
  const { orderRef } = await checkout({ product: 'grinder', currency: 'USD', display: 'redirect' });
  await current.page.waitForURL((url) => url.href.startsWith(`${demo().baseUrl}/api/jsapi/open/`));
  await current.page.getByRole('button', { name: 'Pay' }).click();
  await current.page.waitForURL(`${demo().url}/demo/return.html?status=success`);
  await current.page.getByRole('heading', { name: 'Payment successful' }).waitFor();
  await callbackFor(orderRef, 'success');
  await current.page.getByRole('link', { name: 'Back to the shop' }).click();
  await waitForText('#callbacks li', 'success: Hand grinder $89.00');
});

test('the redirect_url site setting: the element follows redirect_url; Decline shows "Payment failed"', async () => {
  const { orderRef } = await checkout({ product: 'beans', redirectMode: true, display: 'inline' });
  await current.page.waitForURL((url) => !url.href.startsWith(demo().url));
  const token = tokens[0]?.answer as Record<string, unknown>;
  assert.deepEqual(Object.keys(token).sort(), ['attempt', 'redirect_url'], 'the service answered redirect_url (and the browser got only that and its attempt)');
  await current.page.waitForURL(String(token.redirect_url));
  await current.page.getByRole('button', { name: 'Decline' }).click();
  await current.page.waitForURL(`${demo().url}/demo/return.html?status=fail`);
  await current.page.getByRole('heading', { name: 'Payment failed' }).waitFor();
  await callbackFor(orderRef, 'fail');
});

test('the token answer carries the key, its attempt and the service\'s address only: no secret, no amount', async () => {
  const { orderRef } = await checkout({ product: 'mug' });
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  assert.deepEqual(tokens.map((t) => t.request), [{ order_ref: orderRef, language: 'en' }], "the page names the order and its language, nothing more");
  const answer = tokens[0]?.answer as Record<string, unknown>;
  assert.deepEqual(Object.keys(answer).sort(), ['attempt', 'base_url', 'key'], 'a key, the attempt it starts, and the service it is for');
  assert.equal(answer['base_url'], demo().baseUrl, "the service's public address, as the shop's PaymentClient has it");
  const order = orders[0]?.request as Record<string, unknown>;
  assert.equal('amount' in order, false, 'the order the page creates names no amount either');
});

// Keyboard and flow: focus lands on a sensible control after paying, cancelling or closing; an inline
// form can be cancelled; the framed return page is closed once the page shows the result; and an order
// already paid cannot be paid again.
const focused = () => current.page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName ?? null);
const frames = () => current.page.locator('pay-form iframe').count();

test('inline: after paying, the return page is closed, the result shown, and focus is on Pay', async () => {
  const { orderRef } = await checkout({ display: 'inline' });
  await frame().getByRole('button', { name: 'Pay' }).click();
  await waitForText('#result', 'Payment successful');
  await current.page.waitForFunction(() => document.querySelector('pay-form')?.shadowRoot?.querySelector('iframe') === null);
  assert.equal(await frames(), 0, 'the framed return page is gone');
  assert.equal(await current.page.locator('#result').textContent(), 'Payment successful', 'the result stays');
  assert.equal(await focused(), 'pay');
  await callbackFor(orderRef, 'success');
});

test('inline: Cancel payment closes the open form, says so, pays nothing, and focuses Pay', async () => {
  const { orderRef } = await checkout({ display: 'inline' });
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  const cancel = current.page.getByRole('button', { name: 'Cancel payment' });
  await cancel.focus();
  await current.page.keyboard.press('Enter');
  await waitForText('#result', 'Payment cancelled');
  assert.equal(await frames(), 0);
  assert.equal(await cancel.isHidden(), true);
  assert.equal(await focused(), 'pay');
  assert.deepEqual((await backendCallbacks(demo(), current.page)).filter((c) => c.order_ref === orderRef), []);
});

test('modal: Close hands focus to Pay, not to <body>', async () => {
  await checkout({ display: 'modal' });
  await frame().getByRole('button', { name: 'Pay' }).waitFor();
  assert.equal(await current.page.getByRole('button', { name: 'Cancel payment' }).isHidden(), true, 'the modal has its own Close');
  await current.page.getByRole('button', { name: 'Close' }).click();
  await waitForText('#result', 'Payment window closed');
  assert.equal(await focused(), 'pay');
});

test('modal: after paying, the dialog is closed, the result stays, and focus is on Pay', async () => {
  const { orderRef } = await checkout({ display: 'modal' });
  await frame().getByRole('button', { name: 'Pay' }).click();
  await waitForText('#result', 'Payment successful');
  await current.page.waitForFunction(() => !document.querySelector('pay-form')?.shadowRoot?.querySelector('dialog[open]'));
  assert.equal(await current.page.locator('#result').textContent(), 'Payment successful');
  assert.equal(await focused(), 'pay');
  await callbackFor(orderRef, 'success');
});

test('script-tag page: the fixed order, once paid, is refused a second token: one invoice, one callback', async () => {
  await current.page.goto(`${demo().url}/demo/script-tag.html`);
  await frame().getByRole('button', { name: 'Pay' }).click();
  await waitForText('#result', 'Payment successful');
  await callbackFor('demo-beans-usd', 'success');
  const refused = current.page.waitForResponse((r) => r.url().endsWith('/api/checkout/token'));
  await current.page.reload();
  assert.equal((await refused).status(), 409);
  await current.page.waitForFunction(() => (document.querySelector('pay-form') as (Element & { state?: string }) | null)?.state === 'error');
  assert.equal(await frames(), 0, 'no form for a paid order');
  assert.deepEqual((await backendCallbacks(demo(), current.page)).filter((c) => c.order_ref === 'demo-beans-usd').map((c) => c.status), ['success']);
  // The refusal itself is the one expected failed request.
  current.problems.splice(0, current.problems.length, ...current.problems.filter((p) => !/HTTP 409 .*\/api\/checkout\/token$/.test(p)));
});

test('inline: declined, then "Pay this order again": a new attempt, paid and confirmed; once more, "already paid" and no token request', async () => {
  const { orderRef } = await checkout({ display: 'inline' });
  await frame().getByRole('button', { name: 'Decline' }).click();
  await waitForText('#result', 'Payment failed');
  await callbackFor(orderRef, 'fail');
  await current.page.getByRole('button', { name: 'Pay this order again' }).click();
  await frame().getByRole('button', { name: 'Pay', exact: true }).click();
  await waitForText('#result', 'Payment successful');
  await waitForText('#confirmed', 'Payment confirmed by the shop');
  // Each attempt settles once: the decline's fail, then the payment's success.
  const settled = await current.page.locator('#events li', { hasText: 'pay-form-settled' }).allInnerTexts();
  assert.deepEqual(settled.map((text) => /"status":"(\w+)"/.exec(text)?.[1]), ['fail', 'success']);
  const requestsBefore = tokens.length;
  await current.page.getByRole('button', { name: 'Pay this order again' }).click();
  // The element says it, in place of the form, in the shopper's words (role="alert").
  await current.page.locator('pay-form').getByRole('alert').filter({ hasText: 'This order is already paid.' }).waitFor();
  assert.equal(tokens.length, requestsBefore + 1, 'the shop was asked once more');
  assert.deepEqual(tokens.at(-1)?.answer, { success: false, message: 'Order already paid', paid: true });
  assert.equal(await frames(), 0, 'no form for a paid order');
  assert.equal(await current.page.getByRole('button', { name: 'Pay this order again' }).isHidden(), true);
  // The refusal is the one expected failed request.
  current.problems.splice(0, current.problems.length, ...current.problems.filter((p) => !/HTTP 409 .*\/api\/checkout\/token$/.test(p)));
});
