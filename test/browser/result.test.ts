import { expect, waitUntil } from '@open-wc/testing';
import { buildResult, parseResult } from '../../src/element/result.js';
import { completeReturn, reportResult, statusFromUrl } from '../../src/element/return-page.js';
import { ConfigError } from '../../src/service/errors.js';
import { settle } from './helpers.js';

describe('result message', () => {
  it('builds the contract message', () => {
    expect(buildResult('success')).to.deep.equal({ type: 'pay-form:result', status: 'success' });
    expect(buildResult('fail')).to.deep.equal({ type: 'pay-form:result', status: 'fail' });
    expect(() => buildResult('paid' as 'success')).to.throw(ConfigError, /status: must be "success" or "fail"/);
  });

  it('parses only the contract message', () => {
    expect(parseResult({ type: 'pay-form:result', status: 'fail' })).to.deep.equal({ type: 'pay-form:result', status: 'fail' });
    for (const bad of [
      null,
      'pay-form:result',
      [],
      { type: 'pay-form:result' },
      { type: 'pay-form:result', status: 'paid' },
      { type: 'other', status: 'success' },
      { type: 'pay-form:result', status: 'success', amount: 100 },
      Object.assign(Object.create({ inherited: 1 }) as object, { type: 'pay-form:result', status: 'success' }),
    ]) {
      expect(parseResult(bad), JSON.stringify(bad)).to.equal(null);
    }
  });
});

describe('pay-form/return', () => {
  it('does nothing and returns false at the top level of a window', () => {
    const top = { parent: null as unknown, location: { href: 'http://localhost/r?status=success' } };
    top.parent = top;
    expect(reportResult('success', { window: top as unknown as Window })).to.equal(false);
  });

  it('reads the status from the URL and refuses anything else', () => {
    expect(statusFromUrl('https://shop.example/return?status=success')).to.equal('success');
    expect(statusFromUrl('https://shop.example/return?status=fail&x=1')).to.equal('fail');
    expect(statusFromUrl('https://shop.example/return?status=<b>')).to.equal(null);
    expect(statusFromUrl('https://shop.example/return')).to.equal(null);
    expect(statusFromUrl('not a url')).to.equal(null);
  });

  it('posts the contract message to the parent, addressed to its own origin, from a real framed page', async () => {
    const frame = document.createElement('iframe');
    const received: MessageEvent[] = [];
    const listener = (event: MessageEvent) => {
      if (event.source === frame.contentWindow) received.push(event);
    };
    window.addEventListener('message', listener);
    frame.src = '/test/fixtures/pages/return.html?status=fail';
    document.body.append(frame);
    try {
      await waitUntil(() => received.length > 0, 'the return page posts', { timeout: 8000 });
      await settle();
      expect(received).to.have.length(1);
      expect(received[0]?.data).to.deep.equal({ type: 'pay-form:result', status: 'fail' });
      expect(received[0]?.origin).to.equal(location.origin);
      const outcome = frame.contentDocument?.getElementById('outcome')?.textContent ?? '';
      expect(JSON.parse(outcome)).to.deep.equal({ status: 'fail', framed: true, reported: true });
    } finally {
      window.removeEventListener('message', listener);
      frame.remove();
    }
  });

  it('never addresses "*" or a non-http origin', () => {
    const parent = { postMessage: () => undefined };
    const win = { parent, location: { href: 'http://localhost/r' } } as unknown as Window;
    expect(() => reportResult('success', { window: win, targetOrigin: '*' })).to.throw(ConfigError, /targetOrigin: must be an http\(s\) origin/);
    expect(() => reportResult('success', { window: win, targetOrigin: 'javascript:x' })).to.throw(ConfigError, /targetOrigin: must be an http\(s\) origin/);
  });

  it('completeReturn reports a framed result once and nothing for an unknown status', () => {
    const posted: unknown[][] = [];
    const parent = { postMessage: (...args: unknown[]) => posted.push(args) };
    const framed = (href: string) => ({ parent, location: { href } }) as unknown as Window;
    expect(completeReturn({ window: framed('http://localhost:1/r?status=success') })).to.deep.equal({
      status: 'success',
      framed: true,
      reported: true,
    });
    expect(posted).to.deep.equal([[{ type: 'pay-form:result', status: 'success' }, 'http://localhost:1']]);
    expect(completeReturn({ window: framed('http://localhost:1/r?status=maybe') }).reported).to.equal(false);
    expect(posted).to.have.length(1);
  });
});

describe('demo/return.html', () => {
  const text = (doc: Document | undefined, selector: string) => doc?.querySelector(selector)?.textContent ?? '';

  it('at the top level shows the result once, as its heading, and a link back to the shop, and posts nothing', async () => {
    const popup = window.open('/demo/return.html?status=success', '_blank');
    try {
      await waitUntil(() => text(popup?.document, 'h1') === 'Payment successful', 'the page shows the result', {
        timeout: 8000,
      });
      const doc = popup?.document;
      expect([...(doc?.querySelectorAll('p') ?? [])].map((p) => p.textContent)).to.not.include('Payment successful');
      expect(doc?.title).to.equal('Payment successful');
      const back = doc?.querySelector<HTMLAnchorElement>('#back a');
      expect(doc?.querySelector<HTMLElement>('#back')?.hidden).to.equal(false);
      expect(back?.getAttribute('href')).to.equal('/');
      expect(back?.textContent).to.equal('Back to the shop');
    } finally {
      popup?.close();
    }
  });

  it('framed, reports the result to the parent and shows it without the link', async () => {
    const frame = document.createElement('iframe');
    const received: unknown[] = [];
    const listener = (event: MessageEvent) => {
      if (event.source === frame.contentWindow) received.push(event.data);
    };
    window.addEventListener('message', listener);
    frame.src = '/demo/return.html?status=fail';
    document.body.append(frame);
    try {
      await waitUntil(() => received.length === 1, 'the page reported', { timeout: 8000 });
      expect(received[0]).to.deep.equal({ type: 'pay-form:result', status: 'fail' });
      await waitUntil(() => text(frame.contentDocument ?? undefined, 'h1') === 'Payment failed');
      expect(frame.contentDocument?.querySelector<HTMLElement>('#back')?.hidden).to.equal(true);
    } finally {
      window.removeEventListener('message', listener);
      frame.remove();
    }
  });

  it('shows markup in the status as nothing but a fixed text', async () => {
    const popup = window.open(`/demo/return.html?status=${encodeURIComponent('<img src=x onerror=alert(1)>')}`, '_blank');
    try {
      await waitUntil(() => text(popup?.document, 'h1') === 'Unknown payment result', 'the page answered', {
        timeout: 8000,
      });
      expect(popup?.document.querySelector('img')).to.equal(null);
    } finally {
      popup?.close();
    }
  });
});
