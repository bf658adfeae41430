// The sandbox's invoices and form keys. The service shows no invoice states; these are the sandbox's
// choice, as a table, and docs/sandbox.md repeats it.
import { PayFormError } from '../service/errors.js';

export type InvoiceKind = 'payment' | 'payout';
export type InvoiceStatus = 'pending' | 'success' | 'fail' | 'expired';

/** Which status may follow which. Anything not listed is refused, so an invoice is settled once. */
export const TRANSITIONS: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> = {
  pending: ['success', 'fail', 'expired'],
  success: [],
  fail: [],
  expired: [],
};

export interface Invoice {
  readonly invoice_id: string;
  readonly kind: InvoiceKind;
  status: InvoiceStatus;
  readonly merchant_id: string;
  readonly site_id: number;
  readonly site_login: string;
  readonly request_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly method: string | undefined;
  readonly language: string | undefined;
  readonly success_url: string | undefined;
  readonly fail_url: string | undefined;
  /** Payment invoices only: the form key and when it stops working (ms since the epoch). */
  readonly key: string | undefined;
  readonly expiresAt: number | undefined;
  readonly history: { status: InvoiceStatus; at: number }[];
}

export type NewInvoice = Omit<Invoice, 'invoice_id' | 'status' | 'history' | 'key' | 'expiresAt'>;

/** A transition the invoice states do not allow (docs/sandbox.md): the sandbox's own bug guard. */
export class InvoiceTransitionError extends PayFormError {
  constructor(message: string) {
    super('invoice_transition', message);
  }
}

/** 32 random bytes: a key nobody can guess, and short enough for a URL path segment. */
function freshKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString('base64url');
}

export type KeyLookup =
  | { found: 'open'; invoice: Invoice }
  | { found: 'unknown' }
  | { found: 'expired'; invoice: Invoice }
  | { found: 'used'; invoice: Invoice };

/** The most invoices a sandbox keeps by default; past it the oldest settled one goes first. */
export const DEFAULT_MAX_INVOICES = 10_000;

export class InvoiceBook {
  // Insertion order is creation order: the first settled invoice found is the oldest settled one.
  readonly #invoices = new Map<string, Invoice>();
  readonly #byKey = new Map<string, string>();
  readonly #now: () => number;
  readonly #max: number;

  constructor(now: () => number = Date.now, max = DEFAULT_MAX_INVOICES) {
    this.#now = now;
    this.#max = max;
  }

  create(fields: NewInvoice, keyTtlMs?: number): Invoice {
    const at = this.#now();
    const key = keyTtlMs === undefined ? undefined : freshKey();
    const invoice: Invoice = {
      ...fields,
      invoice_id: crypto.randomUUID(),
      status: 'pending',
      key,
      expiresAt: keyTtlMs === undefined ? undefined : at + keyTtlMs,
      history: [{ status: 'pending', at }],
    };
    if (this.#invoices.size >= this.#max) this.#evictOne();
    this.#invoices.set(invoice.invoice_id, invoice);
    if (key !== undefined) this.#byKey.set(key, invoice.invoice_id);
    return invoice;
  }

  /** A long run (a benchmark) must not grow the process without end: the oldest settled invoice goes,
   *  or, when every kept invoice is still pending, the oldest one. Its key is then unknown (404). */
  #evictOne(): void {
    let victim: Invoice | undefined;
    for (const invoice of this.#invoices.values()) {
      this.#expireIfDue(invoice);
      if (invoice.status !== 'pending') {
        victim = invoice;
        break;
      }
    }
    victim ??= this.#invoices.values().next().value;
    if (victim === undefined) return;
    this.#invoices.delete(victim.invoice_id);
    if (victim.key !== undefined) this.#byKey.delete(victim.key);
  }

  move(invoice: Invoice, to: InvoiceStatus): void {
    if (!TRANSITIONS[invoice.status].includes(to)) {
      throw new InvoiceTransitionError(`invoice ${invoice.invoice_id} cannot go from ${invoice.status} to ${to}`);
    }
    invoice.status = to;
    invoice.history.push({ status: to, at: this.#now() });
  }

  /** A key works while its invoice is pending and unexpired; expiry is applied when it is looked at. */
  byKey(key: string): KeyLookup {
    const id = this.#byKey.get(key);
    const invoice = id === undefined ? undefined : this.#invoices.get(id);
    if (!invoice) return { found: 'unknown' };
    this.#expireIfDue(invoice);
    if (invoice.status === 'expired') return { found: 'expired', invoice };
    if (invoice.status !== 'pending') return { found: 'used', invoice };
    return { found: 'open', invoice };
  }

  /** Payouts are unique per merchant, site and request_id: the service must never pay one twice. */
  findPayout(merchantId: string, siteId: number, requestId: string): Invoice | undefined {
    for (const invoice of this.#invoices.values()) {
      if (invoice.kind === 'payout' && invoice.merchant_id === merchantId && invoice.site_id === siteId
        && invoice.request_id === requestId) return invoice;
    }
    return undefined;
  }

  list(): Invoice[] {
    for (const invoice of this.#invoices.values()) this.#expireIfDue(invoice);
    return [...this.#invoices.values()];
  }

  #expireIfDue(invoice: Invoice): void {
    if (invoice.status === 'pending' && invoice.expiresAt !== undefined && this.#now() >= invoice.expiresAt) {
      this.move(invoice, 'expired');
    }
  }
}
