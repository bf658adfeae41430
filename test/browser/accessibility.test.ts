// Accessible in every state (WCAG 2.2 AA): what assistive technology gets from the element itself, with
// no listener on the page: a loading status, the result, an error as an alert in a shopper's words;
// axe's WCAG 2.2 AA rules in each state; paying by keyboard alone in each display; and where focus goes
// after close, an error or removal. csp-blocked's alert is checked in csp.test.ts, under its CSP.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import { DEFAULT_TEXTS, type PayForm, type PayFormErrorDetail } from '../../src/element/index.js';
import { axTree, liveText } from './axe.js';
import { frameOf, origins } from './helpers.js';

const closedOrigin = () => executeServerCommand<string, undefined>('closed-origin');
let keys = 0;
/** A key the stand-in service answers with `behaviour` (service-origin.mjs), new for each use. */
const key = (behaviour: string) => `${behaviour}-a11y${++keys}`;

/** A <pay-form> with these attributes and no listener at all, as on a page that handles none of its events. */
async function bare(attrs: Record<string, string>, setup?: (el: PayForm) => void): Promise<PayForm> {
  const container = await fixture<HTMLElement>(html`<div></div>`);
  const el = document.createElement('pay-form');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  setup?.(el);
  container.append(el);
  await el.updateComplete;
  return el;
}

async function inState(el: PayForm, state: string): Promise<void> {
  await waitUntil(() => el.state === state, `state ${state} (now ${el.state})`, { timeout: 8000 });
  await el.updateComplete;
}

/** A button the shopper was on when the form started, focused. */
async function opener(): Promise<HTMLButtonElement> {
  const button = await fixture<HTMLButtonElement>(html`<button type="button">Pay now</button>`);
  button.focus();
  return button;
}

/**
 * Follows what the stand-in form in `source` (a `pay-` key) reports has focus: `last()` is the button
 * focused last, and `onPay()` waits for it to be Pay, failing with a message (the button focus went to,
 * or none) rather than a mocha timeout.
 */
function formFocus(source: () => Window | null | undefined): { last(): string | undefined; onPay(): Promise<void> } {
  let last: string | undefined;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { test?: unknown; on?: unknown };
    if (event.source === source() && data?.test === 'focus') last = String(data.on);
  };
  addEventListener('message', onMessage);
  return {
    last: () => last,
    async onPay() {
      try {
        await waitUntil(() => last === 'Pay', `the form's Pay button has focus (last focused: ${last ?? 'nothing'})`, { timeout: 8000 });
      } finally {
        removeEventListener('message', onMessage);
      }
    },
  };
}

/**
 * Presses Tab until focus is inside the element's frame (the form, with its buttons: a `pay-` key), at
 * most a few times, then waits for the form's Pay button to have it, where the next key goes. Each Tab
 * waits for focus to show in the page or the form before the next, so a slow engine is not pressed
 * twice into the form (past Pay, to Decline).
 */
async function tabIntoForm(el: PayForm): Promise<void> {
  const focus = formFocus(() => frameOf(el)?.contentWindow);
  const inForm = () => el.shadowRoot?.activeElement === frameOf(el) || focus.last() !== undefined;
  for (let i = 0; i < 5 && !inForm(); i++) {
    await sendKeys({ press: 'Tab' });
    await waitUntil(inForm, 'focus moves', { timeout: 1000 }).catch(() => undefined);
  }
  expect(inForm(), 'focus is in the form').to.equal(true);
  await focus.onPay();
}

/**
 * Presses Enter, which focus has put on the form's Pay button in `source`, and returns once the form
 * reports the key. A key that never reaches the frame (Chromium's input routing into a cross-origin
 * frame lost one once in CI, Pay focused) is pressed again, at most twice, and logged; a form that got
 * Enter on another button fails here, naming the button.
 */
async function enterOnPay(source: () => Window | null | undefined): Promise<void> {
  let on: string | undefined;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { test?: unknown; key?: unknown; on?: unknown };
    if (event.source === source() && data?.test === 'key' && data.key === 'Enter') on = String(data.on);
  };
  addEventListener('message', onMessage);
  try {
    for (let presses = 1; on === undefined; presses++) {
      if (presses > 1) console.log(`Enter did not reach the form; pressing it again (${presses})`);
      await sendKeys({ press: 'Enter' });
      // The last press's wait fails the test; an earlier one's only leads to the next press.
      const heard = waitUntil(() => on !== undefined, 'the form got Enter', { timeout: 4000 });
      await (presses === 3 ? heard : heard.catch(() => undefined));
    }
  } finally {
    removeEventListener('message', onMessage);
  }
  expect(on, 'the button Enter was pressed on').to.equal('Pay');
}

