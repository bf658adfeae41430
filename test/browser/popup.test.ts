// display="popup": nothing opens on connect; open() or the element's own button opens the payment window
// inside the click, with a neutral loading page, then sends it to the form; the result comes from the
// return page's message to the opener; closing the window is pay-form-close; a blocked window is
// popup-blocked with the button left to press. Every engine's browser is started allowed to open
// windows from script (docs/testing.md); the blocked case runs in a sandboxed frame without allow-popups.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../../src/element/index.js';
import { errorCode, mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

const buttonOf = (el: PayForm) => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="popup-button"]') ?? null;
const statusOf = (el: PayForm) => el.shadowRoot?.querySelector('[role="status"]')?.textContent ?? '';

/** Every window the page opens, as window.open returned it (the real one: this only records). */
const opened: (Window | null)[] = [];
const realOpen = window.open;
before(() => {
  window.open = function (...args: Parameters<typeof window.open>) {
    const win = realOpen.apply(window, args);
    opened.push(win);
    return win;
  };
});
after(() => {
  window.open = realOpen;
});
afterEach(() => {
  for (const win of opened.splice(0)) win?.close();
});

/** The href of a window once it is readable again (the return page is this page's origin), else null. */
function hrefOf(win: Window): string | null {
  try {
    return win.location.href;
  } catch {
    return null;
  }
}

describe('<pay-form display="popup">', () => {
  it('opens nothing on connect and shows a button to open the payment window', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-p1', display: 'popup' });
    await settle();
    expect(opened).to.have.length(0);
    expect(el.state).to.equal('idle');
    expect(typesOf(events)).to.deep.equal([]);
    const button = buttonOf(el);
    expect(button?.textContent).to.equal('Open the payment window');
    expect(button?.hidden).to.equal(false);
    await expect(el).shadowDom.to.be.accessible();
  });

  it('open() opens the window, shows the form there and says so on the page; the return page reports the result', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'pay-p2', display: 'popup' });
    el.open();
    expect(opened).to.have.length(1);
    const win = opened[0]!;
    const open = await waitForEvent(events, 'pay-form-open');
    expect(open.detail).to.deep.equal({ url: `${service}/api/jsapi/open/pay-p2/`, display: 'popup' });
    expect(el.state).to.equal('open');
    await el.updateComplete;
    expect(statusOf(el)).to.equal('Continue in the payment window.');
    expect(el.shadowRoot?.querySelector('iframe')).to.equal(null);
    // The window is cross-origin once at the form; the shopper pays there.
    await waitUntil(() => hrefOf(win) === null, 'the window reaches the form', { timeout: 8000 });
    win.location.href = `${location.origin}/test/fixtures/pages/return.html?status=success`;
    await waitForEvent(events, 'pay-form-success');
    expect(el.state).to.equal('success');
    await waitUntil(() => win.closed, 'the element closes the window after the result');
    await el.updateComplete;
    expect(buttonOf(el)?.hidden).to.equal(true);
    expect(typesOf(events)).to.not.include('pay-form-close');
  });

  it('shows a loading page in the window while the token is asked for, then the form', async () => {
    const { service } = await origins();
    let answer!: (value: { key: string }) => void;
    const { el, events } = await mount({ 'base-url': service, display: 'popup' }, (e) => {
      e.fetchToken = () => new Promise((resolve) => (answer = resolve));
    });
    await settle();
    expect(answer, 'no token is asked for before the click').to.equal(undefined);
    el.open();
    const win = opened[0]!;
    expect(win.document.body.textContent).to.equal('Loading the payment form…');
    expect(win.document.title).to.equal('Loading the payment form…');
    expect(win.document.body.children.length).to.equal(0);
    await waitUntil(() => answer, 'the token is asked for');
    answer({ key: 'plain-p3' });
    await waitForEvent(events, 'pay-form-open');
    await waitUntil(() => hrefOf(win) === null, 'the window reaches the form', { timeout: 8000 });
  });

  it('takes no result from another window, nor from an origin not allowed', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-p4', display: 'popup' });
    el.open();
    await waitForEvent(events, 'pay-form-open');
    window.postMessage({ type: 'pay-form:result', status: 'success' }, '*');
    await settle();
    expect(typesOf(events)).to.not.include('pay-form-success');
    expect(el.state).to.equal('open');
  });

  it('closing the window is pay-form-close, and the button opens it again', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-p5', display: 'popup' });
    buttonOf(el)!.click();
    expect(opened).to.have.length(1);
    await waitForEvent(events, 'pay-form-open');
    opened[0]!.close();
    const close = await waitForEvent(events, 'pay-form-close');
    expect(close.detail).to.deep.equal({ reason: 'user', result: null });
    expect(el.state).to.equal('closed');
    buttonOf(el)!.click();
    expect(opened).to.have.length(2);
    await waitUntil(() => events.filter((e) => e.type === 'pay-form-open').length === 2, 'opened again');
  });

  it('close() and removing the element close the window', async () => {
    const { service } = await origins();
    const { el, events, container } = await mount({ 'base-url': service, key: 'plain-p6', display: 'popup' });
    el.open();
    await waitForEvent(events, 'pay-form-open');
    el.close();
    expect(opened[0]!.closed).to.equal(true);
    expect((events.at(-1)?.detail as { reason: string }).reason).to.equal('api');
    el.open();
    await waitUntil(() => events.filter((e) => e.type === 'pay-form-open').length === 2, 'opened again');
    container.remove();
    expect(opened[1]!.closed).to.equal(true);
  });

  it('a blocked window is popup-blocked, said in the shopper words, with the button to press', async () => {
    const { service } = await origins();
    // A frame without allow-popups: every engine refuses its window.open.
    const frame = await fixture<HTMLIFrameElement>(html`<iframe sandbox="allow-scripts allow-same-origin" src="/test/fixtures/pages/host.html"></iframe>`);
    await waitUntil(() => frame.contentDocument?.querySelector('pay-form')?.shadowRoot, 'the framed element', { timeout: 8000 });
    const el = frame.contentDocument!.querySelector('pay-form') as PayForm;
    const codes: string[] = [];
    el.addEventListener('pay-form-error', (e) => codes.push((e as CustomEvent<{ code: string }>).detail.code));
    el.setAttribute('base-url', service);
    el.setAttribute('key', 'plain-p7');
    el.setAttribute('display', 'popup');
    await el.updateComplete;
    el.open();
    expect(codes).to.deep.equal(['popup-blocked']);
    expect(el.state).to.equal('error');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('[role="alert"]')?.textContent).to.equal('The payment window was blocked. Press the button to open it.');
    expect(buttonOf(el)?.hidden).to.equal(false);
  });

  it('two elements keep their own windows and results', async () => {
    const { service } = await origins();
    const a = await mount({ 'base-url': service, key: 'plain-p8', display: 'popup' });
    const b = await mount({ 'base-url': service, key: 'plain-p9', display: 'popup' });
    a.el.open();
    b.el.open();
    await waitForEvent(b.events, 'pay-form-open');
    await waitUntil(() => hrefOf(opened[1]!) === null, 'b reaches its form', { timeout: 8000 });
    opened[1]!.location.href = `${location.origin}/test/fixtures/pages/return.html?status=fail`;
    await waitForEvent(b.events, 'pay-form-fail');
    expect(typesOf(a.events)).to.not.include('pay-form-fail');
    expect(a.el.state).to.equal('open');
    expect(opened[0]!.closed).to.equal(false);
    expect(errorCode(a.events)).to.equal(undefined);
  });
});

