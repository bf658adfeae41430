// The demo shop's checkout page: the person's choices become an order on the shop's backend (which
// prices it), then a <pay-form> opens the payment for that order. Every event and every callback the
// backend verified is listed, as text only.
import '../src/element/index.js';
import { formatAmount } from '../src/service/money.js';
import { PAY_FORM_EVENTS, type PayForm, type PayFormEventName } from '../src/element/index.js';
import type { CallbackLogEntry } from './backend.js';
import { settledText } from './settled.js';
import { PAGE_LANGUAGES, setPageLanguage, word } from './words.js';
import { addLanguages, az, de, hi, id, kk, ru, uk } from '../src/element/languages/index.js';

// The shop offers every language in its picker, so the element gets every language's words (docs/element.md, Language).
addLanguages({ az, de, hi, id, kk, ru, uk });

interface Catalogue {
  products: { id: string; name: string; prices: Record<string, { amount: number; display: string }> }[];
  currencies: string[];
  methods: string[];
  languages: string[];
}
interface Config {
  base_url: string;
  sandbox: boolean;
  redirect_mode_available: boolean;
}

/** What the person reads after each outcome the element reports, and whether the form (showing the
 *  shop's return page, or the service's own result page, by then) is closed so the page's own result
 *  replaces it. The verified outcome may come first: with status-url the page needs no return page. An
 *  error has no line of the page's own: the element shows it in place of the form, in the shopper's
 *  words (role="alert"; an order already paid says so), while its code and message go to the log. */
const RESULTS: Partial<Record<PayFormEventName, (detail: Record<string, unknown>) => [string, string, boolean]>> = {
  'pay-form-success': () => ['success', 'Payment successful', true],
  'pay-form-fail': () => ['fail', 'Payment failed', true],
  'pay-form-settled': (detail) => (detail.status === 'success' ? ['success', 'Payment successful', true] : ['fail', 'Payment failed', true]),
  'pay-form-close': () => ['closed', 'Payment window closed', false],
  'pay-form-error': (detail) => [detail.code === 'order-paid' ? 'paid' : 'error', '', false],
};

/** The page says the result itself (#result), so the element's own result texts stay empty. */
const TEXTS: PayForm['texts'] = { success: '', fail: '' };

/** The shop's own word, from the service's signed callback (pay-form-settled): the only confirmation. */
function showSettled(detail: Record<string, unknown>): void {
  const confirmed = $<HTMLParagraphElement>('#confirmed');
  confirmed.dataset.status = String(detail.status);
  confirmed.textContent = word(settledText(detail.status));
}

const $ = <T extends Element>(selector: string) => document.querySelector(selector) as T;
const form = $<HTMLFormElement>('#checkout');
const field = <T extends HTMLInputElement | HTMLSelectElement>(name: string) => form.elements.namedItem(name) as T;

function item(list: string, text: string, note?: string): void {
  const li = document.createElement('li');
  li.textContent = text;
  if (note) {
    const code = document.createElement('code');
    code.textContent = ` ${note}`;
    li.append(code);
  }
  $<HTMLOListElement>(list).append(li);
}

function fill(select: HTMLSelectElement, options: readonly { value: string; label: string }[]): void {
  select.replaceChildren(...options.map(({ value, label }) => new Option(label, value)));
}

function showResult(status: string, text: string): void {
  const result = $<HTMLParagraphElement>('#result');
  result.dataset.status = status;
  result.textContent = word(text);
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as T;
}

function listenForCallbacks(): void {
  let source = open();
  // Closed as the page starts to go (a redirect display leaves for the form), opened again if it comes
  // back from the back-forward cache: left open, or closed only at pagehide, Firefox ESR reports the
  // stream as "interrupted while the page was loading", an error on a page that did nothing wrong.
  addEventListener('beforeunload', () => source.close());
  addEventListener('pageshow', (event) => {
    if (event.persisted) source = open();
  });
  function open(): EventSource {
    const events = new EventSource('/api/checkout/events');
    events.addEventListener('callback', (event) => {
      const entry = JSON.parse((event as MessageEvent<string>).data) as CallbackLogEntry;
      const amount = entry.amount !== undefined && entry.currency ? formatAmount(entry.amount, entry.currency, 'en') : '';
      const status = entry.note === undefined ? entry.status : `${entry.status} (${entry.note})`;
      item('#callbacks', `${status}: ${entry.product ?? entry.request_id} ${amount}`.trim(), `invoice ${entry.invoice_id}`);
    });
    return events;
  }
}

async function main(): Promise<void> {
  const [config, catalogue] = await Promise.all([
    getJson<Config>('/api/checkout/config'),
    getJson<Catalogue>('/api/checkout/catalogue'),
  ]);
  $('#service').textContent = config.sandbox ? `the embedded sandbox at ${config.base_url}` : config.base_url;
  fill(field('product'), catalogue.products.map((p) => ({ value: p.id, label: p.name })));
  fill(field('currency'), catalogue.currencies.map((c) => ({ value: c, label: c })));
  fill(field('method'), catalogue.methods.map((m) => ({ value: m, label: m })));
  // None: the page's language, which the element sends with the token request; one: the shop's choice, which wins.
  fill(field('language'), [{ value: '', label: word('As the page') }, ...catalogue.languages.map((l) => ({ value: l, label: l }))]);
  field<HTMLSelectElement>('language').options[0]!.dataset['word'] = 'As the page';
  const picker = $<HTMLSelectElement>('#page-language');
  fill(picker, PAGE_LANGUAGES.map(([value, label]) => ({ value, label })));
  for (const option of picker.options) option.lang = option.value;
  picker.value = document.documentElement.lang;
  picker.addEventListener('change', () => setPageLanguage(picker.value));
  field<HTMLInputElement>('redirect_mode').disabled = !config.redirect_mode_available;

  const showTotal = () => {
    const product = catalogue.products.find((p) => p.id === field('product').value);
    $('#total').textContent = product?.prices[field('currency').value]?.display ?? '';
  };
  form.addEventListener('change', showTotal);
  showTotal();
  listenForCallbacks();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // While a payment runs Pay stays focusable (aria-disabled, not disabled): focus stays on it.
    if ($('#pay').getAttribute('aria-disabled') !== 'true') void pay(config);
  });
  $<HTMLButtonElement>('#pay').disabled = false;
}