/** Presses Enter (on the form's Pay button) and waits for the element to say the payment succeeded. */
async function enterPays(el: PayForm): Promise<void> {
  let paid = false;
  el.addEventListener('pay-form-success', () => (paid = true), { once: true });
  await enterOnPay(() => frameOf(el)?.contentWindow);
  await waitUntil(() => paid, 'pay-form-success after Enter on Pay', { timeout: 15000 }).catch((error: Error) => {
    // What the shopper would see instead: the element's state, and the page the frame is on when it is ours.
    let frame = 'the service';
    try {
      frame = frameOf(el)?.contentWindow?.location.href ?? 'no frame';
    } catch {
      // still on the form's origin
    }
    throw new Error(`${error.message} (state ${el.state}, frame on ${frame})`);
  });
}

const dialogOf = (el: PayForm) => el.shadowRoot?.querySelector('dialog') ?? null;
const quiet = { status: '', alert: '' };

describe('<pay-form> accessibility: what the element says in each state', () => {
  it('idle: nothing to say, two empty live regions ready to speak, and no violation', async () => {
    const el = await bare({});
    expect(liveText(el)).to.deep.equal(quiet);
    expect(axTree(el).map((node) => node.role)).to.deep.equal(['status', 'alert']);
    await expect(el).to.be.accessible();
  });

  it('loading (the token request): a visible status says so', async () => {
    const el = await bare({ 'token-url': '/__token/hang', 'load-timeout': '5000' });
    expect(el.state).to.equal('loading');
    expect(liveText(el)).to.deep.equal({ status: DEFAULT_TEXTS.loading, alert: '' });
    const status = el.shadowRoot?.querySelector('[role="status"]') as HTMLElement;
    expect(status.getBoundingClientRect().height).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('loading (the frame, inline): the status stays until the form is there', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('hang') });
    expect(el.state).to.equal('loading');
    expect(liveText(el)).to.deep.equal({ status: DEFAULT_TEXTS.loading, alert: '' });
    await expect(el).to.be.accessible();
  });

  it('loading (the frame, modal): the dialog is never blank; it says "loading" and is described by it', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('hang'), display: 'modal' });
    const dialog = dialogOf(el) as HTMLDialogElement;
    expect(dialog.open).to.equal(true);
    const tree = axTree(el);
    expect(tree.find((node) => node.role === 'dialog')?.name).to.equal('Payment form');
    expect(tree.find((node) => node.role === 'status')?.text).to.equal(DEFAULT_TEXTS.loading);
    expect(tree.find((node) => node.role === 'button')?.name).to.equal('Close');
    // The description read out when the dialog opens is the status.
    const described = el.shadowRoot?.getElementById(dialog.getAttribute('aria-describedby') ?? '');
    expect(described?.getAttribute('role')).to.equal('status');
    expect(dialog.contains(described ?? null)).to.equal(true);
    expect((described as HTMLElement).getBoundingClientRect().height).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('open inline: the named frame, nothing announced', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('plain') });
    await inState(el, 'open');
    expect(liveText(el)).to.deep.equal(quiet);
    await expect(el).to.be.accessible();
  });

  it('open modal: a named dialog with a Close button, the status back to empty', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('plain'), display: 'modal' });
    await inState(el, 'open');
    const tree = axTree(el);
    expect(tree.filter((node) => node.role === 'dialog').map((node) => node.name)).to.deep.equal(['Payment form']);
    expect(tree.filter((node) => node.role === 'button').map((node) => node.name)).to.deep.equal(['Close']);
    expect(liveText(el)).to.deep.equal(quiet);
    await expect(el).to.be.accessible();
  });

  for (const [status, display] of [
    ['success', 'inline'],
    ['fail', 'inline'],
    ['success', 'modal'],
  ] as const) {
    it(`${status} (${display}): the result is announced politely`, async () => {
      const { service } = await origins();
      const el = await bare({ 'base-url': service, key: key(status), display });
      await inState(el, status);
      expect(liveText(el)).to.deep.equal({ status: DEFAULT_TEXTS[status], alert: '' });
      await expect(el).to.be.accessible();
    });
  }

  const errors: [code: PayFormErrorDetail['code'], attrs: () => Promise<Record<string, string>>][] = [
    ['invalid-base-url', async () => ({ 'base-url': 'ftp://pay.example', key: 'k' })],
    ['invalid-key', async () => ({ 'base-url': (await origins()).service, key: '..' })],
    ['invalid-redirect-url', async () => ({ 'redirect-url': 'javascript:alert(1)' })],
    ['token-request-failed', async () => ({ 'token-url': '/__token/raw?status=500' })],
    ['load-timeout', async () => ({ 'base-url': (await origins()).service, key: key('hang'), 'load-timeout': '300' })],
    ['service-unreachable', async () => ({ 'base-url': await closedOrigin(), key: key('plain') })],
    ['invalid-status-url', async () => ({ 'status-url': 'https://elsewhere.example/status', 'order-ref': 'o-1', 'await-settled': '' })],
    ['settle-timeout', async () => ({ 'status-url': '/__status', 'order-ref': 'unknown-a11y', 'await-settled': '' })],
  ];
  for (const [code, attrs] of errors) {
    it(`${code}: an alert in the shopper's words in place of the form; the code and message stay in the event`, async () => {
      let detail: PayFormErrorDetail | undefined;
      const el = await bare(await attrs(), (el) => el.addEventListener('pay-form-error', (e) => (detail = e.detail)));
      await waitUntil(() => detail !== undefined, 'pay-form-error', { timeout: 8000 });
      await el.updateComplete;
      expect(detail?.code).to.equal(code);
      expect(el.state).to.equal('error');
      expect(frameOf(el)).to.equal(null);
      const said = liveText(el);
      expect(said).to.deep.equal({ status: '', alert: DEFAULT_TEXTS[code] });
      expect(said.alert).to.not.include(detail?.message ?? '');
      await expect(el).to.be.accessible();
    });
  }

  it('service-unreachable with no listener on the page: a non-empty alert is shown', async () => {
    const el = await bare({ 'base-url': await closedOrigin(), key: key('plain') });
    await inState(el, 'error');
    const alert = el.shadowRoot?.querySelector('[role="alert"]') as HTMLElement;
    expect(alert.textContent).to.equal(DEFAULT_TEXTS['service-unreachable']);
    expect(alert.getBoundingClientRect().height).to.be.greaterThan(0);
  });

  it('pay-form-error is cancelable: preventDefault() shows nothing, and the state is still error', async () => {
    const el = await bare({ 'base-url': await closedOrigin(), key: key('plain') }, (el) =>
      el.addEventListener('pay-form-error', (event) => event.preventDefault()),
    );
    await inState(el, 'error');
    expect(liveText(el)).to.deep.equal(quiet);
    expect(el.shadowRoot?.querySelector('[role="alert"]')?.childNodes.length).to.equal(0);
  });

  it('open() after an error takes the alert away', async () => {
    const el = await bare({ 'token-url': '/__token/raw?status=500' });
    await inState(el, 'error');
    el.tokenUrl = '/__token/hang';
    await el.updateComplete;
    expect(liveText(el)).to.deep.equal({ status: DEFAULT_TEXTS.loading, alert: '' });
  });
});

