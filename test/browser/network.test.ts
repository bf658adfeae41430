// A checkout that survives the network (docs/element.md, Offline): the network is cut and restored in the
// middle of paying, for real where the engine lets a test do it (Chromium: the DevTools protocol's network
// conditions through Playwright; Firefox: WebDriver BiDi's emulation.setNetworkConditions through
// puppeteer-core), and in every engine by the page's own endpoints dropping their connections meanwhile
// (test/browser/service-origin.mjs, network-cut). WebKitWebDriver offers no network conditions, so there
// the page also dispatches `offline` and `online` itself, as the browser would: the one simulated part.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { DEFAULT_TEXTS, type PayForm } from '../../src/element/index.js';
import { countAsks, errorCode, mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

type How = 'devtools' | 'bidi' | 'server';
interface StatusRequest {
  answer: number | 'dropped' | null;
}

let orders = 0;
const order = () => `net-${Date.now()}-${++orders}`;
const statusRequests = (orderRef: string) => executeServerCommand<StatusRequest[], { orderRef: string }>('status-requests', { orderRef });
const statusText = (el: PayForm) => el.shadowRoot?.querySelector('[role="status"]')?.textContent;

/**
 * Cuts the network for `ms` (the test server restores it: a page cut off cannot ask it to), with `set`
 * recorded as the merchant's verified status meanwhile; `back()` resolves once the page is online again.
 */
async function cut(ms: number, set?: { orderRef: string; status: string; invoice_id: string }): Promise<{ how: How; back: () => Promise<void> }> {
  const how = await executeServerCommand<How, undefined>('network-how');
  // Answered only once the network is back where the page is really cut off.
  const done = executeServerCommand('network-cut', { restoreAfter: ms, set });
  if (how === 'server') {
    await done;
    dispatchEvent(new Event('offline'));
  } else await waitUntil(() => !navigator.onLine, 'offline', { timeout: 8000 });
  const back = async () => {
    if (how === 'server') {
      await settle(ms);
      await executeServerCommand('network-restore');
      dispatchEvent(new Event('online'));
    } else await done;
    await waitUntil(() => navigator.onLine, 'the network back', { timeout: 8000 });
  };
  return { how, back };
}

describe('<pay-form> when the network goes away', () => {
  afterEach(async () => {
    await executeServerCommand('network-restore');
  });

  it('in the middle of a status wait: says so while offline, asks nothing, its time limit does not run out, and settles at once when the network is back', async () => {
    const ref = order();
    const { service } = await origins();
    // A result starts settle-timeout: 1 s, well inside the 3 s outage.
    const { el, events } = await mount({ 'base-url': service, key: 'success-net1', 'status-url': '/__status', 'order-ref': ref, 'settle-timeout': '1000' });
    await waitForEvent(events, 'pay-form-success');
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked');
    // The callback arrives while the shopper is offline.
    const network = await cut(3000, { orderRef: ref, status: 'success', invoice_id: 'inv-net1' });
    const asks = countAsks(ref);
    // Counted until the network is back: the ask the return wakes at once is checked below. A capture
    // listener on window runs before the element's own (listeners at the target: capture first).
    let offlineAsks: number | undefined;
    const stopCounting = () => (offlineAsks ??= asks.stop());
    addEventListener('online', stopCounting, { capture: true, once: true });
    await waitUntil(() => statusText(el) === DEFAULT_TEXTS.offline, 'the offline text in the status');
    await network.back();
    stopCounting();
    // At most the one ask whose pause began before the page heard it was offline.
    expect(offlineAsks).to.be.at.most(1);
    // At once: within a second and a half of the network's return, where the back-off after an outage's
    // failures would wait several seconds.
    await settle(1500);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-success', 'pay-form-settled']);
    expect(errorCode(events)).to.equal(undefined, 'no settle-timeout while offline');
    expect(statusText(el)).to.equal(DEFAULT_TEXTS.success);
    expect((await statusRequests(ref)).at(-1)?.answer).to.equal(200);
  });

  it('a return page opened offline waits for the network, saying so, and asks as soon as it is back', async () => {
    const ref = order();
    const network = await cut(2000, { orderRef: ref, status: 'fail', invoice_id: 'inv-net2' });
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'await-settled': '' });
    // Where the cut is only the endpoints', navigator.onLine still says online: the page says what a browser would.
    if (network.how === 'server') dispatchEvent(new Event('offline'));
    await waitUntil(() => statusText(el) === DEFAULT_TEXTS.offline, 'the offline text in the status');
    await network.back();
    await settle(1500);
    expect(typesOf(events)).to.deep.equal(['pay-form-settled']);
    expect(el.state).to.equal('fail');
    expect(statusText(el)).to.equal(DEFAULT_TEXTS.fail);
  });

  it('a token request that failed offline is never reused: open() asks again once the network is back', async () => {
    const { service } = await origins();
    const body = JSON.stringify({ key: 'plain-net3' });
    await executeServerCommand('token-requests-clear');
    const network = await cut(1500);
    const { el, events } = await mount({ 'base-url': service, 'token-url': `/__token/raw?body=${encodeURIComponent(body)}` });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('token-request-failed');
    await network.back();
    el.open();
    await waitForEvent(events, 'pay-form-ready');
    expect(el.state).to.equal('open');
    const answered = (await executeServerCommand<{ dropped?: boolean }[], undefined>('token-requests')).filter((r) => !r.dropped);
    expect(answered).to.have.length(1);
  });
});
