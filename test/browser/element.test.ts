// Attributes, properties, states, events and refusals of the contract, one behaviour per test.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { PayForm, type PayFormErrorCode } from '../../src/element/index.js';
import { errorCode, frameOf, mount, origins, record, settle, typesOf, waitForEvent } from './helpers.js';

describe('<pay-form> inline', () => {
  it('is defined once and importing the entry again is not an error', async () => {
    expect(customElements.get('pay-form')).to.equal(PayForm);
    await import('../../src/element/pay-form-define.js');
    expect(customElements.get('pay-form')).to.equal(PayForm);
  });

  it('frames {base-url}/api/jsapi/open/{key}/ and fires open then ready', async () => {
    const { service } = await origins();
    await executeServerCommand('service-requests');
    const { el, events } = await mount({ 'base-url': service, key: 'plain-1' });
    const url = `${service}/api/jsapi/open/plain-1/`;
    expect(el.state).to.equal('loading');
    expect(el.getAttribute('state')).to.equal('loading');
    expect(frameOf(el)?.src).to.equal(url);
    expect(events[0]).to.deep.equal({ type: 'pay-form-open', detail: { url, display: 'inline' }, cancelable: false });
    const ready = await waitForEvent(events, 'pay-form-ready');
    expect(ready.detail).to.deep.equal({ url });
    expect(el.getAttribute('state')).to.equal('open');
    const seen = (await executeServerCommand('service-requests')) as { key: string }[];
    expect(seen.map((s) => s.key)).to.deep.equal(['plain-1']);
  });

  it('percent-encodes the key as one path segment and keeps the base path', async () => {
    const { page } = await origins();
    const { el } = await mount({ 'base-url': `${page}/__frame/`, key: '../a b?'.replace(' ', '_') });
    expect(frameOf(el)?.src).to.equal(`${page}/__frame/api/jsapi/open/..%2Fa_b%3F/`);
  });

  it('gives the iframe allow=payment, referrerpolicy=origin, a title, part=frame and no sandbox', async () => {
    const { service } = await origins();
    const { el } = await mount({ 'base-url': service, key: 'plain-2' });
    const frame = frameOf(el);
    expect(frame?.getAttribute('allow')).to.equal('payment');
    expect(frame?.getAttribute('referrerpolicy')).to.equal('origin');
    expect(frame?.getAttribute('title')).to.equal('Payment form');
    expect(frame?.getAttribute('part')).to.equal('frame');
    expect(frame?.hasAttribute('sandbox')).to.equal(false);
  });

  it('frame-title and frame-sandbox set the title and the sandbox', async () => {
    const { service } = await origins();
    const { el } = await mount({
      'base-url': service,
      key: 'plain-3',
      'frame-title': 'Pay for order 7',
      'frame-sandbox': 'allow-scripts allow-forms allow-same-origin allow-top-navigation-by-user-activation',
    });
    expect(frameOf(el)?.getAttribute('title')).to.equal('Pay for order 7');
    expect(frameOf(el)?.getAttribute('sandbox')).to.equal(
      'allow-scripts allow-forms allow-same-origin allow-top-navigation-by-user-activation',
    );
    expect(el.frameSandbox).to.include('allow-scripts');
  });

  it('sizes the frame from custom properties, 640px high and full width by default', async () => {
    const { service } = await origins();
    const { el, container } = await mount({ 'base-url': service, key: 'plain-4' });
    container.style.width = '400px';
    expect(frameOf(el)?.getBoundingClientRect().height).to.equal(640);
    expect(frameOf(el)?.getBoundingClientRect().width).to.equal(400);
    el.style.setProperty('--pay-form-height', '300px');
    el.style.setProperty('--pay-form-width', '250px');
    el.style.setProperty('--pay-form-border', '2px solid red');
    expect(frameOf(el)?.getBoundingClientRect().height).to.equal(300);
    expect(frameOf(el)?.getBoundingClientRect().width).to.equal(250);
    expect(getComputedStyle(frameOf(el) as HTMLIFrameElement).borderTopWidth).to.equal('2px');
  });

  it('waits without a key, and without a base-url, then opens when both arrive', async () => {
    const { service } = await origins();
    const { el, events } = await mount({});
    expect(el.state).to.equal('idle');
    el.key = 'plain-5';
    await el.updateComplete;
    expect(el.state).to.equal('idle');
    expect(frameOf(el)).to.equal(null);
    el.baseUrl = service;
    await el.updateComplete;
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-5/`);
    expect(typesOf(events)).to.deep.equal(['pay-form-open']);
  });

  it('opens a new frame when the key changes', async () => {
    const { service } = await origins();
    const { el } = await mount({ 'base-url': service, key: 'plain-6' });
    const first = frameOf(el);
    el.setAttribute('key', 'plain-7');
    await el.updateComplete;
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-7/`);
    expect(frameOf(el)).to.not.equal(first);
  });

  it('treats an unknown display as inline', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-8', display: 'sideways' });
    expect(frameOf(el)).to.exist;
    expect((events[0]?.detail as { display: string }).display).to.equal('inline');
  });

  it('an inline form passes the accessibility audit', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-a11y' });
    await waitForEvent(events, 'pay-form-ready');
    await expect(el).to.be.accessible();
  });

  it('event details are typed through HTMLElementEventMap', async () => {
    const el = document.createElement('pay-form');
    const codes: PayFormErrorCode[] = [];
    el.addEventListener('pay-form-error', (event) => codes.push(event.detail.code));
    el.setAttribute('base-url', 'ftp://pay.example');
    el.setAttribute('key', 'k');
    const container = await fixture<HTMLElement>(html`<div></div>`);
    container.append(el);
    await el.updateComplete;
    expect(codes).to.deep.equal(['invalid-base-url']);
  });

  it('state is read-only', async () => {
    const { el } = await mount({});
    expect(Reflect.set(el, 'state', 'open')).to.equal(false);
    el.setAttribute('state', 'success');
    expect(el.state).to.equal('idle');
  });

  it('events bubble and are composed', async () => {
    const { service } = await origins();
    const shadowHost = document.createElement('div');
    document.body.append(shadowHost);
    const root = shadowHost.attachShadow({ mode: 'open' });
    const seen = record(document);
    const el = document.createElement('pay-form');
    el.setAttribute('base-url', service);
    el.setAttribute('key', 'plain-9');
    root.append(el);
    try {
      await waitForEvent(seen, 'pay-form-ready');
      expect(typesOf(seen)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    } finally {
      shadowHost.remove();
    }
  });
});

