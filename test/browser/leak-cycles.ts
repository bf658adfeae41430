// The leak tests' cycles (issue 30, no leaks with a budget): many connect/disconnect cycles of a
// <pay-form> with its form shown leave no iframe, dialog, window or document listener beyond the page's
// baseline, no pending timer, interval or request, and, in Chromium (after a forced GC), at most 1 MiB
// more heap. One test file per display (leaks*.test.ts), each within the runner's time guard.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { counts, installCounter, openWindowUrls, type Counts } from './leak-counter.js';
import { origins, settle } from './helpers.js';

installCounter();

/** The counts with PAY_FORM_LEAK_FULL=1; `npm test` runs fewer (a leak of one object per cycle
 *  shows in the counts after any number of cycles), for CI's time limit. */
export const FULL_RUNS = (await executeServerCommand<{ full: boolean }, undefined>('leak-runs')).full;
export const CYCLES = FULL_RUNS ? 1000 : 120;
/** Each popup cycle opens a real window: fewer of them, for the machine's sake. */
export const POPUP_CYCLES = FULL_RUNS ? 100 : 20;
const MIB = 1024 * 1024;

const heapUsed = async () => (await executeServerCommand<{ used: number | null }, undefined>('heap-used')).used;

/** Waits until the element's own timers and requests of the cycles have had time to end, then counts. */
async function quietCounts(baseline: Counts): Promise<Counts> {
  // Bounded: what is still pending after this is what the element left behind. 10 s, since WebKit on a
  // busy machine once still had one of the last cycles' requests or windows open after 5.
  await waitUntil(() => counts().fetches <= baseline.fetches, 'requests end', { timeout: 10000 }).catch(() => undefined);
  // A window closed while its navigation to the form is under way may report closed a moment later.
  await waitUntil(() => counts().windows <= baseline.windows, 'windows close', { timeout: 10000 }).catch(() => undefined);
  // A timer that runs once and ends is not left behind: the popup looks at its closed window once more.
  await waitUntil(() => counts().timers <= baseline.timers, 'timers run', { timeout: 10000 }).catch(() => undefined);
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

/** A batch of `n` mounts, each removed again; its keys differ from every other batch's. */
export type Mounts = (n: number) => Promise<unknown>;

/**
 * The test (its suite gives it time: `this.timeout(200000)`): a warm-up of 20 mounts, the baseline, `n`
 * mounts, and the counts and heap compared. `label` names the run in the logged heap figures.
 */
export function budgetTest(title: string, label: string, mounts: Mounts, n: number): void {
  it(title, async () => {
    await mounts(20);
    // The warm-up's windows closed, its requests ended and its one-shot timers ran too (a window closed
    // mid-navigation reports closed a moment later; WebKit once still had the last warm-up status
    // request open), so the baseline holds nothing still closing, under way or about to run.
    const baseline = await quietCounts({ ...counts(), windows: 0, fetches: 0, timers: 0 });
    const baselineWindows = openWindowUrls();
    const before = await heapUsed();
    await mounts(n);
    const after = await quietCounts(baseline);
    const windows = `windows open: ${JSON.stringify(openWindowUrls())}, at the baseline ${JSON.stringify(baselineWindows)}`;
    expect(after, `after ${JSON.stringify(after)}, baseline ${JSON.stringify(baseline)}; ${windows}`).to.deep.equal(baseline);
    const heap = await heapUsed();
    if (before !== null && heap !== null) {
      console.log(`heap ${label}: ${before} -> ${heap} B (${heap - before} B)`);
      expect(heap - before, 'heap growth after a forced GC').to.be.at.most(MIB);
    }
  });
}

/** `n` connect/disconnect cycles of the element itself in one display. */
export function leakTest(display: 'inline' | 'modal' | 'popup', n: number): void {
  budgetTest(`${n} connect/disconnect cycles (${display}) leave nothing behind`, display, (k) => cycles(display, k), n);
}
