// Result messages across two real origins: the page (localhost) and the service (127.0.0.1).
import { expect, waitUntil } from '@open-wc/testing';
import type { PayForm } from '../../src/element/index.js';
import { frameOf, mount, origins, settle, typesOf, waitForEvent, type Recorded } from './helpers.js';

/** Runs `code` inside a same-origin frame's own realm, so its messages come from that window. */
function runInFrame(frame: HTMLIFrameElement, code: string): void {
  const doc = frame.contentDocument;
  if (doc === null) throw new Error('frame is not same-origin');
  const script = doc.createElement('script');
  script.textContent = code;
  doc.body.append(script);
}

const post = (data: unknown) => `parent.postMessage(${JSON.stringify(data)}, ${JSON.stringify(location.origin)});`;
const SUCCESS = { type: 'pay-form:result', status: 'success' };
const FAIL = { type: 'pay-form:result', status: 'fail' };

/** An element whose own iframe is a quiet page on the page's origin (the stand-in's /__frame route). */
async function sameOriginForm(key: string): Promise<{ el: PayForm; events: Recorded[]; frame: HTMLIFrameElement }> {
  const { page } = await origins();
  const mounted = await mount({ 'base-url': `${page}/__frame`, key });
  await waitForEvent(mounted.events, 'pay-form-ready');
  return { ...mounted, frame: frameOf(mounted.el) as HTMLIFrameElement };
}

