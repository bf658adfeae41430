// No leaks, with a budget (issue 30), inline: see leak-cycles.ts. Two elements on one page keep separate
// state in the framed displays and send the shopper each to their own form in the redirect display
// (popup.test.ts holds the popup's two windows; leaks-react, -vue and -svelte.test.ts two apps' elements).
import { expect } from '@open-wc/testing';
import { CYCLES, leakTest } from './leak-cycles.js';
import { mount, origins, waitForEvent, type Recorded } from './helpers.js';

describe('leaks (inline)', function () {
  this.timeout(200000);
  leakTest('inline', CYCLES);

  it('two elements keep separate state in every display', async () => {
    const { service } = await origins();
    for (const display of ['inline', 'modal']) {
      const a = await mount({ 'base-url': service, key: `plain-two-a-${display}`, display });
      const b = await mount({ 'base-url': service, key: `success-two-b-${display}`, display });
      await waitForEvent(b.events, 'pay-form-success');
      await waitForEvent(a.events, 'pay-form-ready');
      expect(a.el.state).to.equal('open');
      expect(b.el.state).to.equal('success');
      expect(a.events.map((e) => e.type)).to.not.include('pay-form-success');
      a.el.close();
      expect(b.el.state).to.equal('success');
      expect(a.el.state).to.equal('closed');
    }
  });

  it('two elements in the redirect display each redirect to their own form, and only when their own key changes', async () => {
    const { service } = await origins();
    const redirects = (events: Recorded[]) => events.filter((e) => e.type === 'pay-form-redirect').map((e) => (e.detail as { url: string }).url);
    const formAt = (key: string) => `${service}/api/jsapi/open/${key}/`;
    const a = await mount({ 'base-url': service, key: 'plain-two-a-redirect', display: 'redirect' });
    const b = await mount({ 'base-url': service, key: 'plain-two-b-redirect', display: 'redirect' });
    expect(redirects(a.events)).to.deep.equal([formAt('plain-two-a-redirect')]);
    expect(redirects(b.events)).to.deep.equal([formAt('plain-two-b-redirect')]);
    a.el.key = 'plain-two-c-redirect';
    await a.el.updateComplete;
    expect(redirects(a.events)).to.deep.equal([formAt('plain-two-a-redirect'), formAt('plain-two-c-redirect')]);
    expect(redirects(b.events)).to.deep.equal([formAt('plain-two-b-redirect')]);
  });
});
