// pay-form-settled: from the moment the form is shown (and, with await-settled, on a redirect flow's
// return page) the element asks the page's own status endpoint (the test server's /__status, a long
// poll that follows docs/element.md's protocol) about its attempt, and fires the verified status once,
// with or without a return page's result.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { countAsks, errorCode, mount, origins, settle, typesOf, waitForEvent, type Recorded } from './helpers.js';
import { DEFAULT_TEXTS, type PayFormSettledDetail } from '../../src/element/index.js';
import type { StatusAnswer } from '../../src/service/checkout.js';

interface StatusRequest {
  orderRef: string | null;
  attempt: string | null;
  at: number;
  ended: number | null;
  method: string;
  accept: string | null;
  cookie: string | null;
  answer: number | null;
}

let orders = 0;
const order = (prefix = 'order') => `${prefix}-${Date.now()}-${++orders}`;
const setStatus = (orderRef: string, status: string, invoice_id: string) =>
  executeServerCommand('status-set', { orderRef, status, invoice_id });
const statusRequests = (orderRef: string) => executeServerCommand<StatusRequest[], { orderRef: string }>('status-requests', { orderRef });
const count = (events: Recorded[], type: string) => typesOf(events).filter((t) => t === type).length;

/** A framed checkout of `key` (its behaviour chosen by the stand-in service) for order `ref`. */
async function checkout(key: string, ref: string, attrs: Record<string, string> = {}) {
  const { service } = await origins();
  return mount({ 'base-url': service, key, 'status-url': '/__status', 'order-ref': ref, ...attrs });
}

