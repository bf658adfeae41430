// The shopper's language end to end, in each engine (TEST_ENGINES picks some), with the built script-tag
// files (`npm run build` first): a shop page with some <html lang> loads dist/pay-form.min.js (which
// fetches its language from beside itself) or dist/pay-form.iife.min.js (with the language's own tag),
// its token endpoint is createTokenHandler in front of the sandbox, and the test reads the form language
// the sandbox recorded for the invoice and what the element shows and says, with its lang.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createTokenHandler, MemoryCallbackStore, PaymentClient, toNodeHandler } from '../../src/server/index.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { de, hi, kk, ru } from '../../src/element/languages/index.js';
import { DEFAULT_TEXTS } from '../../src/element/texts.js';
import { selectedEngines } from '../support/browsers/engines.mjs';
import { ENGINE_NAMES, launchEngine, waitUntil, type EngineBrowser, type EnginePage } from '../support/browsers/engine-page.js';
import { startServer, type Loopback } from '../support/servers/loopback.js';
import { MERCHANT, SECRET } from '../support/constants.js';

let sandbox: Sandbox;
let shop: Loopback;
let orders = 0;

interface Page {
  lang: string;
  bundle: 'esm' | 'iife';
  /** The classic-script page's language tags (dist/pay-form.{tag}.js), before the bundle's. */
  tags?: string[];
  language?: string;
  /** An order whose resolve sets the form's language itself. */
  merchantLanguage?: string;
}

function pageHtml(page: Page, order: string): string {
  // A page with display="modal" loads the modal's script before the bundle (README, Script tag).
  const modal = '<script src="/dist/pay-form-modal.min.js"></script>';
  const scripts = page.bundle === 'esm'
    ? `${modal}<script type="module" src="/dist/pay-form.min.js"></script>`
    : [modal, ...(page.tags ?? []).map((tag) => `<script src="/dist/pay-form.${tag}.js"></script>`), '<script src="/dist/pay-form.iife.min.js"></script>'].join('');
  const language = page.language ? ` language="${page.language}"` : '';
  // #pay opens the sandbox's form in a modal; #broken is refused at once (no request), to show an error.
  return `<!doctype html><html lang="${page.lang}"><head><link rel="icon" href="data:,"><title>shop</title></head><body>
<pay-form id="pay" display="modal" base-url="${sandbox.url}" token-url="/token" order-ref="${order}"${language}></pay-form>
<pay-form id="broken" base-url="ftp://pay.example" key="k"${language}></pay-form>${scripts}</body></html>`;
}

before(async () => {
  sandbox = await startSandbox({ merchantId: MERCHANT, secret: SECRET, port: 0 });
  const client = new PaymentClient({ baseUrl: sandbox.url, merchantId: MERCHANT, secret: SECRET });
  const pages = new Map<string, Page>();
  const token = toNodeHandler(createTokenHandler({
    client,
    store: new MemoryCallbackStore(),
    resolve: (_request, { order_ref }) => {
      const page = pages.get(order_ref ?? '');
      if (page === undefined || order_ref === undefined) return null;
      const merchant = page.merchantLanguage === undefined ? {} : { language: page.merchantLanguage };
      return { site_login: 'shopper', site_id: 1, request_id: order_ref, amount: 1990, currency: 'EUR', ...merchant };
    },
  }));
  shop = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://shop');
    if (url.pathname === '/token') return void token(req, res);
    const file = /^\/dist\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
    if (file !== undefined) {
      return void readFile(new URL(`../../dist/${file}`, import.meta.url)).then(
        (body) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body),
        () => res.writeHead(404).end(),
      );
    }
    const page = JSON.parse(url.searchParams.get('page') ?? 'null') as Page | null;
    if (url.pathname !== '/page' || page === null) return void res.writeHead(404).end();
    const order = `lang-order-${++orders}`;
    pages.set(order, page);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-order': order }).end(pageHtml(page, order));
  });
});
after(() => Promise.all([shop?.close(), sandbox?.close()]));

interface Seen {
  order: string;
  close: [string | null, string];
  name: [string | null, string];
  alert: [string, string];
}