describe('<pay-form fallback="popup">', () => {
  it('a form that does not load in time: pay-form-error load-timeout, then the popup\'s button; pressing it opens the form in the window, where the shopper pays', async () => {
    const { service } = await origins();
    // No time at all to load: the frame times out at once, and the form itself is there for the window.
    const { el, events } = await mount({ 'base-url': service, key: 'plain-fb1', 'load-timeout': '0', fallback: 'popup' });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('load-timeout');
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('iframe')).to.equal(null);
    expect(opened).to.have.length(0);
    expect(el.state).to.equal('idle');
    expect(el.getAttribute('display'), "the page's attribute stays as written").to.equal(null);
    const button = buttonOf(el)!;
    expect(button.hidden).to.equal(false);
    expect(button.textContent).to.equal('Open the payment window');
    await expect(el).shadowDom.to.be.accessible();

    button.click();
    expect(opened).to.have.length(1);
    await waitUntil(() => typesOf(events).length === 3, 'the form opened in the window', { timeout: 8000 });
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error', 'pay-form-open']);
    expect(events[2]!.detail).to.deep.equal({ url: `${service}/api/jsapi/open/plain-fb1/`, display: 'popup' });
    const win = opened[0]!;
    await waitUntil(() => hrefOf(win) === null, 'the window leaves the page for the form', { timeout: 8000 });
    win.location.href = `${location.origin}/test/fixtures/pages/return.html?status=success`;
    await waitForEvent(events, 'pay-form-success');
    expect(el.state).to.equal('success');
  });
});