describe('<pay-form status-url> from the moment the form is shown', () => {
  it('asks while the form is open, one request at a time, and settles without any return page: state success, the payable form removed', async () => {
    const ref = order();
    document.cookie = 'merchant_session=settle1; path=/';
    const { el, events } = await checkout('plain-s0', ref);
    await waitForEvent(events, 'pay-form-ready');
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked while the form is open');
    await setStatus(ref, 'success', 'inv-s0');
    const settled = await waitForEvent(events, 'pay-form-settled');
    document.cookie = 'merchant_session=; max-age=0; path=/';
    expect(settled.detail).to.deep.equal({ status: 'success', invoice_id: 'inv-s0' });
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-settled']);
    expect(el.state).to.equal('success');
    const asked = await statusRequests(ref);
    expect(asked.every((r) => r.method === 'GET' && r.accept === 'application/json' && r.attempt === null)).to.equal(true);
    expect(asked[0]?.cookie).to.include('merchant_session=settle1');
    // Paid, and this form never reached its return page: it could still be paid again, so it goes.
    expect(el.shadowRoot?.querySelector('iframe')).to.equal(null);
    expect(el.shadowRoot?.querySelector('[role="status"]')?.textContent).to.equal(DEFAULT_TEXTS.success);
    await settle(300);
    expect(count(events, 'pay-form-settled')).to.equal(1);
  });

  for (const display of ['inline', 'modal']) {
    it(`an order paid in another tab (the same attempt) while this ${display} form is open: the form with its Pay button goes, settled as paid`, async () => {
      const ref = order('tabs');
      const { el, events } = await checkout('pay-tab', ref, { display });
      await waitForEvent(events, 'pay-form-ready');
      // The other tab paid: the callback reached the merchant, which now answers this attempt's status.
      await setStatus(ref, 'success', 'inv-tab2');
      await waitForEvent(events, 'pay-form-settled');
      expect(el.state).to.equal('success');
      expect(el.shadowRoot?.querySelector('iframe, dialog')).to.equal(null, 'no form, so no Pay button for a paid order');
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-settled']);
    });
  }

  it('a form that reached its own success page keeps it when the verified success comes', async () => {
    const ref = order();
    const { el, events } = await checkout('success-keep', ref);
    await waitForEvent(events, 'pay-form-success');
    await setStatus(ref, 'success', 'inv-keep');
    await waitForEvent(events, 'pay-form-settled');
    expect(el.shadowRoot?.querySelector('iframe')).to.not.equal(null);
    el.close();
    expect(events.at(-1)?.detail).to.deep.equal({ reason: 'api', result: 'success' });
  });

  it('the browser\'s success or fail never comes after pay-form-settled for the same attempt: a result after settling is dropped', async () => {
    // The status is there before the form loads, so the verified answer wins the race with the return page.
    const runs = ['success', 'fail'].map(async (status, i) => {
      const ref = order('order');
      await setStatus(ref, status, `inv-order${i}`);
      const { el, events } = await checkout(`${status}-order${i}`, ref);
      await waitForEvent(events, 'pay-form-settled');
      // Long enough for the frame's return page to post its result, which the element must not pass on.
      await settle(1500);
      return { el, types: typesOf(events) };
    });
    for (const { el, types } of await Promise.all(runs)) {
      const settledAt = types.indexOf('pay-form-settled');
      expect(types.slice(settledAt + 1).filter((t) => t === 'pay-form-success' || t === 'pay-form-fail')).to.deep.equal([]);
      expect(types.filter((t) => t === 'pay-form-settled').length).to.equal(1);
      el.remove();
    }
  });

  it('asks about the attempt the token answer started', async () => {
    const ref = order();
    const body = JSON.stringify({ key: 'plain-att', attempt: 'k3j9x0q2mzab' });
    const { service } = await origins();
    const { events } = await mount({
      'base-url': service,
      'token-url': `/__token/raw?body=${encodeURIComponent(body)}`,
      'status-url': '/__status',
      'order-ref': ref,
    });
    await waitForEvent(events, 'pay-form-ready');
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked');
    expect((await statusRequests(ref)).map((r) => r.attempt)).to.deep.equal(['k3j9x0q2mzab']);
  });

  it('after a result, fires pay-form-settled once with the verified status; a result after settling asks nothing more', async () => {
    const ref = order();
    const { el, events } = await checkout('success-s1', ref);
    await waitForEvent(events, 'pay-form-success');
    await setStatus(ref, 'success', 'inv-s1');
    const settled = await waitForEvent(events, 'pay-form-settled');
    expect(settled.detail).to.deep.equal({ status: 'success', invoice_id: 'inv-s1' });
    await settle(400);
    expect(count(events, 'pay-form-settled')).to.equal(1);
    expect(el.state).to.equal('success');
  });

  it('closing the form before a result stops the asking', async () => {
    const ref = order();
    const { el, events } = await checkout('plain-s9', ref);
    await waitForEvent(events, 'pay-form-ready');
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked');
    el.close();
    await settle(300);
    const asked = (await statusRequests(ref)).length;
    await setStatus(ref, 'success', 'inv-s9');
    await settle(600);
    expect((await statusRequests(ref)).length).to.equal(asked);
    expect(count(events, 'pay-form-settled')).to.equal(0);
    expect(el.state).to.equal('closed');
  });

  it('backs off after each failure: an endpoint that keeps answering 503 is asked less and less often', async () => {
    const ref = order('down');
    const { el, events } = await checkout('plain-s10', ref);
    await waitForEvent(events, 'pay-form-ready');
    // Waits of 1 s, then 2 s, then 4 s: within 3.5 s at most three asks (a fixed 1 s would make four).
    await settle(3500);
    const asked = await statusRequests(ref);
    expect(asked.length).to.be.within(1, 3);
    expect(asked.every((r) => r.answer === 503)).to.equal(true);
    expect(count(events, 'pay-form-error')).to.equal(0, 'no error while the form is open');
    el.remove();
  });

  it('asks again after each 204 until the status is there', async () => {
    const ref = order();
    const { events } = await checkout('fail-s2', ref);
    await waitForEvent(events, 'pay-form-fail');
    await waitUntil(async () => (await statusRequests(ref)).filter((r) => r.answer === 204).length >= 2, 'two 204 answers', {
      timeout: 8000,
    });
    expect(count(events, 'pay-form-settled')).to.equal(0);
    await setStatus(ref, 'fail', 'inv-s2');
    const settled = await waitForEvent(events, 'pay-form-settled');
    expect(settled.detail).to.deep.equal({ status: 'fail', invoice_id: 'inv-s2' });
    // One request at a time: every answered ask had its answer before the next began (the one the
    // element gave up when the result came is aborted first, though the server may hear of it later).
    const asked = await statusRequests(ref);
    expect(asked.slice(1).every((r, i) => asked[i]!.answer === null || asked[i]!.ended! <= r.at)).to.equal(true);
    expect(asked.filter((r) => r.answer === null).length).to.be.at.most(1);
  });

  it('retries after a 503', async () => {
    const ref = order('flaky');
    await setStatus(ref, 'success', 'inv-s3');
    const { events } = await checkout('success-s3', ref);
    const settled = await waitForEvent(events, 'pay-form-settled');
    expect(settled.detail).to.deep.equal({ status: 'success', invoice_id: 'inv-s3' });
    expect((await statusRequests(ref)).map((r) => r.answer)).to.deep.equal([503, 200]);
  });

  it('a forged result message (wrong source or wrong origin) neither settles nor gives a result', async () => {
    const ref = order();
    // Wrong origin: the framed page on the service's origin posts a result itself.
    const spoofed = await checkout('spoof-s4', ref, { 'settle-timeout': '300' });
    // Wrong source: the page (not the element's iframe) posts a well-formed result.
    const framed = await checkout('plain-s4', ref, { 'settle-timeout': '300' });
    await waitForEvent(spoofed.events, 'pay-form-ready');
    await waitForEvent(framed.events, 'pay-form-ready');
    window.postMessage({ type: 'pay-form:result', status: 'success' }, '*');
    await settle(800);
    for (const { el, events } of [spoofed, framed]) {
      // Still asking, with no time limit: no result came to start one.
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
      expect(el.state).to.equal('open');
      el.remove();
    }
  });

  it('a 404 while the form is open asks no more and says nothing; after the result: pay-form-error settle-timeout, the result stays the state', async () => {
    const ref = order('unknown');
    const { el, events } = await checkout('success-s5', ref);
    const error = await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('settle-timeout');
    expect((error.detail as { message: string }).message).to.include('404');
    await settle(400);
    expect((await statusRequests(ref)).length).to.be.within(1, 2);
    expect(count(events, 'pay-form-error')).to.equal(1);
    expect(count(events, 'pay-form-settled')).to.equal(0);
    expect(el.state).to.equal('success');
  });

  it('fires pay-form-error settle-timeout when no verified status comes within settle-timeout', async () => {
    const ref = order();
    const { events } = await checkout('success-s6', ref, { 'settle-timeout': '500' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('settle-timeout');
    const asked = (await statusRequests(ref)).length;
    await setStatus(ref, 'success', 'inv-late');
    await settle(500);
    expect(count(events, 'pay-form-settled')).to.equal(0);
    expect((await statusRequests(ref)).length).to.equal(asked);
  });

  it('an HTML answer is an error (invalid-status-url), never taken for a status nor put in the page', async () => {
    const ref = order('html');
    const { el, events } = await checkout('success-s7', ref, { 'settle-timeout': '5000' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('invalid-status-url');
    expect(count(events, 'pay-form-settled')).to.equal(0);
    expect((window as { statusHtmlRan?: boolean }).statusHtmlRan).to.equal(undefined);
    expect(el.shadowRoot?.querySelector('img')).to.equal(null);
    expect(el.state).to.equal('success');
  });

  it('a well-formed status served as text/html does not settle: invalid-status-url', async () => {
    const ref = order('htmljson');
    const { events } = await checkout('success-s9', ref, { 'settle-timeout': '5000' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('invalid-status-url');
    expect(count(events, 'pay-form-settled')).to.equal(0);
    // Asked once while the form was open (that asking then stopped, saying nothing) and once after the result.
    const answers = (await statusRequests(ref)).map((r) => r.answer);
    expect(answers.length).to.be.within(1, 2);
    expect(answers.every((answer) => answer === 200)).to.equal(true);
  });

  it('a same-origin status-url that redirects to another origin (open CORS, a forged success) never settles', async () => {
    const ref = order('redirected');
    const { events } = await checkout('success-s10', ref, { 'status-url': '/__status-redirect', 'settle-timeout': '5000' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('invalid-status-url');
    expect(count(events, 'pay-form-settled')).to.equal(0);
    // Not followed: the other origin never heard of the order.
    expect(await executeServerCommand<string[], undefined>('forged-requests')).to.not.include(ref);
  });

  it('a same-origin redirect is not followed either', async () => {
    const ref = order();
    await setStatus(ref, 'success', 'inv-s11');
    const { events } = await checkout('success-s11', ref, { 'status-url': '/__status-redirect-same', 'settle-timeout': '5000' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('invalid-status-url');
    expect(count(events, 'pay-form-settled')).to.equal(0);
    expect(await statusRequests(ref)).to.deep.equal([]);
  });

  it('refuses a status-url on another origin with invalid-status-url, asking nothing', async () => {
    const { service } = await origins();
    const ref = order();
    const { events } = await checkout('success-s8', ref, { 'status-url': `${service}/__status` });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('invalid-status-url');
    expect(count(events, 'pay-form-settled')).to.equal(0);
  });
});

describe('<pay-form status-url> on the return page of a redirect flow', () => {
  it('with await-settled, asks at once and fires pay-form-settled', async () => {
    const ref = order();
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'await-settled': '' });
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked');
    await setStatus(ref, 'fail', 'inv-r1');
    const settled = await waitForEvent(events, 'pay-form-settled');
    expect(settled.detail).to.deep.equal({ status: 'fail', invoice_id: 'inv-r1' });
    expect(typesOf(events)).to.deep.equal(['pay-form-settled']);
    expect(el.state).to.equal('fail', 'the verified outcome is the state');
  });

  it('settle() does the same from script', async () => {
    const ref = order();
    await setStatus(ref, 'success', 'inv-r2');
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref });
    el.settle();
    el.settle();
    const settled = await waitForEvent(events, 'pay-form-settled');
    expect(settled.detail).to.deep.equal({ status: 'success', invoice_id: 'inv-r2' });
    el.settle();
    await settle(300);
    expect(count(events, 'pay-form-settled')).to.equal(1);
    expect((await statusRequests(ref)).length).to.equal(1);
  });

  it('without await-settled or settle(), an element waiting for a key never asks and never times out', async () => {
    const ref = order();
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'settle-timeout': '200' });
    await settle(600);
    expect(await statusRequests(ref)).to.deep.equal([]);
    expect(events).to.deep.equal([]);
    expect(el.state).to.equal('idle');
  });

  it('removing the element stops the asking', async () => {
    const ref = order();
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'await-settled': '', 'settle-timeout': '400' });
    await waitUntil(async () => (await statusRequests(ref)).length > 0, 'status-url asked');
    el.remove();
    await settle(800);
    const asked = (await statusRequests(ref)).length;
    await settle(400);
    expect((await statusRequests(ref)).length).to.equal(asked);
    expect(events).to.deep.equal([]);
  });
});

// Types: the events bubble, so document and window listeners are typed too.
document.addEventListener('pay-form-settled', (event) => void event.detail.invoice_id.length);
// The detail is the protocol's StatusAnswer (src/service/checkout.ts), so a field added there is typed here.
document.addEventListener('pay-form-settled', (event) => void (event.detail satisfies StatusAnswer));
const answer: StatusAnswer = { status: 'success', invoice_id: 'inv' };
void (answer satisfies PayFormSettledDetail);
window.addEventListener('pay-form-error', (event) => void event.detail.code.length);

/** Five pages whose status-url keeps failing, each its own way, watched for 10 s. */
async function askedInTenSeconds() {
  const modes = [
    { ref: order('unknown'), statusUrl: '/__status' },
    { ref: order('redirect'), statusUrl: '/__status-redirect-same' },
    { ref: order('html'), statusUrl: '/__status' },
    { ref: order('broken'), statusUrl: '/__status' },
    { ref: order('drop'), statusUrl: '/__status' },
  ];
  const counters = modes.map(({ ref }) => countAsks(ref));
  // await-settled return pages, as a shopper whose session ended would see them.
  const pages = await Promise.all(modes.map(({ ref, statusUrl }) => mount({ 'status-url': statusUrl, 'order-ref': ref, 'await-settled': '' })));
  await settle(10000);
  for (const { el } of pages) el.remove();
  const asked = counters.reverse().map((counter) => counter.stop()).reverse();
  const redirected = await executeServerCommand<(string | null)[], undefined>('redirect-requests');
  const heard = await Promise.all(modes.map(async ({ ref }, i) => (i === 1 ? redirected.filter((r) => r === ref) : await statusRequests(ref)).length));
  return { modes, pages, asked, heard };
}

/** A page whose status-url answers 503 retry-after: 1, watched for 7 s. */
async function askedUnderRetryAfter() {
  const ref = order('busy');
  const { el } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'await-settled': '' });
  // Waits of 1, 2 then 4 s (jittered by a quarter): at most 4 asks in 7 s, where retry-after alone would make 7.
  await settle(7000);
  const asked = await statusRequests(ref);
  el.remove();
  return asked;
}

