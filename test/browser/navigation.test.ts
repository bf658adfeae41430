// Real navigations: the element runs in test/fixtures/pages/host.html inside an iframe, so an un-cancelled
// pay-form-redirect really moves that page and the test page stays.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { origins, settle } from './helpers.js';

interface HostEvent {
  type: string;
  detail: unknown;
}

async function host(attrs: Record<string, string>, cancel = false): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.src = `/test/fixtures/pages/host.html?cancel=${cancel ? 1 : 0}&attrs=${encodeURIComponent(JSON.stringify(attrs))}`;
  document.body.append(frame);
  return frame;
}

const hostEvents = (frame: HTMLIFrameElement): HostEvent[] | undefined =>
  (frame.contentWindow as (Window & { payFormEvents?: HostEvent[] }) | null)?.payFormEvents;

const servicePaths = async () => ((await executeServerCommand('service-requests')) as { path: string }[]).map((r) => r.path);

describe('<pay-form> navigation', () => {
  afterEach(() => {
    for (const frame of document.querySelectorAll('iframe')) frame.remove();
  });

  it('an un-cancelled redirect-url sends the page there', async () => {
    const { page } = await origins();
    const target = `${page}/test/fixtures/pages/landed.html?from=redirect-url`;
    const frame = await host({ 'redirect-url': target });
    await waitUntil(() => frame.contentWindow?.location.href === target, 'the host page navigated', { timeout: 8000 });
    // The URL changes before the new document is parsed: wait for its heading, not just the address.
    await waitUntil(() => frame.contentDocument?.querySelector('h1') != null, 'the landed page parsed', { timeout: 8000 });
    expect(frame.contentDocument?.querySelector('h1')?.textContent).to.equal('Landed');
  });

  it('a cancelled pay-form-redirect does not navigate', async () => {
    const { page } = await origins();
    const frame = await host({ 'redirect-url': `${page}/test/fixtures/pages/landed.html?from=cancelled` }, true);
    await waitUntil(() => hostEvents(frame)?.some((e) => e.type === 'pay-form-redirect'), 'redirect fired', { timeout: 8000 });
    await settle(300);
    expect(frame.contentWindow?.location.pathname).to.equal('/test/fixtures/pages/host.html');
  });

  it('display=redirect sends the whole page to the open-form URL on the service', async () => {
    const { service } = await origins();
    await servicePaths();
    const frame = await host({ 'base-url': service, key: 'plain-nav1', display: 'redirect' });
    await waitUntil(async () => (await servicePaths()).includes('/api/jsapi/open/plain-nav1/'), 'the service was asked', {
      timeout: 8000,
    });
    await waitUntil(() => {
      try {
        return frame.contentWindow?.location.href === undefined;
      } catch {
        return true; // cross-origin now: the page left for the service
      }
    }, 'the host page is on the service origin');
  });

  it('redirect-on-timeout really navigates to the same form URL after the timeout', async () => {
    const { page } = await origins();
    await servicePaths();
    // The same-origin /__frame route answers, so the host is readable until it navigates: use a
    // load-timeout of 0 so the frame cannot load before the timer fires.
    const frame = await host({ 'base-url': `${page}/__frame`, key: 'nav2', 'load-timeout': '0', 'redirect-on-timeout': '' });
    const url = `${page}/__frame/api/jsapi/open/nav2/`;
    await waitUntil(() => frame.contentWindow?.location.href === url, 'the host page navigated to the form', {
      timeout: 8000,
    });
    // As above: the address changes before the form's document is parsed.
    await waitUntil(() => frame.contentDocument?.querySelector('h1') != null, 'the form page parsed', { timeout: 8000 });
    expect(frame.contentDocument?.querySelector('h1')?.textContent).to.equal('Same-origin form');
  });
});
