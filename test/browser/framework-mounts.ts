// The framework entries' mounts for the leak tests (issue 30, no leaks with a budget; leaks-react, -vue
// and -svelte.test.ts): each mount is a fresh app (a React root, a Vue app, a Svelte component) in its own
// container, showing one <pay-form> with its form opening, then unmounted by the framework. The key comes
// from the token endpoint on the page's origin (token-url, the usual SPA path: React and Vue keep `key`
// for themselves), so each mount also asks a token.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { PayForm } from '../../src/element/index.js';
import { origins } from './helpers.js';
import { budgetTest, FULL_RUNS } from './leak-cycles.js';

/** The 200 with PAY_FORM_LEAK_FULL=1 (leak-cycles.ts). */
export const MOUNTS = FULL_RUNS ? 200 : 30;

export interface Checkout {
  baseUrl: string;
  tokenUrl: string;
  orderRef: string;
  display: 'inline' | 'modal';
  /** Set in one mount in ten, so a status request is under way when it goes. */
  statusUrl: string | undefined;
  /** The key the token endpoint answers. */
  key: string;
}

/** Mounts `checkout` in `container` with the framework, `onReady` as its pay-form-ready handler; resolves to the unmount. */
export type Mount = (container: HTMLElement, checkout: Checkout, onReady: () => void) => Promise<() => unknown> | (() => unknown);

let serial = 0;

/** Waits for `promise`, failing after `ms`, and leaves no timer behind (open-wc's waitUntil leaves its time limit pending, which the heap would count). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A promise and the function that settles it, for a framework's event handler. */
function signal(): { heard: Promise<void>; hear: () => void } {
  let hear!: () => void;
  const heard = new Promise<void>((resolve) => (hear = resolve));
  return { heard, hear };
}

/** `kind` picks what the service's form does (test/browser/service-origin.mjs): a plain form, or one that pays at once. */
function checkout(framework: string, i: number, service: string, kind: 'plain' | 'success' = 'plain'): Checkout {
  const n = serial++;
  const key = `${kind}-${framework}-${n}`;
  return {
    baseUrl: service,
    tokenUrl: `/__token/raw?body=${encodeURIComponent(JSON.stringify({ key }))}`,
    orderRef: `${framework}-${n}`,
    display: i % 2 === 0 ? 'inline' : 'modal',
    statusUrl: i % 10 === 0 ? '/__status' : undefined,
    key,
  };
}

/**
 * `n` mounts and unmounts; one in five (inline and modal) waits until the framework's handler hears
 * pay-form-ready, so the token, the form's load, the reachability check and the status request are all
 * under way or done when it goes. Resolves to the keys of the forms it waited for.
 */
export async function frameworkMounts(framework: string, mount: Mount, n: number): Promise<string[]> {
  const { service } = await origins();
  const waited: string[] = [];
  for (let i = 0; i < n; i++) {
    const shown = checkout(framework, i, service);
    const container = document.createElement('div');
    document.body.append(container);
    const ready = signal();
    const unmount = await mount(container, shown, ready.hear);
    const el = container.querySelector<PayForm>('pay-form');
    expect(el, `${framework} rendered <pay-form>`).to.not.equal(null);
    await el!.updateComplete;
    if (i % 5 === 0) {
      await within(ready.heard, 8000, `${framework}'s pay-form-ready handler`);
      waited.push(shown.key);
    }
    await unmount();
    expect(container.querySelector('pay-form'), `${framework} removed <pay-form>`).to.equal(null);
    container.remove();
  }
  return waited;
}

/**
 * What the service and the token endpoint saw for `keys` since the last call: each waited mount opened
 * its form once and asked its token once (a second mount of the same component, as React's StrictMode
 * makes in development, must not open a second form).
 */
export async function expectOneFormEach(keys: string[]): Promise<void> {
  const opened = await executeServerCommand<{ key: string | null }[], undefined>('service-requests');
  const tokens = await executeServerCommand<{ path: string; body: string }[], undefined>('token-requests');
  // Drained, as the service's are: the next call sees only its own batch, and an engine never sees
  // another's (the stand-in server keeps the token requests of every engine and file until cleared).
  await executeServerCommand('token-requests-clear');
  for (const key of keys) {
    const orderRef = key.replace(/^\w+-/, '');
    expect(opened.filter((r) => r.key === key).length, `forms opened for ${key}`).to.equal(1);
    expect(tokens.filter((r) => JSON.parse(r.body || '{}').order_ref === orderRef).length, `tokens asked for ${orderRef}`).to.equal(1);
  }
}

/** Two apps on one page, each with its element: one pays, the other keeps its own form open. */
export async function twoOnOnePage(framework: string, mount: Mount): Promise<void> {
  const { service } = await origins();
  const shown = [checkout(framework, 0, service, 'plain'), checkout(framework, 1, service, 'success')];
  const apps = await Promise.all(
    shown.map(async (one) => {
      const container = document.createElement('div');
      document.body.append(container);
      let ready = false;
      const unmount = await mount(container, one, () => (ready = true));
      return { container, unmount, el: container.querySelector<PayForm>('pay-form')!, ready: () => ready };
    }),
  );
  const [open, paid] = apps as [(typeof apps)[0], (typeof apps)[0]];
  await waitUntil(() => paid.el.state === 'success', `${framework}: the second element's payment`, { timeout: 8000 });
  await waitUntil(open.ready, `${framework}: the first element's form`, { timeout: 8000 });
  expect(open.el.state).to.equal('open');
  expect(open.el.shadowRoot?.querySelector('iframe')?.src).to.include(encodeURIComponent(shown[0]!.key));
  await paid.unmount();
  expect(open.el.state, 'the first element after the second is unmounted').to.equal('open');
  await open.unmount();
  for (const app of apps) app.container.remove();
}

/**
 * A framework entry's leak suite: `MOUNTS` mounts leave nothing behind (leak-cycles.ts's budget), each
 * mount opens one form and asks one token, and two apps on one page keep their own state.
 */
export function frameworkSuite(framework: string, title: string, what: string, mount: Mount): void {
  describe(`leaks (${title})`, function () {
    this.timeout(200000);
    budgetTest(`${MOUNTS} mounts of ${what} leave nothing behind`, framework, (n) => frameworkMounts(framework, mount, n), MOUNTS);

    it('each mount opens one form and asks one token', async () => {
      await expectOneFormEach([]);
      await expectOneFormEach(await frameworkMounts(framework, mount, 10));
    });

    it('two elements on one page keep their own state', () => twoOnOnePage(framework, mount));
  });
}
