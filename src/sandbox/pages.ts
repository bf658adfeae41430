// The HTML the sandbox serves: the open-form page, refusals and plain results. Every value from a
// request goes through html``, which escapes it; the pages carry no script at all.
import { formatAmount } from '../service/money.js';
import { OPEN_FORM_PATH, encodeKeySegment } from '../service/paths.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A template tag: interpolated values are escaped unless they are already SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    for (const part of parts) out += part instanceof SafeHtml ? part.value : escapeHtml(String(part ?? ''));
    out += strings[i + 1] ?? '';
  });
  return new SafeHtml(out);
}

interface Labels {
  locale: string;
  title: string;
  amount: string;
  method: string;
  anyMethod: string;
  order: string;
  customer: string;
  pay: string;
  decline: string;
  note: string;
}

/** The service's form languages (docs/service-contract.md). It describes IN as Indonesian and ID as Hindi; the page follows it. */
const LABELS: Readonly<Record<string, Labels>> = {
  EN: { locale: 'en', title: 'Payment', amount: 'Amount', method: 'Method', anyMethod: 'any', order: 'Order', customer: 'Customer', pay: 'Pay', decline: 'Decline', note: 'Sandbox: no real money moves.' },
  DE: { locale: 'de', title: 'Zahlung', amount: 'Betrag', method: 'Zahlungsart', anyMethod: 'beliebig', order: 'Bestellung', customer: 'Kunde', pay: 'Bezahlen', decline: 'Ablehnen', note: 'Sandbox: es fließt kein echtes Geld.' },
  UA: { locale: 'uk', title: 'Оплата', amount: 'Сума', method: 'Спосіб оплати', anyMethod: 'будь-який', order: 'Замовлення', customer: 'Клієнт', pay: 'Сплатити', decline: 'Відхилити', note: 'Пісочниця: справжні гроші не списуються.' },
  RU: { locale: 'ru', title: 'Оплата', amount: 'Сумма', method: 'Способ оплаты', anyMethod: 'любой', order: 'Заказ', customer: 'Клиент', pay: 'Оплатить', decline: 'Отклонить', note: 'Песочница: настоящие деньги не списываются.' },
  KZ: { locale: 'kk', title: 'Төлем', amount: 'Сома', method: 'Төлем әдісі', anyMethod: 'кез келген', order: 'Тапсырыс', customer: 'Клиент', pay: 'Төлеу', decline: 'Бас тарту', note: 'Құмсалғыш: нақты ақша қозғалмайды.' },
  AZ: { locale: 'az', title: 'Ödəniş', amount: 'Məbləğ', method: 'Ödəniş üsulu', anyMethod: 'istənilən', order: 'Sifariş', customer: 'Müştəri', pay: 'Ödə', decline: 'İmtina et', note: 'Sandbox: real pul köçürülmür.' },
  IN: { locale: 'id', title: 'Pembayaran', amount: 'Jumlah', method: 'Metode', anyMethod: 'apa saja', order: 'Pesanan', customer: 'Pelanggan', pay: 'Bayar', decline: 'Tolak', note: 'Sandbox: tidak ada uang sungguhan.' },
  ID: { locale: 'hi', title: 'भुगतान', amount: 'राशि', method: 'भुगतान का तरीका', anyMethod: 'कोई भी', order: 'ऑर्डर', customer: 'ग्राहक', pay: 'भुगतान करें', decline: 'अस्वीकार करें', note: 'सैंडबॉक्स: कोई असली पैसा नहीं जाता।' },
};

export function labelsFor(language: string | undefined): Labels {
  return LABELS[language ?? 'EN'] ?? (LABELS.EN as Labels);
}

const STYLE = `
  :root { color-scheme: light; font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #fff; }
  body { margin: 0; padding: 1.5rem; display: grid; place-items: start center; }
  main { width: min(100%, 26rem); }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1.5rem; }
  dt { color: #4b5563; } dd { margin: 0; overflow-wrap: anywhere; }
  .amount { font-size: 1.6rem; font-weight: 600; }
  .actions { display: flex; gap: .75rem; flex-wrap: wrap; }
  button { font: inherit; padding: .7rem 1.4rem; border-radius: .5rem; border: 2px solid #1d4ed8; cursor: pointer; }
  button.pay { background: #1d4ed8; color: #fff; } button.decline { background: #fff; color: #1d4ed8; }
  button:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  .note { margin-top: 1.5rem; font-size: .85rem; color: #4b5563; }
`;

function document(lang: string, title: string, main: SafeHtml, nonce: string): string {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`.value;
}

export interface FormPageData {
  key: string;
  amount: number;
  currency: string;
  method: string | undefined;
  language: string | undefined;
  request_id: string;
  site_login: string;
}

export function formPage(data: FormPageData, nonce: string): string {
  const t = labelsFor(data.language);
  const base = `${OPEN_FORM_PATH}${encodeKeySegment(data.key)}/`;
  const main = html`<h1>${t.title}</h1>
<dl>
  <dt>${t.amount}</dt><dd class="amount" data-testid="amount">${formatAmount(data.amount, data.currency, t.locale)}</dd>
  <dt>${t.method}</dt><dd data-testid="method">${data.method ?? t.anyMethod}</dd>
  <dt>${t.order}</dt><dd data-testid="order">${data.request_id}</dd>
  <dt>${t.customer}</dt><dd data-testid="customer">${data.site_login}</dd>
</dl>
<div class="actions">
  <form method="post" action="${base}pay"><button class="pay" type="submit">${t.pay}</button></form>
  <form method="post" action="${base}decline"><button class="decline" type="submit">${t.decline}</button></form>
</div>
<p class="note">${t.note}</p>`;
  return document(t.locale, `${t.title}: ${formatAmount(data.amount, data.currency, t.locale)}`, main, nonce);
}

/** A link on a message page, e.g. back to the shop's return page. */
export interface PageLink {
  href: string;
  text: string;
}

export function messagePage(title: string, message: string, nonce: string, role: 'alert' | 'status', link?: PageLink): string {
  const back = link ? html`\n<p><a href="${link.href}" data-testid="back">${link.text}</a></p>` : html``;
  const main = html`<h1>${title}</h1>
<p role="${role}">${message}</p>${back}`;
  return document('en', title, main, nonce);
}