describe('<pay-form> accessibility: the page sets the words', () => {
  it('the texts property replaces any text, keeps the defaults for the rest, and ignores what is not a string', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('hang'), display: 'modal' }, (el) => {
      el.texts = { loading: 'Chargement du formulaire…', close: 'Fermer', fail: 42 as unknown as string };
    });
    expect(liveText(el).status).to.equal('Chargement du formulaire…');
    expect(axTree(el).find((node) => node.role === 'button')?.name).to.equal('Fermer');
    el.texts = { ...el.texts, loading: 'Bitte warten…' };
    await el.updateComplete;
    expect(liveText(el).status).to.equal('Bitte warten…');
  });

  it('the texts attribute takes the same keys as JSON, for pages without script', async () => {
    const el = await bare({ 'redirect-url': 'data:text/html,x', texts: '{"invalid-redirect-url":"Paiement indisponible."}' });
    await inState(el, 'error');
    expect(liveText(el).alert).to.equal('Paiement indisponible.');
  });

});

describe('<pay-form> accessibility: paying by keyboard alone', function () {
  // Hang guard only: each step has its own bounded wait, and a lost key is pressed again.
  this.timeout(60000);
  it('inline: Tab from the page reaches the form, Enter on Pay pays', async () => {
    const { service } = await origins();
    await opener();
    const el = await bare({ 'base-url': service, key: key('pay') });
    await inState(el, 'open');
    await tabIntoForm(el);
    await enterPays(el);
    await el.updateComplete;
    expect(liveText(el).status).to.equal(DEFAULT_TEXTS.success);
  });

  it('modal: focus starts on Close, which shows a focus ring; Tab reaches the form, Enter on Pay pays', async () => {
    const { service } = await origins();
    await opener();
    const el = await bare({ 'base-url': service, key: key('pay'), display: 'modal' });
    await inState(el, 'open');
    const close = el.shadowRoot?.activeElement as HTMLButtonElement;
    expect(close.getAttribute('part')).to.equal('close-button');
    // The engine's own ring for keyboard focus is drawn.
    expect(close.matches(':focus-visible'), 'Close shows where focus is').to.equal(true);
    expect(getComputedStyle(close).outlineStyle).to.not.equal('none');
    await tabIntoForm(el);
    await enterPays(el);
  });

  it('redirect: the page goes to the form, where Tab and Enter on Pay reach the success page', async () => {
    const { service, page } = await origins();
    const frame = document.createElement('iframe');
    let formLoaded = false;
    frame.src = `/test/fixtures/pages/host.html?attrs=${encodeURIComponent(JSON.stringify({ 'base-url': service, key: key('pay'), display: 'redirect' }))}`;
    document.body.append(frame);
    const href = () => {
      try {
        return frame.contentWindow?.location.href;
      } catch {
        return 'the service'; // another origin: the form
      }
    };
    frame.addEventListener('load', () => (formLoaded ||= href() === 'the service'));
    try {
      await waitUntil(() => formLoaded, 'the page went to the form', { timeout: 8000 });
      const focus = formFocus(() => frame.contentWindow);
      frame.focus();
      await sendKeys({ press: 'Tab' });
      await focus.onPay();
      await enterOnPay(() => frame.contentWindow);
      const landed = `${page}/test/fixtures/pages/return.html?status=success`;
      await waitUntil(() => href() === landed, 'the success page', { timeout: 15000 });
    } finally {
      frame.remove();
    }
  });
});

