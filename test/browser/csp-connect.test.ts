// The reachability check under a page CSP whose connect-src leaves out the service (while frame-src
// allows it): the check cannot see the service, and that is not taken for an unreachable service.
import { expect } from '@open-wc/testing';
import { mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

before(async () => {
  const { service } = await origins();
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = `connect-src 'self' ws:; frame-src ${service}`;
  document.head.append(meta);
});

describe('<pay-form> under a CSP without connect-src for the service', () => {
  it('opens the form and reports nothing', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'plain-cc1' });
    await waitForEvent(events, 'pay-form-ready');
    await settle(300);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    expect(el.state).to.equal('open');
  });
});