/**
 * The inline form opens below the shop's fields: scrolled into view once it is in the page (the frame
 * goes in with the element's next update, before the next frame is drawn). Focus stays on Pay.
 */
function bringIntoView(payForm: PayForm, event: PayFormEventName): void {
  if (event === 'pay-form-open') requestAnimationFrame(() => payForm.scrollIntoView({ block: 'nearest' }));
}

/**
 * Tells the shop when the form was shown (pay-form-open to pay-form-ready) and when the shopper paid
 * in it (pay-form-ready to pay-form-success, or to a settled success when that comes first and the
 * framed result is dropped), for the order's timeline in the terminal of `npm start`
 * (demo/page-steps.ts). The demo's own code: the element reports nothing of the kind.
 */
function pageSteps(orderRef: string): (event: PayFormEventName, detail: Record<string, unknown>) => void {
  let since = performance.now();
  let paid = false;
  const report = (step: string) => {
    const now = performance.now();
    const body = JSON.stringify({ order_ref: orderRef, step, ms: Math.round(now - since) });
    since = now;
    void fetch('/api/checkout/page-steps', { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).catch(() => undefined);
  };
  return (event, detail) => {
    if (event === 'pay-form-open') [since, paid] = [performance.now(), false];
    else if (event === 'pay-form-ready') report('form_shown');
    else if (!paid && (event === 'pay-form-success' || (event === 'pay-form-settled' && detail['status'] === 'success'))) {
      paid = true;
      report('paid');
    }
  };
}

async function pay(config: Config): Promise<void> {
  const button = $<HTMLButtonElement>('#pay');
  const cancel = $<HTMLButtonElement>('#cancel');
  const again = $<HTMLButtonElement>('#again');
  button.setAttribute('aria-disabled', 'true');
  cancel.hidden = true;
  again.hidden = true;
  showResult('', '');
  // The first outcome of this payment attempt stands: a close that follows a result does not replace it.
  let done = false;
  const finish = (status: string, text: string, closeForm: PayForm | undefined) => {
    if (done) return;
    done = true;
    showResult(status, text);
    cancel.hidden = true;
    // The same order again: a new attempt after a decline, "already paid" after a payment.
    again.hidden = status === 'paid' || status === 'error';
    closeForm?.close();
    button.removeAttribute('aria-disabled');
    button.focus();
  };
  $('#confirmed').textContent = '';
  try {
    const response = await fetch('/api/checkout/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        product: field('product').value,
        currency: field('currency').value,
        method: field('method').value,
        language: field('language').value || undefined,
        redirect_mode: field<HTMLInputElement>('redirect_mode').checked,
      }),
    });
    if (!response.ok) throw new Error(`POST /api/checkout/orders answered ${response.status}`);
    const order = (await response.json()) as { order_ref: string };
    item('#events', `order created`, order.order_ref);
    // For the return page of a redirect: it asks the shop about this order once the person is back.
    sessionStorage.setItem('pay-form-demo-order', order.order_ref);

    const payForm = document.createElement('pay-form');
    payForm.setAttribute('base-url', config.base_url);
    payForm.setAttribute('token-url', '/api/checkout/token');
    payForm.setAttribute('order-ref', order.order_ref);
    payForm.setAttribute('status-url', '/api/checkout/status');
    const display = (form.elements.namedItem('display') as RadioNodeList).value;
    payForm.setAttribute('display', display);
    payForm.texts = TEXTS;
    const steps = pageSteps(order.order_ref);
    for (const name of PAY_FORM_EVENTS) {
      payForm.addEventListener(name, (e) => {
        const detail = ((e as CustomEvent).detail ?? {}) as Record<string, unknown>;
        item('#events', name, JSON.stringify(detail));
        steps(name, detail);
        if (name === 'pay-form-settled') showSettled(detail);
        if (display === 'inline') bringIntoView(payForm, name);
        const result = RESULTS[name]?.(detail);
        if (result) finish(result[0], result[1], result[2] ? payForm : undefined);
      });
    }
    // An inline form has no Close button of its own (the modal has): the shop offers one.
    cancel.hidden = display !== 'inline';
    cancel.onclick = () => finish('cancelled', 'Payment cancelled', payForm);
    again.onclick = () => {
      done = false;
      again.hidden = true;
      cancel.hidden = display !== 'inline';
      showResult('', '');
      $('#confirmed').textContent = '';
      item('#events', 'this order again');
      payForm.open();
    };
    $('#payment').replaceChildren(payForm);
  } catch (error) {
    item('#events', 'order not created', error instanceof Error ? error.message : String(error));
    finish('error', 'We could not create your order. Please try again.', undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  showResult('error', 'The shop could not load. Please reload the page.');
});