describe('<pay-form> accessibility: focus never falls to <body>', () => {
  it('Close in the modal while the opener is disabled: focus goes to the element, focusable for that moment', async () => {
    const { service } = await origins();
    const button = await opener();
    const el = await bare({ 'base-url': service, key: key('plain'), display: 'modal' });
    await inState(el, 'open');
    button.disabled = true;
    (el.shadowRoot?.querySelector('[part="close-button"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(document.activeElement === el, 'focus on the element').to.equal(true);
    expect(el.getAttribute('tabindex')).to.equal('-1');
    button.disabled = false;
    button.focus();
    expect(el.hasAttribute('tabindex')).to.equal(false);
  });

  it('an error that removes the form with focus in it: focus goes back to the opener, the alert says why', async () => {
    const { service } = await origins();
    const button = await opener();
    const el = await bare({ 'base-url': service, key: key('hang'), 'load-timeout': '400' });
    frameOf(el)?.focus();
    expect(document.activeElement === el, 'focus in the form').to.equal(true);
    await inState(el, 'error');
    expect(document.activeElement === button, 'focus on the opener').to.equal(true);
    expect(liveText(el).alert).to.equal(DEFAULT_TEXTS['load-timeout']);
  });

  it('an error after the page disabled the opener: focus goes to the element, which holds the alert', async () => {
    const button = await opener();
    const el = await bare({ 'token-url': '/__token/hang', 'load-timeout': '300' });
    button.disabled = true;
    await inState(el, 'error');
    expect(document.activeElement === el, 'focus on the element').to.equal(true);
    expect(liveText(el).alert).to.equal(DEFAULT_TEXTS['token-request-failed']);
  });

  const leave = { 'close()': (el: PayForm) => el.close(), removal: (el: PayForm) => el.remove() };
  for (const [how, display] of [
    ['close()', 'inline'],
    ['removal', 'inline'],
    ['removal', 'modal'],
  ] as const) {
    it(`${how} (${display}) with focus in the form: focus goes back to the opener`, async () => {
      const { service } = await origins();
      const button = await opener();
      const el = await bare({ 'base-url': service, key: key('pay'), display });
      await inState(el, 'open');
      await tabIntoForm(el);
      leave[how](el);
      await el.updateComplete;
      expect(document.activeElement === button, 'focus on the opener').to.equal(true);
    });
  }

  it('nothing moves focus when no control had it when the form started (a form opened on page load)', async () => {
    const el = await bare({ 'token-url': '/__token/raw?status=500' });
    await inState(el, 'error');
    expect(document.activeElement === document.body).to.equal(true);
    expect(el.hasAttribute('tabindex')).to.equal(false);
  });
});

describe('<pay-form> accessibility: forced colours', () => {
  it('the dialog has a transparent 1px border, which forced colours paint as its edge', async () => {
    const { service } = await origins();
    const el = await bare({ 'base-url': service, key: key('plain'), display: 'modal' });
    const style = getComputedStyle(dialogOf(el) as HTMLDialogElement);
    expect([style.borderTopStyle, style.borderTopWidth]).to.deep.equal(['solid', '1px']);
    expect(style.borderTopColor).to.equal('rgba(0, 0, 0, 0)');
  });
});
