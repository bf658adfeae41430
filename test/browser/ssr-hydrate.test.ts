// The server's <pay-form> (rendered by @lit-labs/ssr from dist/, see test/support/ssr-render.mjs) hydrates in
// the browser: Lit adopts the declarative shadow root instead of rendering a new one, and the form opens.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { expect } from '@open-wc/testing';
// Not ./helpers.js: it imports the element, and here the tag must be defined only after the HTML is in.
import { executeServerCommand } from '@web/test-runner-commands';

async function serverRendered(query: Record<string, string>): Promise<HTMLElement> {
  const response = await fetch(`/__ssr/pay-form?${new URLSearchParams(query)}`);
  expect(response.status).to.equal(200);
  const host = document.createElement('div');
  document.body.append(host);
  // The HTML parser attaches declarative shadow roots, as it does for a server-rendered page.
  host.setHTMLUnsafe(await response.text());
  const element = host.querySelector('pay-form');
  if (element === null) throw new Error('no <pay-form> in the rendered HTML');
  return element;
}

describe('SSR hydration', () => {
  const errors: string[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.message);
  before(() => window.addEventListener('error', onError));
  after(() => window.removeEventListener('error', onError));

  it('upgrades a server-rendered <pay-form> in place and opens its form, without errors', async () => {
    const consoleErrors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => {
      consoleErrors.push(args);
      originalError(...args);
    };
    try {
      const SERVICE_ORIGIN = (await executeServerCommand<{ service: string }, undefined>('origins')).service;
      const element = await serverRendered({ 'base-url': SERVICE_ORIGIN, key: 'SSR-KEY' });
      const root = element.shadowRoot;
      expect(root, 'declarative shadow root before upgrade').to.exist;
      const serverStyle = root!.querySelector('style');
      expect(serverStyle?.textContent).to.contain('--pay-form-height');
      expect(customElements.get('pay-form')).to.equal(undefined);

      const opened = new Promise<CustomEvent>((resolve) => element.addEventListener('pay-form-open', (e) => resolve(e as CustomEvent), { once: true }));
      const { PayForm } = await import('../../src/element/index.js');
      expect(element).to.be.instanceOf(PayForm);
      const event = await opened;
      await (element as InstanceType<typeof PayForm>).updateComplete;

      expect(element.shadowRoot, 'the same shadow root, hydrated').to.equal(root);
      expect(root!.contains(serverStyle), 'the server-rendered nodes were kept').to.equal(true);
      const iframe = root!.querySelector('iframe');
      expect(iframe?.getAttribute('src')).to.equal(`${SERVICE_ORIGIN}/api/jsapi/open/SSR-KEY/`);
      expect(event.detail.url).to.equal(`${SERVICE_ORIGIN}/api/jsapi/open/SSR-KEY/`);
      expect(element.getAttribute('state')).to.equal('loading');
      expect(errors).to.deep.equal([]);
      expect(consoleErrors).to.deep.equal([]);
      element.parentElement!.remove();
    } finally {
      console.error = originalError;
    }
  });
});
