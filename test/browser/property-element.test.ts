// The same properties as form-url.test.ts, through a real element: what ends up in the iframe's src
// and in pay-form-redirect is what the checks allow, and nothing else.
import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { isLoopbackHost } from '../../src/service/form-url.js';
import type { PayForm } from '../../src/element/index.js';
import { errorCode, frameOf, mount, origins, typesOf, type Recorded } from './helpers.js';

const tricky = fc.constantFrom('.', '..', '%2e', '.%2E', '/', '\\', '?', '#', '%', ' ', '\u0000', '\u2028', 'é', 'a', '9');
const keyArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 24 }), fc.array(tricky, { maxLength: 6 }).map((p) => p.join('')));

/** Clears the property first, so a value fast-check repeats is still a change the element acts on. */
async function setFresh(el: PayForm, events: Recorded[], name: 'key' | 'redirectUrl', value: string): Promise<void> {
  el[name] = null;
  await el.updateComplete;
  events.length = 0;
  el[name] = value;
  await el.updateComplete;
}

describe('<pay-form> properties through a real element', function () {
  // Hundreds of real renders: on a loaded 2-core machine this can pass mocha's default 10 s; the limit is
  // a guard against a hang, not a speed claim.
  this.timeout(120000);

  it('no key makes the iframe leave {base}/api/jsapi/open/ (300 runs)', async () => {
    const { service } = await origins();
    const base = `${service}/shop/`;
    const { el, events } = await mount({ 'base-url': base });
    await fc.assert(
      fc.asyncProperty(keyArb, async (key) => {
        await setFresh(el, events, 'key', key);
        const frame = frameOf(el);
        if (errorCode(events) !== undefined) {
          expect(errorCode(events)).to.equal('invalid-key');
          expect(frame).to.equal(null);
          return;
        }
        expect(typesOf(events)).to.deep.equal(['pay-form-open']);
        const url = new URL(frame?.src ?? '');
        expect(url.origin).to.equal(service);
        expect(url.pathname.startsWith('/shop/api/jsapi/open/'), url.pathname).to.equal(true);
        const segment = url.pathname.slice('/shop/api/jsapi/open/'.length, -1);
        expect(url.pathname.endsWith('/')).to.equal(true);
        expect(segment.includes('/')).to.equal(false);
        expect(decodeURIComponent(segment)).to.equal(key);
      }),
      { numRuns: 300 },
    );
  });

  it('no redirect-url makes the element navigate anywhere but an allowed http(s) URL (300 runs)', async () => {
    const prefixes = fc.constantFrom('https://', 'http://', 'javascript:', ' JavaScript:', 'data:', '//', '/', 'http://127.0.0.1', 'http://[::1]', 'https://u:p@', '');
    const raw = fc.oneof(
      fc.tuple(prefixes, fc.string({ unit: 'binary', maxLength: 20 })).map(([p, s]) => p + s),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
    );
    const { el, events } = await mount({});
    await fc.assert(
      fc.asyncProperty(raw, async (value) => {
        await setFresh(el, events, 'redirectUrl', value);
        expect(events).to.have.length(1);
        const [event] = events;
        if (event?.type === 'pay-form-error') {
          expect(errorCode(events)).to.equal('invalid-redirect-url');
          return;
        }
        expect(event?.type).to.equal('pay-form-redirect');
        const url = new URL((event?.detail as { url: string }).url);
        expect(['https:', 'http:']).to.include(url.protocol);
        if (url.protocol === 'http:') expect(isLoopbackHost(url.hostname)).to.equal(true);
        expect(url.username + url.password).to.equal('');
        expect(url.href).to.equal(new URL(value).href);
      }),
      { numRuns: 300 },
    );
  });
});
