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

describe('<pay-form> under a CSP without connect-src for the service', function () {
  this.timeout(60_000);
  it('opens the form and reports nothing', async () => {
    const { service } = await origins();
    // The file's one frame is Firefox's first cross-origin frame of a new page under this CSP: twice,
    // on a busy machine, it was not ready within 15 s. The test is about connect-src, not load time.
    const { el, events } = await mount({ 'base-url': service, key: 'plain-cc1', 'load-timeout': '40000' });
    await waitForEvent(events, 'pay-form-ready', undefined, 40000);
    await settle(300);
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    expect(el.state).to.equal('open');
  });
});