describe('<pay-form> result messages', () => {
  for (const status of ['success', 'fail'] as const) {
    it(`the service sends the frame to the ${status} return page: pay-form-${status} once, state ${status}`, async () => {
      const { service } = await origins();
      const { el, events } = await mount({ 'base-url': service, key: `${status}-a` });
      await waitForEvent(events, `pay-form-${status}`);
      expect(events.find((e) => e.type === `pay-form-${status}`)?.detail).to.deep.equal({ status });
      expect(el.getAttribute('state')).to.equal(status);
      await settle();
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', `pay-form-${status}`]);
    });
  }

  it('a return page that posts while still loading (the frame fires no load): ready still comes before the result', async () => {
    const { service } = await origins();
    const { el, events } = await mount({ 'base-url': service, key: 'loading-success-a' });
    await waitForEvent(events, 'pay-form-success');
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-success']);
    expect(el.state).to.equal('success');
  });

  it('ignores a result posted from the service origin (its own iframe, but not an allowed origin)', async () => {
    const { service } = await origins();
    const seen: MessageEvent[] = [];
    const spy = (event: MessageEvent) => seen.push(event);
    window.addEventListener('message', spy);
    try {
      const { el, events } = await mount({ 'base-url': service, key: 'spoof-a' });
      await waitUntil(() => seen.some((m) => m.origin === service), 'the spoof page posted', { timeout: 8000 });
      await settle();
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
      expect(el.state).to.equal('open');
    } finally {
      window.removeEventListener('message', spy);
    }
  });

  it('allowed-origins accepts results from a listed origin', async () => {
    const { service } = await origins();
    const { el, events } = await mount({
      'base-url': service,
      key: 'spoof-b',
      'allowed-origins': `https://other.example ${service}/ignored-path`,
    });
    await waitForEvent(events, 'pay-form-success');
    expect(el.state).to.equal('success');
  });

  it('ignores a valid message from another same-origin window that is not its iframe', async () => {
    const { el, events } = await sameOriginForm('quiet-1');
    const stranger = document.createElement('iframe');
    stranger.src = '/test/fixtures/pages/landed.html';
    document.body.append(stranger);
    try {
      await waitUntil(() => stranger.contentDocument?.readyState === 'complete' && stranger.contentDocument.body !== null);
      runInFrame(stranger, post(SUCCESS));
      window.postMessage(SUCCESS, location.origin);
      await settle();
      expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
      expect(el.state).to.equal('open');
    } finally {
      stranger.remove();
    }
  });

  it('ignores malformed messages from its own iframe, then takes the first result and ignores the second', async () => {
    const { el, events, frame } = await sameOriginForm('quiet-2');
    for (const bad of [
      'pay-form:result',
      { type: 'pay-form:result' },
      { type: 'pay-form:result', status: 'paid' },
      { type: 'pay-form:resul', status: 'success' },
      { type: 'pay-form:result', status: 'success', amount: 1 },
      null,
      [SUCCESS],
    ]) {
      runInFrame(frame, post(bad));
    }
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    runInFrame(frame, post(FAIL));
    await waitForEvent(events, 'pay-form-fail');
    runInFrame(frame, post(SUCCESS));
    runInFrame(frame, post(FAIL));
    await settle();
    expect(typesOf(events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-fail']);
    expect(el.state).to.equal('fail');
  });

  it('several elements on one page stay independent', async () => {
    const a = await sameOriginForm('quiet-3');
    const b = await sameOriginForm('quiet-4');
    runInFrame(a.frame, post(SUCCESS));
    await waitForEvent(a.events, 'pay-form-success');
    await settle();
    expect(typesOf(b.events)).to.deep.equal(['pay-form-open', 'pay-form-ready']);
    runInFrame(b.frame, post(FAIL));
    await waitForEvent(b.events, 'pay-form-fail');
    expect([a.el.state, b.el.state]).to.deep.equal(['success', 'fail']);
    expect(typesOf(a.events)).to.deep.equal(['pay-form-open', 'pay-form-ready', 'pay-form-success']);
    a.el.close();
    expect(b.el.state).to.equal('fail');
    expect(frameOf(b.el)).to.exist;
  });
});

/** Logs add/removeEventListener calls on `target`; returns the function that restores it. */
function spyListeners(target: EventTarget, added: [string, unknown][], removed: [string, unknown][]): () => void {
  const add = target.addEventListener;
  const remove = target.removeEventListener;
  const spy = (log: [string, unknown][], original: typeof add) =>
    function (this: EventTarget, ...args: Parameters<typeof add>) {
      log.push([args[0], args[1]]);
      return Reflect.apply(original, this, args) as void;
    };
  target.addEventListener = spy(added, add);
  target.removeEventListener = spy(removed, remove);
  return () => {
    target.addEventListener = add;
    target.removeEventListener = remove;
  };
}

describe('<pay-form> connection lifecycle', () => {
  it('removing and re-adding the element frames the form again and the result still arrives', async () => {
    const { service } = await origins();
    const { el, events, container } = await mount({ 'base-url': service, key: 'plain-life' });
    el.remove();
    expect(el.state).to.equal('idle');
    el.key = 'success-life';
    container.append(el);
    await el.updateComplete;
    expect(frameOf(el)?.src).to.equal(`${service}/api/jsapi/open/success-life/`);
    await waitForEvent(events, 'pay-form-success');
    expect(el.state).to.equal('success');
  });

  it('adds its message and securitypolicyviolation listeners on connect and removes exactly those on disconnect', async () => {
    const added: [string, unknown][] = [];
    const removed: [string, unknown][] = [];
    const restore = [spyListeners(window, added, removed), spyListeners(document, added, removed)];
    try {
      const el = document.createElement('pay-form');
      document.body.append(el);
      el.remove();
      document.body.append(el);
      el.remove();
      const ours = (list: [string, unknown][]) =>
        list.filter(([type]) => type === 'message' || type === 'securitypolicyviolation').map(([type]) => type);
      expect(ours(added)).to.deep.equal(['message', 'securitypolicyviolation', 'message', 'securitypolicyviolation']);
      expect(ours(removed)).to.deep.equal(ours(added));
      for (const [type, listener] of added.filter(([t]) => t === 'message' || t === 'securitypolicyviolation')) {
        expect(removed.some(([t, l]) => t === type && l === listener), type).to.equal(true);
      }
    } finally {
      for (const undo of restore) undo();
    }
  });
});
