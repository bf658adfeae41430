// The element's language (src/element/language.ts, docs/element.md "Language"): found as :lang() finds
// it, sent with the token request, and the words it shows and announces in it, each marked with the
// language it is in. The npm way: the page registers the languages it uses (pay-form/languages); the
// script-tag files are proved in bundle.test.ts, the service's form language in test/e2e/language.test.ts.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { DEFAULT_TEXTS, type PayForm } from '../../src/element/index.js';
import { addLanguages, de, hi, kk, ru } from '../../src/element/languages/index.js';
import { axTree } from './axe.js';
import { mount as mountElement, origins } from './helpers.js';

interface TokenRequest {
  body: string;
}
/** The `language` of each token request the page's endpoint received, once `count` of them have arrived. */
async function tokenLanguages(count: number): Promise<(string | undefined)[]> {
  let seen: TokenRequest[] = [];
  await waitUntil(async () => (seen = await executeServerCommand<TokenRequest[], undefined>('token-requests')).length >= count, `${count} token requests`, { timeout: 8000 });
  return seen.map((r) => (JSON.parse(r.body) as { language?: string }).language);
}

let keys = 0;
const key = (behaviour: string) => `${behaviour}-lang${++keys}`;

/** What the two live regions say, and the language each is marked in. */
function said(el: PayForm): { status: [string, string]; alert: [string, string] } {
  const region = (role: string) => el.shadowRoot?.querySelector(`[role="${role}"]`) as HTMLElement;
  const pair = (node: HTMLElement): [string, string] => [node.textContent ?? '', node.lang];
  return { status: pair(region('status')), alert: pair(region('alert')) };
}

const mount = async (attrs: Record<string, string>, setup?: (el: PayForm) => void) => (await mountElement(attrs, setup)).el;

async function inState(el: PayForm, state: string): Promise<void> {
  await waitUntil(() => el.state === state, `state ${state} (now ${el.state})`, { timeout: 8000 });
  await el.updateComplete;
}

