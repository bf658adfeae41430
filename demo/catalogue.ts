// The demo shop's products and orders. The amount of an order is computed here, on the backend, from
// the product and the currency: the browser names an order, never an amount.
import { FORM_LANGUAGES, FORM_METHODS } from '../src/service/fields.js';
import { formatAmount, minorDigits } from '../src/service/money.js';

export interface Product {
  id: string;
  name: string;
  /** The price in US cents; other currencies follow the fixed demo rates below. */
  usdCents: number;
}

export const PRODUCTS: readonly Product[] = [
  { id: 'beans', name: 'Coffee beans, 1 kg', usdCents: 2490 },
  { id: 'mug', name: 'Enamel mug', usdCents: 1250 },
  { id: 'grinder', name: 'Hand grinder', usdCents: 8900 },
];

/** Demo exchange rates (units of the currency per US dollar); not market data. */
export const RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.92, RUB: 92, UAH: 41, USDT: 1, IDR: 15800, AZN: 1.7, VND: 25400,
};

/** The form methods the demo offers (a few of the service's list; none needs additional_fields). */
export const DEMO_METHODS = ['card', 'sbp', 'wallet_a', 'localbanks', 'phone_topup'] as const;
export const DEMO_LANGUAGES = FORM_LANGUAGES;

export function price(product: Product, currency: string): number {
  const rate = RATES[currency];
  if (rate === undefined) throw new RangeError(`no demo rate for ${currency}`);
  return Math.round((product.usdCents / 100) * rate * 10 ** minorDigits(currency));
}

export interface OrderChoices {
  product: string;
  currency: string;
  method: string;
  /** The form's language the shop chose, or none: then the page's, which the element sends (docs/server.md). */
  language?: string;
  redirect_mode: boolean;
}

export interface Order extends OrderChoices {
  order_ref: string;
  product_name: string;
  amount: number;
  status: 'created' | 'paid' | 'failed';
  /** Who may pay it and see it: its creator; a fixed order is a template, and each shopper pays a copy of their own. */
  shopper: string | undefined;
  /** The reference the service, the store and the callbacks know it by: order_ref, or for a shopper's
   *  copy of a fixed order `{order_ref}.{shopper}`, so two shoppers never share an order's attempt. */
  request_ref: string;
  /** The attempt the token handler handed out last for it (the demo's timeline: demo/page-steps.ts). */
  attempt?: string;
}

export interface OrderIssue {
  field: string;
  message: string;
}

const CHOICE_RULES: readonly { field: keyof OrderChoices; allowed: readonly unknown[] }[] = [
  { field: 'product', allowed: PRODUCTS.map((p) => p.id) },
  { field: 'currency', allowed: Object.keys(RATES) },
  { field: 'method', allowed: DEMO_METHODS.filter((m) => (FORM_METHODS as readonly string[]).includes(m)) },
  { field: 'language', allowed: [...DEMO_LANGUAGES, undefined] },
  { field: 'redirect_mode', allowed: [true, false] },
];

/** Checks what the page sent against the catalogue; every bad field at once. */
export function checkChoices(input: unknown): { ok: true; value: OrderChoices } | { ok: false; issues: OrderIssue[] } {
  const body = (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const issues = CHOICE_RULES.filter(({ field, allowed }) => !allowed.includes(body[field])).map(({ field, allowed }) => ({
    field,
    message: `must be one of ${allowed.map((a) => (a === undefined ? 'none' : JSON.stringify(a))).join(', ')}`,
  }));
  if (issues.length) return { ok: false, issues };
  const pick = Object.fromEntries(CHOICE_RULES.map(({ field }) => [field, body[field]]));
  return { ok: true, value: pick as unknown as OrderChoices };
}

/** The most orders kept by default; past it the oldest created one is forgotten. */
export const DEFAULT_MAX_ORDERS = 10_000;

/** Orders live in memory, as long as the dev server, the latest `max` of them. A few fixed ones,
 *  never forgotten, serve the script-tag page. */
export class OrderBook {
  readonly #fixed = new Map<string, Order>();
  readonly #orders = new Map<string, Order>();

  /** How many orders of shoppers it keeps (the fixed ones aside): the oldest goes first. */
  constructor(readonly max = DEFAULT_MAX_ORDERS) {
    for (const order of [
      this.#make('demo-beans-usd', { product: 'beans', currency: 'USD', method: 'card', language: 'EN', redirect_mode: false }, undefined),
      this.#make('demo-mug-eur', { product: 'mug', currency: 'EUR', method: 'sbp', language: 'DE', redirect_mode: false }, undefined),
    ]) this.#fixed.set(order.order_ref, order);
  }

  create(choices: OrderChoices, shopper: string): Order {
    const order = this.#make(`order-${crypto.randomUUID()}`, choices, shopper);
    this.#keep(order);
    return order;
  }

  /** An order by its request_ref (a fixed order's template by its order_ref). */
  get(ref: string | undefined): Order | undefined {
    return ref === undefined ? undefined : (this.#fixed.get(ref) ?? this.#orders.get(ref));
  }

  /** The order `ref` as `shopper` may see it: their own, or a fixed one (anyone's to pay); another
   *  shopper's order is as unknown as one never made. */
  visibleTo(ref: unknown, shopper: string | undefined): Order | undefined {
    const key = typeof ref === 'string' ? ref : undefined;
    const fixed = key === undefined ? undefined : this.#fixed.get(key);
    if (fixed !== undefined) return shopper === undefined ? undefined : this.#copy(fixed, shopper);
    const order = this.#orders.get(key ?? '');
    return order?.shopper === shopper ? order : undefined;
  }

  /** The shopper's own copy of a fixed order (made on first sight): the order is never handed from one shopper to another. */
  #copy(fixed: Order, shopper: string): Order {
    const request_ref = `${fixed.order_ref}.${shopper}`;
    const copy = this.#orders.get(request_ref) ?? { ...fixed, shopper, request_ref };
    this.#keep(copy);
    return copy;
  }

  #keep(order: Order): void {
    this.#orders.set(order.request_ref, order);
    // A Map iterates in insertion order: the first key is the oldest order.
    if (this.#orders.size > this.max) this.#orders.delete(this.#orders.keys().next().value as string);
  }

  #make(order_ref: string, choices: OrderChoices, shopper: string | undefined): Order {
    const product = PRODUCTS.find((p) => p.id === choices.product) as Product;
    return { ...choices, order_ref, request_ref: order_ref, product_name: product.name, amount: price(product, choices.currency), status: 'created', shopper };
  }
}

/** What the page shows for each product in each currency, formatted by the backend. */
export function priceList(locale = 'en') {
  return PRODUCTS.map((product) => ({
    id: product.id,
    name: product.name,
    prices: Object.fromEntries(
      Object.keys(RATES).map((currency) => {
        const amount = price(product, currency);
        return [currency, { amount, display: formatAmount(amount, currency, locale) }];
      }),
    ),
  }));
}
