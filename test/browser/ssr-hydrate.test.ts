// The server's <pay-form> (rendered by @lit-labs/ssr from dist/, see test/support/apps/ssr-render.mjs) upgrades
// in the browser: the element builds its shadow root and opens the form, without errors. The element is a
// ReactiveElement, so lit-ssr writes only the tag and its attributes; markup that still carries a
// declarative shadow root (cached from an older render) is adopted, emptied and used the same way.
// Apps that load Lit's hydrate support (once needed here) keep working.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { expect } from '@open-wc/testing';
// Not ./helpers.js: it imports the element, and here the tag must be defined only after the HTML is in.
import { executeServerCommand } from '@web/test-runner-commands';

const SHADOWED = (base: string, key: string) =>
  `<pay-form base-url="${base}" key="${key}"><template shadowrootmode="open"><style>iframe{}</style><p>old</p></template></pay-form>`;

function insert(html: string): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  // The HTML parser attaches declarative shadow roots, as it does for a server-rendered page.
  host.setHTMLUnsafe(html);
  const element = host.querySelector('pay-form');
  if (element === null) throw new Error('no <pay-form> in the HTML');
  return element;
}

describe('SSR upgrade', () => {
  const errors: string[] = [];
  const consoleErrors: string[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.message);
  const originalError = console.error;
  before(() => {
    window.addEventListener('error', onError);
    console.error = (...args: unknown[]) => {
      consoleErrors.push(args.map(String).join(' '));
      originalError(...args);
    };
  });
  after(() => {
    window.removeEventListener('error', onError);
    console.error = originalError;
  });

  it('upgrades server-rendered <pay-form>s, plain and with a declarative shadow root, and opens their forms without errors', async () => {
    const SERVICE_ORIGIN = (await executeServerCommand<{ service: string }, undefined>('origins')).service;
    const response = await fetch(`/__ssr/pay-form?${new URLSearchParams({ 'base-url': SERVICE_ORIGIN, key: 'SSR-KEY' })}`);
    expect(response.status).to.equal(200);
    const plain = insert(await response.text());
    expect(plain.shadowRoot === null, 'lit-ssr writes no shadow root').to.equal(true);
    const shadowed = insert(SHADOWED(SERVICE_ORIGIN, 'DSD-KEY'));
    const oldRoot = shadowed.shadowRoot;
    expect(oldRoot !== null, 'declarative shadow root before upgrade').to.equal(true);
    expect(customElements.get('pay-form')).to.equal(undefined);

    const opened = [plain, shadowed].map(
      (element) => new Promise<CustomEvent>((resolve) => element.addEventListener('pay-form-open', (e) => resolve(e as CustomEvent), { once: true })),
    );
    const { PayForm } = await import('../../src/element/index.js');
    for (const [element, key, index] of [[plain, 'SSR-KEY', 0], [shadowed, 'DSD-KEY', 1]] as const) {
      expect(element instanceof PayForm).to.equal(true);
      const event = await opened[index]!;
      await (element as InstanceType<typeof PayForm>).updateComplete;
      const url = `${SERVICE_ORIGIN}/api/jsapi/open/${key}/`;
      expect(event.detail.url).to.equal(url);
      expect(element.shadowRoot!.querySelector('iframe')?.getAttribute('src')).to.equal(url);
      expect(element.getAttribute('state')).to.equal('loading');
    }
    expect(shadowed.shadowRoot === oldRoot, 'the declarative root is reused').to.equal(true);
    expect(oldRoot!.querySelector('p, style') === null, 'the stale nodes were dropped').to.equal(true);
    expect(errors).to.deep.equal([]);
    expect(consoleErrors).to.deep.equal([]);
    plain.parentElement!.remove();
    shadowed.parentElement!.remove();
  });
});
