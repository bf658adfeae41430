// The script-tag bundles as a merchant's page loads them: from the README's own <script> tag, with its
// integrity hash (the browser refuses a file whose hash differs), into a page with nothing else.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { mount, waitForEvent } from './helpers.js';

interface Loaded {
  defined: boolean;
  global: boolean;
  state: string | null;
  frameSrc: string | null;
  /** The iframe's height as laid out: the bundle's own style sheet sets 640px (a bare iframe is 150px). */
  frameHeight: string | null;
  errors: string[];
}

/** The README's script tag for `file`, pointed at the local build instead of the CDN. */
async function readmeScriptTag(file: string): Promise<string> {
  const readme = await (await fetch('/README.md')).text();
  const tag = readme.match(new RegExp(`<script\\b[^>]*/dist/${file.replace(/\./g, '\\.')}"[^>]*>`))?.[0];
  if (tag === undefined) throw new Error(`no script tag for ${file} in the README`);
  return tag.replace(/src="[^"]+"/, `src="/__dist/${file}"`);
}

async function loadInFrame(scriptTag: string, serviceOrigin: string): Promise<Loaded> {
  const frame = document.createElement('iframe');
  const body = `<pay-form base-url="${serviceOrigin}" key="BUNDLE-KEY"></pay-form>`;
  frame.srcdoc = `<!doctype html><script>window.errors = []; addEventListener('error', (e) => errors.push(String(e.message || e.target?.src)), true);</script>${scriptTag}</script>${body}`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const win = frame.contentWindow as (Window & { errors: string[]; PayFormBundle?: unknown }) | null;
  if (win === null) throw new Error('no frame window');
  // A refused script never defines the tag: wait for it a little, not forever.
  await Promise.race([win.customElements.whenDefined('pay-form'), new Promise((resolve) => setTimeout(resolve, 2000))]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const element = win.document.querySelector('pay-form');
  const loaded = {
    defined: win.customElements.get('pay-form') !== undefined,
    global: win.PayFormBundle !== undefined,
    state: element?.getAttribute('state') ?? null,
    frameSrc: element?.shadowRoot?.querySelector('iframe')?.getAttribute('src') ?? null,
    frameHeight: ((iframe) => (iframe ? win.getComputedStyle(iframe).height : null))(element?.shadowRoot?.querySelector('iframe')),
    errors: win.errors,
  };
  frame.remove();
  return loaded;
}

/** What a bundle's element says on a page in `lang` when refused at once (an ftp: base URL): the alert and its lang. */
async function speaksIn(lang: string, scriptTags: string[], serviceOrigin: string): Promise<{ errors: string[]; alert: [string, string] }> {
  const frame = document.createElement('iframe');
  frame.srcdoc = `<!doctype html><html lang="${lang}"><script>window.errors = []; addEventListener('error', (e) => errors.push(String(e.message || e.target?.src)), true);</script>${scriptTags.map((tag) => `${tag}</script>`).join('')}<pay-form base-url="ftp://${new URL(serviceOrigin).host}" key="K"></pay-form>`;
  document.body.append(frame);
  await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  const win = frame.contentWindow as (Window & { errors: string[] }) | null;
  if (win === null) throw new Error('no frame window');
  const alertOf = () => win.document.querySelector('pay-form')?.shadowRoot?.querySelector<HTMLElement>('[role="alert"]');
  // The ES module bundle renders again once its language's file has come: wait for a lang other than the first English, a little.
  await waitUntil(() => alertOf()?.textContent, 'the alert', { timeout: 4000 });
  await waitUntil(() => alertOf()?.lang !== 'en' || lang === 'pt-BR', 'the language', { timeout: 2000 }).catch(() => undefined);
  const alert = alertOf()!;
  const said = { errors: win.errors.filter((e) => !e.includes('pay-form.ru.js')), alert: [alert.textContent ?? '', alert.lang] as [string, string] };
  frame.remove();
  return said;
}

describe('script-tag bundles', () => {
  let service = '';
  before(async () => {
    service = (await executeServerCommand<{ service: string }, undefined>('origins')).service;
  });

  it('the ES module bundle, loaded by the README tag with its integrity, defines <pay-form> and opens the form', async () => {
    const loaded = await loadInFrame(await readmeScriptTag('pay-form.min.js'), service);
    expect(loaded.errors).to.deep.equal([]);
    expect(loaded.defined).to.equal(true);
    expect(loaded.frameSrc).to.equal(`${service}/api/jsapi/open/BUNDLE-KEY/`);
    expect(loaded.frameHeight).to.equal('640px', "the bundle's styles are on the element");
  });

  it('the classic-script bundle does the same and exposes window.PayFormBundle', async () => {
    const loaded = await loadInFrame(await readmeScriptTag('pay-form.iife.min.js'), service);
    expect(loaded.errors).to.deep.equal([]);
    expect(loaded.defined).to.equal(true);
    expect(loaded.global).to.equal(true);
    expect(loaded.frameSrc).to.equal(`${service}/api/jsapi/open/BUNDLE-KEY/`);
    expect(loaded.frameHeight).to.equal('640px', "the bundle's styles are on the element");
  });

  it('the browser refuses a bundle whose integrity hash does not match', async () => {
    const tag = (await readmeScriptTag('pay-form.min.js')).replace(/integrity="sha384-[^"]+"/, `integrity="sha384-${'A'.repeat(64)}"`);
    const loaded = await loadInFrame(tag, service);
    expect(loaded.defined).to.equal(false);
    expect(loaded.frameSrc).to.equal(null);
  });

  it('<html lang="ru">: the ES module bundle fetches pay-form.ru.js from beside itself; the classic script takes the README tag of it', async () => {
    const ru = await import('../../src/element/languages/ru.js');
    for (const tags of [[await readmeScriptTag('pay-form.min.js')], [await readmeScriptTag('pay-form.ru.js'), await readmeScriptTag('pay-form.iife.min.js')]]) {
      const said = await speaksIn('ru', tags, service);
      expect(said).to.deep.equal({ errors: [], alert: [ru.ru['invalid-base-url'], 'ru'] });
    }
  });

  it('a language the element has no file for (pt-BR), or whose file fails (blocked by its hash), is English, marked en, never empty', async () => {
    const english = { errors: [], alert: ['Payment is unavailable. Please contact the shop.', 'en'] };
    expect(await speaksIn('pt-BR', [await readmeScriptTag('pay-form.min.js')], service)).to.deep.equal(english);
    const forged = (await readmeScriptTag('pay-form.ru.js')).replace(/integrity="sha384-[^"]+"/, `integrity="sha384-${'A'.repeat(64)}"`);
    const said = await speaksIn('ru', [forged, await readmeScriptTag('pay-form.iife.min.js')], service);
    expect(said.alert).to.deep.equal(english.alert);
  });

  it("the return page's script, on docs/element.md's return page (its README hash, a CSP with no inline script), reports the result to the framing element and shows that result", async () => {
    for (const status of ['success', 'fail'] as const) {
      const { el, events } = await mount({ 'base-url': service, key: `docreturn-${status}-1` });
      await waitForEvent(events, `pay-form-${status}`);
      expect(el.state).to.equal(status);
      const frame = el.shadowRoot?.querySelector('iframe');
      const shown = [...(frame?.contentDocument?.querySelectorAll<HTMLElement>('[data-pay-form-result]') ?? [])].filter((p) => !p.hidden);
      expect(shown.map((p) => p.dataset['payFormResult'])).to.deep.equal([status]);
      el.remove();
    }
  });
});

describe('the popup script beside a script-tag bundle', () => {
  /** A framed page with the README's popup tag (first: it waits for the tag) if asked, the classic bundle's, then `body`. */
  async function popupPage(withPopup: boolean, body: string): Promise<HTMLIFrameElement> {
    const tags = `${withPopup ? `${await readmeScriptTag('pay-form-popup.min.js')}</script>` : ''}${await readmeScriptTag('pay-form.iife.min.js')}</script>`;
    const frame = document.createElement('iframe');
    frame.srcdoc = `<!doctype html>${tags}${body}`;
    document.body.append(frame);
    return frame;
  }

  /** A page with the README's popup tag (first: it waits for the tag) and `bundle`'s, an element with display="popup", open() called. */
  async function openPopup(withPopup: boolean): Promise<{ codes: string[]; button: boolean; opened: boolean; state: string | null }> {
    const { service } = await executeServerCommand<{ service: string }, undefined>('origins');
    const frame = await popupPage(withPopup, `<pay-form base-url="${service}" key="plain-popup-bundle" display="popup"></pay-form>`);
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    const win = frame.contentWindow as Window;
    await win.customElements.whenDefined('pay-form');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const el = win.document.querySelector('pay-form') as HTMLElement & { open(): void; updateComplete: Promise<unknown> };
    const codes: string[] = [];
    el.addEventListener('pay-form-error', (e) => codes.push((e as CustomEvent<{ code: string }>).detail.code));
    const windows: (Window | null)[] = [];
    const realOpen = win.open;
    win.open = (...args: Parameters<typeof window.open>) => {
      const opened = realOpen.apply(win, args);
      windows.push(opened);
      return opened;
    };
    el.open();
    await el.updateComplete;
    const result = {
      codes,
      button: !!el.shadowRoot?.querySelector('[part="popup-button"]'),
      opened: windows.some((w) => w !== null),
      state: el.getAttribute('state'),
    };
    for (const w of windows) w?.close();
    frame.remove();
    return result;
  }

  it('pay-form-popup.min.js, loaded by its README tag before the classic bundle, gives it the popup display', async () => {
    expect(await openPopup(true)).to.deep.equal({ codes: [], button: true, opened: true, state: 'open' });
  });

  it('without it, display="popup" opens nothing and says popup-blocked', async () => {
    expect(await openPopup(false)).to.deep.equal({ codes: ['popup-blocked'], button: false, opened: false, state: 'error' });
  });

  /** A page with the classic bundle (and the popup tag), an element whose form never loads (load-timeout 300 ms), with fallback="popup". */
  async function fallBack(withPopup: boolean): Promise<{ codes: string[]; button: boolean; state: string | null; alert: boolean }> {
    const { service } = await executeServerCommand<{ service: string }, undefined>('origins');
    const frame = await popupPage(
      withPopup,
      `<script>window.codes = []; addEventListener('pay-form-error', (e) => codes.push(e.detail.code));</script><pay-form base-url="${service}" key="hang-fallback-bundle-${withPopup}" load-timeout="300" fallback="popup"></pay-form>`,
    );
    const win = frame.contentWindow as Window & { codes: string[] };
    await waitUntil(() => win.codes?.length > 0, 'pay-form-error', { timeout: 15000 });
    const el = win.document.querySelector('pay-form') as HTMLElement & { updateComplete: Promise<unknown> };
    await el.updateComplete;
    const button = el.shadowRoot?.querySelector<HTMLElement>('[part="popup-button"]');
    const result = {
      codes: win.codes,
      button: !!button && !button.hidden,
      state: el.getAttribute('state'),
      alert: !!el.shadowRoot?.querySelector('[role="alert"]')?.textContent,
    };
    frame.remove();
    return result;
  }

  it('fallback="popup" on a script-tag page: with pay-form-popup.min.js the popup\'s button; without it the error stays on show', async () => {
    expect(await fallBack(true)).to.deep.equal({ codes: ['load-timeout'], button: true, state: 'idle', alert: false });
    expect(await fallBack(false)).to.deep.equal({ codes: ['load-timeout'], button: false, state: 'error', alert: true });
  });
});

describe('the modal script beside a script-tag bundle', () => {
  /** A page with the README's modal tag (first: it waits for the tag) if asked, then `bundle`'s, and an element with display="modal". */
  async function modalPage(bundle: string, withModal: boolean): Promise<{ errors: string[]; dialog: boolean; open: boolean; framed: boolean; radius: string | null }> {
    const { service } = await executeServerCommand<{ service: string }, undefined>('origins');
    const tags = `${withModal ? `${await readmeScriptTag('pay-form-modal.min.js')}</script>` : ''}${await readmeScriptTag(bundle)}</script>`;
    const frame = document.createElement('iframe');
    frame.srcdoc = `<!doctype html><script>window.errors = []; addEventListener('error', (e) => errors.push(String(e.message || e.target?.src)), true);</script>${tags}<pay-form base-url="${service}" key="plain-modal-bundle" display="modal"></pay-form>`;
    document.body.append(frame);
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    const win = frame.contentWindow as Window & { errors: string[] };
    await win.customElements.whenDefined('pay-form');
    const root = () => win.document.querySelector('pay-form')?.shadowRoot;
    await waitUntil(() => root()?.querySelector('iframe'), 'the form is framed', { timeout: 8000 });
    const dialog = root()?.querySelector('dialog');
    const result = {
      errors: win.errors,
      dialog: !!dialog,
      open: !!dialog?.open,
      framed: dialog ? dialog.contains(root()!.querySelector('iframe')) : root()?.querySelector('iframe')?.parentNode === root(),
      // The modal's own styles come with its script (modal.ts): a rounded dialog.
      radius: dialog ? win.getComputedStyle(dialog).borderTopLeftRadius : null,
    };
    frame.remove();
    return result;
  }

  for (const bundle of ['pay-form.min.js', 'pay-form.iife.min.js']) {
    it(`${bundle} with pay-form-modal.min.js by its README tag: the form opens in a modal dialog, styled`, async () => {
      expect(await modalPage(bundle, true)).to.deep.equal({ errors: [], dialog: true, open: true, framed: true, radius: '8px' });
    });

    it(`${bundle} without it: display="modal" shows the form inline, never nothing`, async () => {
      expect(await modalPage(bundle, false)).to.deep.equal({ errors: [], dialog: false, open: false, framed: true, radius: null });
    });
  }
});
