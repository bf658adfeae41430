// pay-form-settled in Chromium through `npm run start:cluster`: the page is served by backend B, the
// sandbox's callback reaches backend A (another process), and the element settles from B's status
// endpoint because A recorded the verified status in a real Redis (inline, modal, and a redirect's
// return page). A forged result reaches the page as
// pay-form-success at most, never as pay-form-settled.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestCluster } from '../support/servers/cluster.js';
import { servedPerFile } from './harness.js';

const { served: cluster, current } = servedPerFile(startTestCluster);

/** The events the page listed, name and detail, in order. */
async function events(): Promise<Array<{ name: string; detail: Record<string, unknown> }>> {
  const items = await current.page.locator('#events li').evaluateAll((lis) =>
    lis.map((li) => ({ name: li.firstChild?.textContent ?? '', detail: li.querySelector('code')?.textContent?.trim() ?? '' })),
  );
  return items.map(({ name, detail }) => ({ name, detail: detail.startsWith('{') ? (JSON.parse(detail) as Record<string, unknown>) : {} }));
}

async function open(display: 'inline' | 'modal'): Promise<string> {
  await current.page.goto(`${cluster().url}/`);
  await current.page.locator('#pay:enabled').waitFor();
  await current.page.locator(`input[name=display][value=${display}]`).check();
  await current.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await current.page.locator('#events li', { hasText: 'pay-form-ready' }).waitFor();
  return ((await current.page.locator('#events li', { hasText: 'order created' }).last().locator('code').textContent()) ?? '').trim();
}

const aCallbacks = async () => cluster().callbacksAtA();
/** Backend B's callback log as the page's shopper reads it. */
const bCallbacks = async () => (await (await current.page.request.get(`${cluster().url}/api/checkout/callbacks`)).json()) as unknown[];

for (const display of ['inline', 'modal'] as const) {
  test(`${display}: the callback reaches backend A, the page on backend B gets pay-form-settled and says so`, async () => {
    const orderRef = await open(display);
    await current.page.frameLocator('pay-form iframe').getByRole('button', { name: 'Pay', exact: true }).click();
    await current.page.locator('#confirmed', { hasText: 'Payment confirmed by the shop' }).waitFor();
    const settled = (await events()).filter((e) => e.name === 'pay-form-settled');
    assert.equal(settled.length, 1, 'pay-form-settled fires once');
    assert.equal(settled[0]?.detail['status'], 'success');
    assert.deepEqual(Object.keys(settled[0]?.detail ?? {}).sort(), ['invoice_id', 'status']);
    assert.deepEqual((await aCallbacks()).filter((c) => c.order_ref === orderRef).map((c) => c.status), ['success']);
    assert.deepEqual(await bCallbacks(), [], 'backend B never received a callback');
  });
}

test('redirect: back on the return page, it says "Payment confirmed by the shop" only from pay-form-settled', async () => {
  await current.page.goto(`${cluster().url}/`);
  await current.page.locator('#pay:enabled').waitFor();
  await current.page.locator('input[name=display][value=redirect]').check();
  await current.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await current.page.waitForURL((url) => url.href.startsWith(`${cluster().serviceOrigin}/api/jsapi/open/`));
  await current.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await current.page.waitForURL(`${cluster().url}/demo/return.html?status=success`);
  const orderRef = await current.page.evaluate(() => sessionStorage.getItem('pay-form-demo-order'));
  await current.page.locator('#confirmed', { hasText: 'Payment confirmed by the shop' }).waitFor();
  assert.deepEqual((await aCallbacks()).filter((c) => c.order_ref === orderRef).map((c) => c.status), ['success']);
  assert.deepEqual(await bCallbacks(), [], 'backend B never received a callback');
});

test('a forged result (the return page loaded into the frame without paying, a posted message) never gives pay-form-settled', async () => {
  const orderRef = await open('inline');
  await current.page.locator('pay-form').evaluate((element) => element.setAttribute('settle-timeout', '3000'));
  // The shop's own return page in the frame: a legitimate origin, but nobody paid.
  const frame = current.page.frames().find((f) => f.parentFrame() === current.page.mainFrame());
  assert.ok(frame, 'the payment frame');
  // The element takes the page's result and removes the frame, which may end the navigation early.
  await frame.goto(`${cluster().url}/demo/return.html?status=success`, { waitUntil: 'commit' }).catch(() => undefined);
  await current.page.locator('#events li', { hasText: 'pay-form-success' }).waitFor();
  await current.page.evaluate(() => window.postMessage({ type: 'pay-form:result', status: 'success' }, '*'));
  await current.page.locator('#events li', { hasText: 'pay-form-error' }).waitFor();
  const seen = await events();
  assert.equal(seen.filter((e) => e.name === 'pay-form-settled').length, 0);
  assert.equal(seen.find((e) => e.name === 'pay-form-error')?.detail['code'], 'settle-timeout');
  assert.equal(await current.page.locator('#confirmed').textContent(), '');
  assert.deepEqual((await aCallbacks()).filter((c) => c.order_ref === orderRef), [], 'no callback for a forged result');
});
