// display=modal: a native <dialog> over the page, a "Close" button, Escape, and focus coming back.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PayForm } from '../../src/element/index.js';
import { frameOf, mount, origins, typesOf, waitForEvent, type Recorded } from './helpers.js';

const dialogOf = (el: PayForm) => el.shadowRoot?.querySelector('dialog') ?? null;
const closeButtonOf = (el: PayForm) => el.shadowRoot?.querySelector<HTMLButtonElement>('[part="close-button"]') ?? null;

/** A button the person was on before the modal opened, focused, and the modal element after it. */
async function openModal(key: string): Promise<{ el: PayForm; events: Recorded[]; opener: HTMLButtonElement }> {
  const { service } = await origins();
  const opener = await fixture<HTMLButtonElement>(html`<button type="button">Pay now</button>`);
  opener.focus();
  const mounted = await mount({ 'base-url': service, key, display: 'modal' });
  await waitForEvent(mounted.events, 'pay-form-ready');
  return { ...mounted, opener };
}

describe('<pay-form display="modal">', () => {
  it('shows the form in a modal <dialog> with a close button named "Close"', async () => {
    const { el, events } = await openModal('plain-m1');
    const dialog = dialogOf(el);
    expect(dialog?.open).to.equal(true);
    expect(dialog?.matches(':modal')).to.equal(true);
    expect(dialog?.getAttribute('part')).to.equal('dialog');
    expect(frameOf(el)?.closest('dialog')).to.equal(dialog);
    expect((events[0]?.detail as { display: string }).display).to.equal('modal');
    // The button's name is its aria-label "Close" (the name computation takes it over the × glyph, and a
    // button's content is presentational): the glyph is all it holds.
    const button = closeButtonOf(el);
    expect(button?.getAttribute('aria-label')).to.equal('Close');
    expect(button?.textContent).to.equal('×');
    expect(button?.children.length).to.equal(0);
    expect(button?.getAttribute('part')).to.equal('close-button');
    expect(el.state).to.equal('open');
  });

  it('passes the accessibility audit', async () => {
    const { el } = await openModal('plain-m2');
    await expect(el).to.be.accessible();
  });

  it('the Close button fires pay-form-close reason user, removes the dialog and returns focus', async () => {
    const { el, events, opener } = await openModal('plain-m3');
    expect(document.activeElement).to.not.equal(opener);
    closeButtonOf(el)?.click();
    await el.updateComplete;
    expect(events.at(-1)).to.deep.equal({ type: 'pay-form-close', detail: { reason: 'user', result: null }, cancelable: false });
    expect(dialogOf(el)).to.equal(null);
    expect(el.state).to.equal('closed');
    expect(document.activeElement).to.equal(opener);
  });

  it('Escape fires pay-form-close reason user once and returns focus', async () => {
    const { el, events, opener } = await openModal('plain-m4');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => el.state === 'closed', 'closed by Escape');
    await el.updateComplete;
    expect(typesOf(events).filter((t) => t === 'pay-form-close')).to.have.length(1);
    expect(events.at(-1)?.detail).to.deep.equal({ reason: 'user', result: null });
    expect(dialogOf(el)).to.equal(null);
    expect(document.activeElement).to.equal(opener);
  });

  it('close() fires pay-form-close reason api and returns focus', async () => {
    const { el, events, opener } = await openModal('plain-m5');
    el.close();
    await el.updateComplete;
    expect(events.at(-1)?.detail).to.deep.equal({ reason: 'api', result: null });
    expect(dialogOf(el)).to.equal(null);
    expect(document.activeElement).to.equal(opener);
  });

  it('open() shows the modal again after it was closed', async () => {
    const { el } = await openModal('plain-m6');
    el.close();
    await el.updateComplete;
    el.open();
    await el.updateComplete;
    expect(dialogOf(el)?.open).to.equal(true);
  });

  it('a result arrives through the modal like inline', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'success-m7', display: 'modal' });
    await waitForEvent(events, 'pay-form-success');
    expect(el.state).to.equal('success');
  });

  it('closing after a result keeps the result: the state stays and pay-form-close says which result', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'success-m8', display: 'modal' });
    await waitForEvent(events, 'pay-form-success');
    closeButtonOf(el)?.click();
    await el.updateComplete;
    expect(events.at(-1)).to.deep.equal({ type: 'pay-form-close', detail: { reason: 'user', result: 'success' }, cancelable: false });
    expect(dialogOf(el)).to.equal(null);
    expect(el.state).to.equal('success');
    expect(el.getAttribute('state')).to.equal('success');
    el.close();
    expect(typesOf(events).filter((t) => t === 'pay-form-close')).to.have.length(1);
  });

  it('a fail result stays after close() too', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'fail-m9', display: 'modal' });
    await waitForEvent(events, 'pay-form-fail');
    el.close();
    await el.updateComplete;
    expect(events.at(-1)?.detail).to.deep.equal({ reason: 'api', result: 'fail' });
    expect(el.state).to.equal('fail');
  });

  // Escape never reaches the page while focus is inside the cross-origin form (docs/element.md), so
  // the Close button must stay on screen however tall the form is. The small screen is a 360 × 320
  // frame holding a page with the element (test/fixtures/pages/host.html): the dialog sizes itself to that
  // frame's viewport, in every engine, without resizing the browser's window.
  it('keeps the Close button on screen when the form is taller than the viewport and scrolled', async () => {
    const { service } = await origins();
    const attrs = { 'base-url': service, key: 'plain-m10', display: 'modal' };
    const frame = await fixture<HTMLIFrameElement>(
      html`<iframe style="width:360px;height:320px;border:0" src=${`/test/fixtures/pages/host.html?attrs=${encodeURIComponent(JSON.stringify(attrs))}`}></iframe>`,
    );
    const win = frame.contentWindow as Window & { payFormEvents?: Recorded[] };
    await waitUntil(() => win.payFormEvents?.some((e) => e.type === 'pay-form-ready'), 'the modal form is ready', { timeout: 8000 });
    const el = win.document.querySelector('pay-form') as PayForm;
    const dialog = dialogOf(el) as HTMLDialogElement;
    expect(dialog.scrollHeight).to.be.greaterThan(dialog.clientHeight);
    dialog.scrollTop = dialog.scrollHeight;
    await new Promise((resolve) => win.requestAnimationFrame(resolve));
    const box = (closeButtonOf(el) as HTMLButtonElement).getBoundingClientRect();
    expect(box.bottom).to.be.at.most(win.innerHeight);
    const hit = el.shadowRoot?.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    // Compared as a boolean: a failure message holding DOM nodes would not serialize.
    expect(hit?.closest('[part="close-button"]') === closeButtonOf(el), 'the Close button is under its own centre').to.equal(true);
  });
});
