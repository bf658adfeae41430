// The Content-Security-Policy README "Security" gives merchants: `require-trusted-types-for 'script';
// trusted-types lit-html`. Proven in a page served with it (test/fixtures/pages/trusted-types.html, in an iframe so
// the policy does not reach the test runner): <pay-form> renders inline and modal with no violation. An
// engine without Trusted Types (Firefox ESR 140) ignores the policy, and the element renders all the same.
import { expect, waitUntil } from '@open-wc/testing';
import { origins } from './helpers.js';

interface Shown {
  result: string;
  state: string;
  frame: string | null;
  dialogOpen: boolean | null;
}
interface TrustedTypesResult {
  enforced: boolean;
  sinkBlocked: boolean;
  otherPolicyBlocked: boolean;
  inline: Shown;
  modal: Shown;
  violations: Array<{ directive: string; sample: string; blocked: string }>;
}

describe('<pay-form> under Trusted Types', () => {
  it('renders inline and modal with no securitypolicyviolation, while the policy is enforced', async () => {
    const { service } = await origins();
    const frame = document.createElement('iframe');
    frame.src = `/test/fixtures/pages/trusted-types.html?service=${encodeURIComponent(service)}`;
    document.body.append(frame);
    try {
      const read = () => (frame.contentWindow as (Window & { ttResult?: TrustedTypesResult }) | null)?.ttResult;
      await waitUntil(() => read() !== undefined, 'the Trusted Types page did not finish', { timeout: 15000 });
      const result = read()!;
      if (result.enforced) {
        expect(result.sinkBlocked, 'innerHTML with a string must throw under the policy').to.equal(true);
        expect(result.otherPolicyBlocked, 'a policy other than lit-html must be refused').to.equal(true);
        // Exactly the two probes' own violations; anything from the element would be a third.
        expect(result.violations).to.deep.equal([
          { directive: 'require-trusted-types-for', sample: 'Element innerHTML|<b>x</b>', blocked: 'trusted-types-sink' },
          { directive: 'trusted-types', sample: 'not-lit', blocked: 'trusted-types-policy' },
        ]);
      } else {
        // An engine without Trusted Types (Firefox ESR 140; Chromium and WebKit have them, and must
        // enforce them here) ignores the policy: the merchant's header still shows the form.
        expect(navigator.userAgent, 'only Firefox may lack Trusted Types').to.contain('Firefox/');
        expect(result.sinkBlocked).to.equal(false);
        expect(result.violations).to.deep.equal([]);
      }
      expect(result.inline).to.deep.equal({ result: 'ready', state: 'open', frame: `${service}/api/jsapi/open/tt-inline/`, dialogOpen: null });
      expect(result.modal).to.deep.equal({ result: 'ready', state: 'open', frame: `${service}/api/jsapi/open/tt-modal/`, dialogOpen: true });
    } finally {
      frame.remove();
    }
  });
});
