// No leaks, with a budget (issue 30), inline: see leak-cycles.ts. Two elements on one page keep separate
// state in the framed displays (popup.test.ts holds the popup's two windows).
import { expect } from '@open-wc/testing';
import { CYCLES, leakTest } from './leak-cycles.js';
import { mount, origins, waitForEvent } from './helpers.js';

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
});