describe('<pay-form> refusals', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['a javascript: base-url', { 'base-url': 'javascript:alert(1)', key: 'k' }, 'invalid-base-url'],
    ['a relative base-url', { 'base-url': '/pay', key: 'k' }, 'invalid-base-url'],
    ['plain http to a non-loopback base-url', { 'base-url': 'http://pay.example', key: 'k' }, 'invalid-base-url'],
    ['credentials in base-url', { 'base-url': 'https://u:p@pay.example', key: 'k' }, 'invalid-base-url'],
    ['an empty key', { 'base-url': 'https://pay.example', key: '' }, 'invalid-key'],
    ['the key "."', { 'base-url': 'https://pay.example', key: '.' }, 'invalid-key'],
    ['the key ".."', { 'base-url': 'https://pay.example', key: '..' }, 'invalid-key'],
    ['a key with a space', { 'base-url': 'https://pay.example', key: 'a b' }, 'invalid-key'],
    ['a key with a control character', { 'base-url': 'https://pay.example', key: 'a\u0007b' }, 'invalid-key'],
    ['a key of 1025 characters', { 'base-url': 'https://pay.example', key: 'k'.repeat(1025) }, 'invalid-key'],
    // WebKit once took it for well-formed and the form URL's encoding threw.
    ['a key with a lone surrogate', { 'base-url': 'https://pay.example', key: '\uD800\uFF0E' }, 'invalid-key'],
    ['a javascript: redirect-url', { 'redirect-url': 'javascript:alert(1)' }, 'invalid-redirect-url'],
    ['a data: redirect-url', { 'redirect-url': 'data:text/html,<p>x</p>' }, 'invalid-redirect-url'],
    ['a relative redirect-url', { 'redirect-url': '/checkout' }, 'invalid-redirect-url'],
    ['plain http redirect-url to a non-loopback host', { 'redirect-url': 'http://pay.example/' }, 'invalid-redirect-url'],
  ];
  for (const [label, attrs, code] of cases) {
    it(`refuses ${label}: ${code}, state error, no iframe, no navigation`, async () => {
      const { el, events } = await mount(attrs);
      expect(typesOf(events)).to.deep.equal(['pay-form-error']);
      expect(errorCode(events)).to.equal(code);
      expect((events[0]?.detail as { message: string }).message).to.be.a('string').and.not.equal('');
      expect(el.getAttribute('state')).to.equal('error');
      expect(frameOf(el)).to.equal(null);
    });
  }
});

