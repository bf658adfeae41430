// token-url against a real same-origin endpoint (the stand-in's /__token route), and fetchToken.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PayForm } from '../../src/element/index.js';
import { errorCode, frameOf, mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

interface TokenRequest {
  method: string;
  path: string;
  contentType: string | null;
  cookie: string | null;
  body: string;
  aborted: boolean;
}

const tokenRequests = () => executeServerCommand<TokenRequest[], undefined>('token-requests');
const answer = (body: string, status = 200) => `/__token/raw?status=${status}&body=${encodeURIComponent(body)}`;

describe('<pay-form token-url>', () => {
  beforeEach(async () => {
    await executeServerCommand('token-requests-clear');
  });

  it('POSTs {"order_ref": ..., "language": ...} as JSON with same-origin credentials once, then frames the key', async () => {
    const { service } = await origins();
    document.cookie = 'merchant_session=abc; path=/';
    const { el, events } = await mount({
      'base-url': service,
      'token-url': answer(JSON.stringify({ key: 'plain-t1' })),
      'order-ref': 'ORDER-42',
    });
    await waitForEvent(events, 'pay-form-open');
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-t1/`);
    el.display = 'inline';
    el.frameTitle = 'Changed';
    el.requestUpdate();
    await el.updateComplete;
    await settle();
    const seen = await tokenRequests();
    expect(seen).to.have.length(1);
    expect(seen[0]).to.include({ method: 'POST', path: '/__token/raw', contentType: 'application/json' });
    // No lang on this page: the browser's preferred language (language.test.ts proves the rest).
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.equal({ order_ref: 'ORDER-42', language: navigator.language });
    expect(seen[0]?.body).to.equal(`{"order_ref":"ORDER-42","language":"${navigator.language}"}`);
    expect(seen[0]?.cookie).to.include('merchant_session=abc');
    document.cookie = 'merchant_session=; max-age=0; path=/';
  });

  it('an invalid base-url is refused before any token request (no invoice is created for it)', async () => {
    let calls = 0;
    const viaUrl = await mount({ 'base-url': 'ftp://pay.example', 'token-url': answer(JSON.stringify({ key: 'plain-t9' })) });
    const viaFunction = await mount({ 'base-url': 'https://pay.example/?q=1' }, (el) => {
      el.fetchToken = async () => {
        calls += 1;
        return { key: 'plain-t10' };
      };
    });
    await waitForEvent(viaUrl.events, 'pay-form-error');
    await waitForEvent(viaFunction.events, 'pay-form-error');
    expect(errorCode(viaUrl.events)).to.equal('invalid-base-url');
    expect(errorCode(viaFunction.events)).to.equal('invalid-base-url');
    await settle();
    expect(await tokenRequests()).to.deep.equal([]);
    expect(calls).to.equal(0);
    expect(viaUrl.el.state).to.equal('error');
  });

  it('sends no order_ref without order-ref', async () => {
    const { service } = await origins();
    const { events } = await mount({ 'base-url': service, 'token-url': answer(JSON.stringify({ key: 'plain-t2' })) });
    await waitForEvent(events, 'pay-form-open');
    expect((await tokenRequests())[0]?.body).to.equal(`{"language":"${navigator.language}"}`);
  });

  it('a { redirect_url } answer goes through pay-form-redirect', async () => {
    const { events } = await mount({
      'token-url': answer(JSON.stringify({ redirect_url: 'https://pay.example/hosted/1' })),
    });
    const redirect = await waitForEvent(events, 'pay-form-redirect');
    expect(redirect.detail).to.deep.equal({ url: 'https://pay.example/hosted/1' });
  });

  it('a key attribute wins over token-url: no request is made', async () => {
    const { service } = await origins();
    const { el } = await mount({ 'base-url': service, key: 'plain-t3', 'token-url': answer('{"key":"other"}') });
    await settle();
    expect(await tokenRequests()).to.have.length(0);
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-t3/`);
  });

  const failures: [string, () => Promise<string>][] = [
    ['a 500 answer', async () => answer(JSON.stringify({ key: 'k' }), 500)],
    ['a 404 answer', async () => answer(JSON.stringify({ key: 'k' }), 404)],
    ['a 409 answer that is not the paid answer', async () => answer(JSON.stringify({ success: false, message: 'Conflict' }), 409)],
    ['non-JSON', async () => answer('<html>not json</html>')],
    ['JSON of another shape', async () => answer(JSON.stringify({ token: 'k' }))],
    ['a key that is not a string', async () => answer(JSON.stringify({ key: 7 }))],
    ['a JSON array', async () => answer(JSON.stringify([{ key: 'k' }]))],
    ['a network error (a cross-origin endpoint without CORS)', async () => `${(await origins()).service}/token`],
  ];
  for (const [label, url] of failures) {
    it(`${label} is pay-form-error token-request-failed, state error, no iframe`, async () => {
      const { service } = await origins();
      const { el, events } = await mount({ 'base-url': service, 'token-url': await url() });
      await waitForEvent(events, 'pay-form-error');
      expect(errorCode(events)).to.equal('token-request-failed');
      expect(el.state).to.equal('error');
      expect(frameOf(el)).to.equal(null);
      await settle();
      expect(typesOf(events)).to.deep.equal(['pay-form-error']);
    });
  }

  it('an order already paid (409 { paid: true }, what createTokenHandler answers) is pay-form-error order-paid, state error, nothing framed, status-url not asked', async () => {
    const { service } = await origins();
    const paid = JSON.stringify({ success: false, message: 'Order already paid', paid: true });
    const { el, events } = await mount({ 'base-url': service, 'token-url': answer(paid, 409), 'status-url': '/__status', 'order-ref': 'paid-1' });
    const error = await waitForEvent(events, 'pay-form-error');
    expect(error.detail).to.deep.equal({ code: 'order-paid', message: 'order already paid' });
    expect(el.state).to.equal('error');
    expect(frameOf(el)).to.equal(null);
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-error']);
    expect(await executeServerCommand<unknown[], { orderRef: string }>('status-requests', { orderRef: 'paid-1' })).to.deep.equal([]);
  });

  it('an empty key from the endpoint is invalid-key; a javascript: redirect_url is invalid-redirect-url', async () => {
    const { service } = await origins();
    const a = await mount({ 'base-url': service, 'token-url': answer(JSON.stringify({ key: '' })) });
    const b = await mount({ 'token-url': answer(JSON.stringify({ redirect_url: 'javascript:alert(1)' })) });
    await waitForEvent(a.events, 'pay-form-error');
    await waitForEvent(b.events, 'pay-form-error');
    expect([errorCode(a.events), errorCode(b.events)]).to.deep.equal(['invalid-key', 'invalid-redirect-url']);
    expect(typesOf(b.events)).to.deep.equal(['pay-form-error']);
  });

  it('a token-url that never answers: after load-timeout, token-request-failed, the request aborted, no frame', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, 'token-url': '/__token/hang', 'load-timeout': '300' });
    expect(el.state).to.equal('loading');
    const error = await waitForEvent(events, 'pay-form-error');
    expect(error.detail).to.deep.equal({ code: 'token-request-failed', message: 'no token in 300 ms' });
    expect(el.state).to.equal('error');
    await waitUntil(async () => (await tokenRequests())[0]?.aborted === true, 'the server saw the abort', { timeout: 8000 });
    await el.updateComplete;
    expect(frameOf(el)).to.equal(null);
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-error']);
  });

  it('a fetchToken that never settles: its signal is aborted at load-timeout and token-request-failed fires', async () => {
    let seen: AbortSignal | undefined;
    const { el, events } = await mount({ 'load-timeout': '200' }, (form) => {
      form.fetchToken = ({ signal }) => {
        seen = signal;
        return new Promise(() => undefined);
      };
    });
    expect(errorCode([await waitForEvent(events, 'pay-form-error')])).to.equal('token-request-failed');
    expect(seen?.aborted).to.equal(true);
    expect(el.state).to.equal('error');
  });

  it('removing the element aborts the pending request; re-adding asks again', async () => {
    const { el, container } = await mount({ 'token-url': '/__token/hang' });
    expect(el.state).to.equal('loading');
    await waitUntil(async () => (await tokenRequests()).length === 1, 'the request reached the server');
    el.remove();
    await waitUntil(async () => (await tokenRequests())[0]?.aborted === true, 'the server saw the abort', { timeout: 8000 });
    container.append(el);
    await waitUntil(async () => (await tokenRequests()).length === 2, 'a new connection asks again');
    el.remove();
  });
});

