// No leaks, with a budget (issue 30): many connect/disconnect cycles of a <pay-form> with its form
// shown leave no iframe, dialog, window or document listener beyond the page's baseline, no pending
// timer, interval or request, and, in Chromium (after a forced GC), at most 1 MiB more heap. Two
// elements on one page keep separate state in every display.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { counts, installCounter, type Counts } from './leak-counter.js';
import { mount, origins, settle, waitForEvent } from './helpers.js';

installCounter();

const CYCLES = 1000;
/** Each popup cycle opens a real window: fewer of them, for the machine's sake. */
const POPUP_CYCLES = 100;
const MIB = 1024 * 1024;

const heapUsed = () => executeServerCommand<number | null, undefined>('heap-used');

/** Waits until the element's own timers and requests of the cycles have had time to end, then counts. */
async function quietCounts(baseline: Counts): Promise<Counts> {
  // Bounded: what is still pending after this is what the element left behind.
  await waitUntil(() => counts().fetches <= baseline.fetches, 'requests end', { timeout: 5000 }).catch(() => undefined);
  await settle(50);
  return counts();
}

async function cycles(display: string, n: number): Promise<void> {
  const { service } = await origins();
  const container = await fixture<HTMLElement>(html`<div></div>`);
  for (let i = 0; i < n; i++) {
    const el = document.createElement('pay-form');
    el.setAttribute('base-url', service);
    el.setAttribute('key', `plain-leak-${display}-${i}`);
    el.setAttribute('display', display);
    // One in ten also asks status-url, so a status request is under way when it goes.
    if (i % 10 === 0) el.setAttribute('status-url', '/__status');
    el.setAttribute('order-ref', `leak-${display}-${i}`);
    container.append(el);
    await el.updateComplete;
    // The popup display opens its window only when asked, as in a click.
    if (display === 'popup') el.open();
    // Every hundredth waits for the form to be on show, so that load, the reachability check and the
    // status request are all under way when it goes.
    if (i % 100 === 0 && display !== 'popup') await new Promise((resolve) => el.addEventListener('pay-form-ready', resolve, { once: true }));
    el.remove();
  }
  container.remove();
}

describe('leaks', function () {
  this.timeout(240000);

  for (const [display, n] of [['inline', CYCLES], ['modal', CYCLES], ['popup', POPUP_CYCLES]] as const) {
    it(`${n} connect/disconnect cycles (${display}) leave nothing behind`, async () => {
      await cycles(display, 20);
      const baseline = await quietCounts(counts());
      const before = await heapUsed();
      await cycles(display, n);
      const after = await quietCounts(baseline);
      expect(after).to.deep.equal(baseline);
      const heap = await heapUsed();
      if (before !== null && heap !== null) {
        console.log(`heap ${display}: ${before} -> ${heap} B (${heap - before} B)`);
        expect(heap - before, 'heap growth after a forced GC').to.be.at.most(MIB);
      }
    });
  }

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