describe('<pay-form> redirects', () => {
  it('redirect-url takes precedence over key and goes through the cancelable pay-form-redirect', async () => {
    const { service } = await origins();
    const { el, events } = await mount({
      'base-url': service,
      key: 'plain-10',
      'redirect-url': 'https://pay.example/redirect?k=1',
    });
    expect(events).to.deep.equal([
      { type: 'pay-form-redirect', detail: { url: 'https://pay.example/redirect?k=1' }, cancelable: true },
    ]);
    expect(frameOf(el)).to.equal(null);
    expect(el.state).to.equal('idle');
  });

  it('display=redirect fires open with display redirect, then redirect to the form URL, and frames nothing', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-11', display: 'redirect' });
    const url = `${service}/api/jsapi/open/plain-11/`;
    expect(events.map((e) => [e.type, e.detail])).to.deep.equal([
      ['pay-form-open', { url, display: 'redirect' }],
      ['pay-form-redirect', { url }],
    ]);
    expect(frameOf(el)).to.equal(null);
  });
});

describe('<pay-form> load-timeout', () => {
  it('defaults to 15000 ms', () => {
    expect(new PayForm().loadTimeout).to.equal(15000);
  });

  it('fires pay-form-error load-timeout when the form does not load in time and removes the frame', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'hang-1', 'load-timeout': '200' });
    expect(el.loadTimeout).to.equal(200);
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('load-timeout');
    expect(el.state).to.equal('error');
    expect(frameOf(el)).to.equal(null);
    await settle(100);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error']);
  });

  it('does not time out a form that loaded', async () => {
    const { service } = await origins();
    const timeout = 4000;
    const started = performance.now();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-12', 'load-timeout': String(timeout) });
    await waitForEvent(events, 'pay-form-ready');
    await settle(Math.max(0, started + timeout + 300 - performance.now()));
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    expect(el.state).to.equal('open');
  });

  it('a limit longer than a timer can wait is the longest it can, not an instant timeout', async () => {
    const { service } = await origins();
    // Past 2^31 - 1 ms a browser timer fires at once.
    const { el, events } = await mount({ 'base-url': service, key: 'hang-3', 'load-timeout': '3000000000' });
    await settle(300);
    expect(typesOf(events)).to.deep.equal(['pay-form-open']);
    expect(el.state).to.equal('loading');
  });

  it('fallback="redirect" goes to the same form URL through pay-form-redirect after a load timeout', async () => {
    const { service } = await origins();
    const { events } = await mount({
      'base-url': service,
      key: 'hang-2',
      'load-timeout': '200',
      fallback: 'redirect',
    });
    await waitForEvent(events, 'pay-form-redirect');
    const url = `${service}/api/jsapi/open/hang-2/`;
    expect(events.map((e) => e.type)).to.deep.equal(['pay-form-open', 'pay-form-error', 'pay-form-redirect']);
    expect(events[2]?.detail).to.deep.equal({ url });
    expect(events[2]?.cancelable).to.equal(true);
  });

  it('a fallback that is neither redirect nor popup leaves the error on show, and goes nowhere', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'hang-4', 'load-timeout': '200', fallback: 'modal' });
    await waitForEvent(events, 'pay-form-error');
    await settle(300);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error']);
    expect(el.state).to.equal('error');
    expect(el.display).to.equal('inline');
  });
});

describe('<pay-form> close() and open()', () => {
  it('close() removes an inline form and fires pay-form-close reason api; open() shows it again', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-13' });
    await waitForEvent(events, 'pay-form-ready');
    el.close();
    await el.updateComplete;
    expect(frameOf(el)).to.equal(null);
    expect(el.state).to.equal('closed');
    expect(events.at(-1)).to.deep.equal({ type: 'pay-form-close', detail: { reason: 'api', result: null }, cancelable: false });
    el.close();
    expect(typesOf(events).filter((t) => t === 'pay-form-close')).to.have.length(1);
    el.open();
    await el.updateComplete;
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-13/`);
    await waitUntil(() => el.state === 'open', 'reopened', { timeout: 8000 });
  });
});
