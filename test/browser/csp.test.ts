// csp-blocked: this file's page gets a Content-Security-Policy whose frame-src excludes the service
// origin (a meta CSP inserted before any element), so Chromium itself blocks the frame.
import { expect } from '@open-wc/testing';
import { DEFAULT_TEXTS } from '../../src/element/index.js';
import { liveText } from './axe.js';
import { errorCode, frameOf, mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

before(() => {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "frame-src 'self'";
  document.head.append(meta);
});

describe('<pay-form> under a page CSP', () => {
  it('fires pay-form-error csp-blocked naming the directive and the origin, and removes the frame', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-csp1' });
    const error = await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('csp-blocked');
    const message = (error.detail as { message: string }).message;
    expect(message).to.include('frame-src');
    expect(message).to.include(service);
    expect(el.state).to.equal('error');
    await el.updateComplete;
    expect(frameOf(el)).to.equal(null);
    await settle(300);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error']);
  });

  it("shows the shopper an alert in their words, not the directive, and passes the WCAG 2.2 AA audit", async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-csp5' });
    await waitForEvent(events, 'pay-form-error');
    await el.updateComplete;
    expect(liveText(el)).to.deep.equal({ status: '', alert: DEFAULT_TEXTS['csp-blocked'] });
    expect(liveText(el).alert).to.not.include('frame-src');
    await expect(el).to.be.accessible();
  });

  it('with fallback="redirect" the page goes to the form instead: frame-src governs frames only', async () => {
    const { service } = await origins();
    const { events } = await mount({ 'base-url': service, key: 'plain-csp6', fallback: 'redirect' });
    const redirect = await waitForEvent(events, 'pay-form-redirect');
    expect(errorCode(events)).to.equal('csp-blocked');
    expect(redirect.detail).to.deep.equal({ url: `${service}/api/jsapi/open/plain-csp6/` });
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error', 'pay-form-redirect']);
  });

  it('only the blocked element reports: a same-origin form beside it opens', async () => {
    const { service, page } = await origins();
    const allowed = await mount({ 'base-url': `${page}/__frame`, key: 'csp-ok' });
    const blocked = await mount({ 'base-url': service, key: 'plain-csp2' });
    await waitForEvent(blocked.events, 'pay-form-error');
    await waitForEvent(allowed.events, 'pay-form-ready');
    await settle();
    expect(typesOf(allowed.events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    expect(allowed.el.state).to.equal('open');
  });

  it('a removed element does not react to a violation', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-csp3' });
    el.remove();
    await mount({ 'base-url': service, key: 'plain-csp4' }).then(({ events: other }) => waitForEvent(other, 'pay-form-error'));
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-open']);
  });
});