describe('<pay-form token-url> with close() and open()', () => {
  beforeEach(async () => {
    await executeServerCommand('token-requests-clear');
  });

  it('close() aborts a pending token request; open() asks for a fresh token', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, 'token-url': '/__token/hang' });
    await waitUntil(async () => (await tokenRequests()).length === 1, 'the request reached the server');
    el.close();
    expect(events.at(-1)?.detail).to.deep.equal({ reason: 'api', result: null });
    await waitUntil(async () => (await tokenRequests())[0]?.aborted === true, 'the server saw the abort', { timeout: 8000 });
    el.tokenUrl = answer(JSON.stringify({ key: 'plain-t4' }));
    await el.updateComplete;
    await waitForEvent(events, 'pay-form-open');
    el.close();
    el.open();
    await waitUntil(async () => (await tokenRequests()).length === 3, 'open() asked again');
    expect((await tokenRequests()).map((r) => r.path)).to.deep.equal(['/__token/hang', '/__token/raw', '/__token/raw']);
  });
});

describe('<pay-form> fetchToken', () => {
  beforeEach(async () => {
    await executeServerCommand('token-requests-clear');
  });

  it('is called once with the order reference, the language and a signal, instead of token-url', async () => {
    const { service } = await origins();
    const calls: { orderRef: string | null; language: string; signal: AbortSignal }[] = [];
    const { el, events } = await mount({ 'base-url': service, 'order-ref': 'O-9', 'token-url': '/__token/hang', language: 'kk-KZ' }, (form) => {
      form.fetchToken = async (context) => {
        calls.push(context);
        return { key: 'plain-f1' };
      };
    });
    await waitForEvent(events, 'pay-form-open');
    el.requestUpdate();
    await el.updateComplete;
    expect(calls).to.have.length(1);
    expect(calls[0]?.orderRef).to.equal('O-9');
    expect(calls[0]?.language).to.equal('kk-KZ');
    expect(calls[0]?.signal).to.be.instanceOf(AbortSignal);
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/plain-f1/`);
    expect(await tokenRequests()).to.have.length(0);
  });

  it('resolving to { paid: true } is order-paid', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service }, (el) => {
      el.fetchToken = async () => ({ paid: true });
    });
    await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('order-paid');
    expect(frameOf(el)).to.equal(null);
  });

  it('a rejection, a throw or a bad shape is token-request-failed', async () => {
    const makers: ((form: PayForm) => void)[] = [
      (form) => (form.fetchToken = () => Promise.reject(new Error('backend down'))),
      (form) =>
        (form.fetchToken = () => {
          throw new Error('sync throw');
        }),
      (form) => (form.fetchToken = () => Promise.resolve({ nope: true } as unknown as { key: string })),
    ];
    for (const make of makers) {
      const { events } = await mount({ 'base-url': 'https://pay.example' }, make);
      await waitForEvent(events, 'pay-form-error');
      expect(errorCode(events)).to.equal('token-request-failed');
    }
  });

  it('its signal is aborted when the element is removed, and a late answer is ignored', async () => {
    let resolve: (value: { key: string }) => void = () => undefined;
    let signal: AbortSignal | undefined;
    const { el, events } = await mount({ 'base-url': 'https://pay.example' }, (form) => {
      form.fetchToken = (context) => {
        signal = context.signal;
        return new Promise((r) => (resolve = r));
      };
    });
    el.remove();
    expect(signal?.aborted).to.equal(true);
    resolve({ key: 'late' });
    await settle();
    expect(typesOf(events)).to.deep.equal([]);
    expect(frameOf(el)).to.equal(null);
  });
});