/** Opens the page, waits until the form is open, and reads what the element says and how it names things. */
async function open(browserPage: EnginePage, page: Page, lang: string): Promise<Seen & { language: string | undefined }> {
  await browserPage.goto(`${shop.url}/page?page=${encodeURIComponent(JSON.stringify(page))}`);
  // Open, and the error said in the language expected (a fetched language's words come a moment later).
  await waitUntil(browserPage, (lang) => document.querySelector('#pay')?.getAttribute('state') === 'open'
    && document.querySelector('#broken')?.shadowRoot?.querySelector<HTMLElement>('[role="alert"]')?.lang === lang, lang, 'the form open and the error shown');
  const seen = await browserPage.evaluate(() => {
    const root = document.querySelector('#pay')!.shadowRoot!;
    const button = root.querySelector('[part="close-button"]') as HTMLElement;
    const dialog = root.querySelector('dialog') as HTMLElement;
    const alert = document.querySelector('#broken')!.shadowRoot!.querySelector('[role="alert"]') as HTMLElement;
    return {
      order: document.querySelector('#pay')!.getAttribute('order-ref') ?? '',
      close: [button.getAttribute('aria-label'), button.lang] as [string | null, string],
      name: [dialog.getAttribute('aria-label'), dialog.lang] as [string | null, string],
      alert: [alert.textContent ?? '', alert.lang] as [string, string],
    };
  }, null);
  const invoice = sandbox.invoices().find((i) => i.request_id.startsWith(`${seen.order}~`));
  assert.ok(invoice, `the sandbox has an invoice for ${seen.order}`);
  return { ...seen, language: invoice.language };
}

const words = (texts: { close: string; title: string; 'invalid-base-url': string }, lang: string) => ({
  close: [texts.close, lang] as [string, string],
  name: [texts.title, lang] as [string, string],
  alert: [texts['invalid-base-url'], lang] as [string, string],
});

for (const engine of selectedEngines()) {
  describe(ENGINE_NAMES[engine], () => {
    let browser: EngineBrowser;
    before(async () => {
      browser = await launchEngine(engine);
    });
    after(() => browser?.close());

    const check = async (page: Page, form: string, expected: ReturnType<typeof words>) => {
      const browserPage = await browser.newPage();
      try {
        const { order: _order, language, ...said } = await open(browserPage, page, expected.alert[1]);
        assert.equal(language, form, 'the form language the sandbox recorded');
        assert.deepEqual(said, expected);
        const problems = browserPage.problems();
        if (problems !== null) assert.deepEqual(problems, [], 'no page errors or failed requests');
      } finally {
        await browserPage.close();
      }
    };

    test('<html lang="ru">, ES module bundle: a Russian form, and Russian words fetched from beside the bundle', () => check({ lang: 'ru', bundle: 'esm' }, 'RU', words(ru, 'ru')));
    test('<html lang="ru">, classic script with the pay-form.ru.js tag: the same', () => check({ lang: 'ru', bundle: 'iife', tags: ['ru'] }, 'RU', words(ru, 'ru')));
    test('de-AT: a German form and German words', () => check({ lang: 'de-AT', bundle: 'esm' }, 'DE', words(de, 'de-AT')));
    test('hi: the service\'s ID (Hindi) and Hindi words', () => check({ lang: 'hi', bundle: 'iife', tags: ['hi', 'de'] }, 'ID', words(hi, 'hi')));
    test('pt-BR: EN, English words marked en, and nothing fetched for it', () => check({ lang: 'pt-BR', bundle: 'esm' }, 'EN', words(DEFAULT_TEXTS, 'en')));
    test('the language attribute wins over <html lang>', () => check({ lang: 'ru', bundle: 'esm', language: 'kk' }, 'KZ', words(kk, 'kk')));
    test("resolve's language wins over the page's; the element still speaks the page's", () => check({ lang: 'ru', bundle: 'esm', merchantLanguage: 'AZ' }, 'AZ', words(ru, 'ru')));
    test('a classic-script page without its language tag: a Russian form, and English words marked en, never empty', () => check({ lang: 'ru', bundle: 'iife' }, 'RU', words(DEFAULT_TEXTS, 'en')));
  });
}
