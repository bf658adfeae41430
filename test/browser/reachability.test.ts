// service-unreachable: a base-url where nothing answers (a loopback port bound and closed again).
// Chromium then loads its own error page into the frame and fires load, so only the element's
// reachability check can tell.
import { expect } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { errorCode, frameOf, mount, origins, settle, typesOf, waitForEvent } from './helpers.js';

const closedOrigin = () => executeServerCommand<string, undefined>('closed-origin');
const probes = () => executeServerCommand<{ path: string; cookie: string | null }[], undefined>('service-probes');

describe('<pay-form> and an unreachable service', () => {
  it('fires pay-form-error service-unreachable, removes the frame and ends in state error', async () => {
    const closed = await closedOrigin();
    const { el, events } = await mount({ 'base-url': closed, key: 'plain-u1' });
    const error = await waitForEvent(events, 'pay-form-error');
    expect(errorCode(events)).to.equal('service-unreachable');
    expect((error.detail as { message: string }).message).to.include(closed);
    expect(el.state).to.equal('error');
    await el.updateComplete;
    expect(frameOf(el)).to.equal(null);
    // The browser's error page loaded in the frame, but it is not the form: no pay-form-ready.
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-error']);
  });

  it('with redirect-on-timeout, falls back to a redirect to the same form URL', async () => {
    const closed = await closedOrigin();
    const { events } = await mount({ 'base-url': closed, key: 'plain-u2', 'redirect-on-timeout': '' });
    const redirect = await waitForEvent(events, 'pay-form-redirect');
    expect(errorCode(events)).to.equal('service-unreachable');
    expect(redirect.detail).to.deep.equal({ url: `${closed}/api/jsapi/open/plain-u2/` });
    expect(typesOf(events).indexOf('pay-form-error')).to.be.lessThan(typesOf(events).indexOf('pay-form-redirect'));
  });

  it('a check that gets no answer does not hold back pay-form-ready: something took the connection', async () => {
    const { service } = await origins();
    await executeServerCommand('probes-hang', true);
    try {
      const { el, events } = await mount({ 'base-url': service, key: 'plain-u4' });
      await waitForEvent(events, 'pay-form-ready');
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
      expect(el.state).to.equal('open');
    } finally {
      await executeServerCommand('probes-hang', false);
    }
  });

  it('a reachable service stays open: the check is one HEAD to its origin, without the key or cookies', async () => {
    const { service } = await origins();
    await probes();
    document.cookie = 'merchant_session=u3; path=/';
    const { el, events } = await mount({ 'base-url': service, key: 'plain-u3' });
    await waitForEvent(events, 'pay-form-ready');
    await settle(300);
    document.cookie = 'merchant_session=; max-age=0; path=/';
    expect(el.state).to.equal('open');
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    expect(await probes()).to.deep.equal([{ path: '/', cookie: null }]);
  });
});