describe('<pay-form status-url> that keeps failing: one page never floods the endpoint', () => {
  // Both watch the clock for seconds, so they run side by side (on orders of their own) from the start,
  // and each test reads its own; one after the other they added 7 s to every engine's run.
  let handful: ReturnType<typeof askedInTenSeconds>;
  let busy: ReturnType<typeof askedUnderRetryAfter>;
  before(() => {
    handful = askedInTenSeconds();
    busy = askedUnderRetryAfter();
    // Each failure is its test's to report; none is left unhandled meanwhile.
    handful.catch(() => undefined);
    busy.catch(() => undefined);
  });

  it('asks a handful of times in 10 s, not hundreds, for a 404, a redirect, HTML, a 500 or a network error, each said at most once', async () => {
    const { modes, pages, asked, heard } = await handful;
    for (const [i, { ref }] of modes.entries()) {
      expect(asked[i], `${ref}: asked`).to.be.within(1, 6);
      // What the endpoint hears, but for a dropped connection, which the browser retries itself before the
      // element sees an error (Firefox up to about ten times, Chromium and WebKit a few).
      if (!ref.startsWith('drop-')) expect(heard[i], `${ref}: heard`).to.equal(asked[i]);
      expect(count(pages[i]!.events, 'pay-form-error'), `${ref}: errors`).to.be.at.most(1);
    }
    // The 404, the redirect and the HTML answer are said at once, and asked again only slowly.
    expect(pages.slice(0, 3).map(({ events }) => errorCode(events))).to.deep.equal(['settle-timeout', 'invalid-status-url', 'invalid-status-url']);
    expect(asked.slice(0, 3).every((n) => n <= 3)).to.equal(true, `asked ${asked}`);
  });

  it('under retry-after the back-off still grows: a full server answering 503 retry-after: 1 is asked less than once a second', async () => {
    const asked = await busy;
    expect(asked.every((r) => r.answer === 503)).to.equal(true);
    expect(asked.length).to.be.within(2, 4);
  });

  it('a status-url change asks anew, once: updates that change nothing never ask', async () => {
    const ref = order('unknown');
    const { el, events } = await mount({ 'status-url': '/__status', 'order-ref': ref, 'await-settled': '' });
    await waitForEvent(events, 'pay-form-error');
    for (let i = 0; i < 20; i++) {
      el.frameTitle = `Payment ${i}`;
      await el.updateComplete;
    }
    expect((await statusRequests(ref)).length).to.equal(1);
    const next = order();
    await setStatus(next, 'success', 'inv-next');
    el.orderRef = next;
    await waitForEvent(events, 'pay-form-settled');
    expect(await statusRequests(next)).to.have.length(1);
  });
});