describe('<pay-form> language', () => {
  const pageLang = document.documentElement.lang;
  before(() => addLanguages({ ru, de, hi, kk }));
  beforeEach(() => executeServerCommand('token-requests-clear'));
  afterEach(() => {
    document.documentElement.lang = pageLang;
  });

  it('<html lang="ru">: the token request says ru, and loading, the error and the result are Russian, marked lang="ru"', async () => {
    document.documentElement.lang = 'ru';
    const loading = await mount({ 'token-url': '/__token/hang', 'load-timeout': '5000' });
    expect(said(loading).status).to.deep.equal([ru.loading, 'ru']);
    expect(await tokenLanguages(1)).to.deep.equal(['ru']);
    loading.remove();

    const failed = await mount({ 'token-url': '/__token/raw?status=500' });
    await inState(failed, 'error');
    expect(said(failed).alert).to.deep.equal([ru['token-request-failed'], 'ru']);
    expect(ru['token-request-failed']).to.equal('Форма оплаты не загрузилась. Попробуйте позже.');

    const { service } = await origins();
    const paid = await mount({ 'base-url': service, key: key('success') });
    await inState(paid, 'success');
    expect(said(paid).status).to.deep.equal(['Спасибо! Подтверждаем оплату…', 'ru']);
  });

  it("the modal's accessible name and its Close button's are in the language, marked so", async () => {
    document.documentElement.lang = 'ru';
    const { service } = await origins();
    const el = await mount({ 'base-url': service, key: key('hang'), display: 'modal' });
    const dialog = el.shadowRoot?.querySelector('dialog') as HTMLDialogElement;
    const close = el.shadowRoot?.querySelector('[part="close-button"]') as HTMLButtonElement;
    expect([dialog.getAttribute('aria-label'), dialog.lang]).to.deep.equal(['Форма оплаты', 'ru']);
    expect([close.getAttribute('aria-label'), close.lang]).to.deep.equal(['Закрыть', 'ru']);
    expect(axTree(el).find((node) => node.role === 'button')?.name).to.equal('Закрыть');
    const iframe = el.shadowRoot?.querySelector('iframe') as HTMLIFrameElement;
    expect([iframe.title, iframe.lang]).to.deep.equal(['Форма оплаты', 'ru']);
    // A frame-title of the page's own is the page's, in the page's language.
    el.frameTitle = 'Оплата заказа 42';
    await el.updateComplete;
    expect(dialog.getAttribute('aria-label')).to.equal('Оплата заказа 42');
  });

  it('de-AT speaks German, hi Hindi; the tag goes to token-url as written', async () => {
    for (const [lang, texts] of [['de-AT', de], ['hi', hi]] as const) {
      document.documentElement.lang = lang;
      const el = await mount({ 'token-url': '/__token/hang', 'load-timeout': '5000' });
      expect(said(el).status).to.deep.equal([texts.loading, lang]);
      // Kept until its request has arrived: leaving the page aborts it.
      await tokenLanguages(lang === 'hi' ? 2 : 1);
      el.remove();
    }
    expect(await tokenLanguages(2)).to.deep.equal(['de-AT', 'hi']);
  });

  it('pt-BR, which the element has no words for: English, marked lang="en", and pt-BR still goes to token-url', async () => {
    document.documentElement.lang = 'pt-BR';
    const el = await mount({ 'token-url': '/__token/raw?status=500' });
    await inState(el, 'error');
    expect(said(el).alert).to.deep.equal([DEFAULT_TEXTS['token-request-failed'], 'en']);
    expect(await tokenLanguages(1)).to.deep.equal(['pt-BR']);
  });

  it('the language attribute wins over lang, for the words and the token request', async () => {
    document.documentElement.lang = 'ru';
    const el = await mount({ 'token-url': '/__token/hang', 'load-timeout': '5000', language: 'de-AT' });
    expect(said(el).status).to.deep.equal([de.loading, 'de-AT']);
    expect(await tokenLanguages(1)).to.deep.equal(['de-AT']);
    el.language = null;
    await el.updateComplete;
    expect(said(el).status).to.deep.equal([ru.loading, 'ru']);
  });

  it("the nearest lang wins, the element's own or an ancestor's, also out of a shadow root to its host", async () => {
    document.documentElement.lang = 'ru';
    const own = await mount({ 'token-url': '/__token/hang', 'load-timeout': '5000', lang: 'hi' });
    expect(said(own).status).to.deep.equal([hi.loading, 'hi']);
    const host = await fixture<HTMLElement>(html`<section lang="kk"><div></div></section>`);
    const shadowed = document.createElement('pay-form');
    Object.assign(shadowed, { tokenUrl: '/__token/hang', loadTimeout: 5000 });
    (host.firstElementChild as HTMLElement).attachShadow({ mode: 'open' }).append(shadowed);
    await shadowed.updateComplete;
    expect(said(shadowed).status).to.deep.equal([kk.loading, 'kk']);
    expect(await tokenLanguages(2)).to.deep.equal(['hi', 'kk']);
  });

  it('a single-page app switching <html lang> between checkouts: open() asks and speaks in the new language', async () => {
    document.documentElement.lang = 'ru';
    const el = await mount({ 'token-url': '/__token/raw?status=500' });
    await inState(el, 'error');
    document.documentElement.lang = 'de';
    el.tokenUrl = '/__token/hang';
    await el.updateComplete;
    expect(said(el).status).to.deep.equal([de.loading, 'de']);
    expect(await tokenLanguages(2)).to.deep.equal(['ru', 'de']);
  });

  it('texts overrides any key in the language; a key a language lacks is English, marked lang="en", never empty', async () => {
    document.documentElement.lang = 'ru';
    const el = await mount({ 'token-url': '/__token/hang', 'load-timeout': '5000' }, (el) => {
      el.texts = { loading: 'Секунду…' };
    });
    expect(said(el).status).to.deep.equal(['Секунду…', 'ru']);
    addLanguages({ fr: { loading: 'Chargement du formulaire…' } });
    document.documentElement.lang = 'fr-CA';
    const partial = await mount({ 'token-url': '/__token/raw?status=500' });
    await inState(partial, 'error');
    expect(said(partial).alert).to.deep.equal([DEFAULT_TEXTS['token-request-failed'], 'en']);
    partial.tokenUrl = '/__token/hang';
    await partial.updateComplete;
    expect(said(partial).status).to.deep.equal(['Chargement du formulaire…', 'fr-CA']);
  });
});
