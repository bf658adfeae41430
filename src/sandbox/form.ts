// The open-form address and its two buttons. The service shows neither the method nor the body of
// /api/jsapi/open/{key}/; the sandbox serves a script-free HTML form whose buttons POST back here.
import { callbackPayload, type ApiContext } from './api.js';
import type { Invoice, InvoiceStatus, KeyLookup } from './invoices.js';
import { formPage, messagePage, type PageLink } from './pages.js';
import { checkHttpUrl } from '../service/form-url.js';
import { parseOpenFormPath } from '../service/paths.js';

export interface HtmlAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** The open-form page (`rest` '') or one of its buttons; undefined for any other path. */
export function matchOpenPath(pathname: string): { key: string; action: 'pay' | 'decline' | undefined } | undefined {
  const match = parseOpenFormPath(pathname);
  if (!match) return undefined;
  if (match.rest === '') return { key: match.key, action: undefined };
  return match.rest === 'pay' || match.rest === 'decline' ? { key: match.key, action: match.rest } : undefined;
}

function nonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** formTargets: where the page's forms may post and be redirected to; none for a page without forms. */
function headers(ctx: ApiContext, pageNonce: string, formTargets: readonly string[]): Record<string, string> {
  const formAction = formTargets.length ? formTargets.join(' ') : `'none'`;
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      `default-src 'none'`,
      `style-src 'nonce-${pageNonce}'`,
      // The page's empty icon (data:,), so the browser asks for no /favicon.ico.
      `img-src data:`,
      `form-action ${formAction}`,
      `frame-ancestors ${ctx.options.frameAncestors.join(' ')}`,
      `base-uri 'none'`,
    ].join('; '),
    // same-origin keeps the key's URL from leaking to the merchant's return page, and keeps the
    // Origin header on the buttons' POSTs so they can be checked.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

function message(ctx: ApiContext, status: number, title: string, text: string, link?: PageLink): HtmlAnswer {
  const n = nonce();
  return { status, body: messagePage(title, text, n, status >= 400 ? 'alert' : 'status', link), headers: headers(ctx, n, []) };
}

const REFUSALS: Readonly<Record<Exclude<KeyLookup['found'], 'open'>, [number, string, string]>> = {
  unknown: [404, 'Payment link not found', 'This payment link is not known. Ask the shop for a new one.'],
  used: [410, 'Payment link already used', 'This payment has already been completed or declined.'],
  expired: [410, 'Payment link expired', 'This payment link has expired. Ask the shop for a new one.'],
};

/** Where the shop wants the browser back after an invoice reached `status`: success_url, else fail_url. */
function returnUrl(invoice: Invoice, status: InvoiceStatus): string | undefined {
  return status === 'success' ? invoice.success_url : invoice.fail_url;
}

function refusal(ctx: ApiContext, lookup: KeyLookup): HtmlAnswer | undefined {
  if (lookup.found === 'open') return undefined;
  const [status, title, text] = REFUSALS[lookup.found];
  // A used key (a reload, the back button) is a dead end unless the page leads back to the shop.
  const back = lookup.found === 'used' ? returnUrl(lookup.invoice, lookup.invoice.status) : undefined;
  return message(ctx, status, title, text, back === undefined ? undefined : { href: back, text: 'Back to the shop' });
}

export function openForm(ctx: ApiContext, key: string): HtmlAnswer {
  const lookup = ctx.book.byKey(key);
  if (lookup.found !== 'open') return refusal(ctx, lookup) as HtmlAnswer;
  const invoice = lookup.invoice;
  const n = nonce();
  const targets = [originOf(invoice.success_url), originOf(invoice.fail_url)].filter((o): o is string => !!o);
  return {
    status: 200,
    body: formPage({ ...invoice, key }, n),
    headers: headers(ctx, n, ["'self'", ...new Set(targets)]),
  };
}

const OUTCOMES: Readonly<Record<'pay' | 'decline', { status: InvoiceStatus; title: string; text: string }>> = {
  pay: { status: 'success', title: 'Payment successful', text: 'The payment went through. You can close this page.' },
  decline: { status: 'fail', title: 'Payment declined', text: 'The payment was declined. No money was taken.' },
};

/**
 * Pay or Decline: settles the invoice once, queues its callback and sends the browser on. A POST whose
 * Origin is not the sandbox's own (another site submitting the form) is refused.
 */
export async function settle(
  ctx: ApiContext,
  key: string,
  action: 'pay' | 'decline',
  origin: string | undefined,
  ownOrigin: string,
): Promise<HtmlAnswer> {
  if (origin !== undefined && origin !== ownOrigin) {
    return message(ctx, 403, 'Request refused', 'The payment form can only be submitted from its own page.');
  }
  const lookup = ctx.book.byKey(key);
  if (lookup.found !== 'open') return refusal(ctx, lookup) as HtmlAnswer;
  const invoice = lookup.invoice;
  const outcome = OUTCOMES[action];
  // Where the browser goes is settled before the invoice is: a return address that could not be a
  // Location header must not leave an invoice paid behind a 500.
  const stored = returnUrl(invoice, outcome.status);
  const target = stored === undefined ? undefined : checkHttpUrl(stored, 'invalid-redirect-url', 'return URL');
  if (target !== undefined && !target.ok) {
    return message(ctx, 400, 'Request refused', 'The shop gave a return address that cannot be used.');
  }
  ctx.book.move(invoice, outcome.status);
  await ctx.callbacks.send(callbackPayload(invoice));
  if (target) return { status: 303, body: '', headers: { location: target.value.href, 'cache-control': 'no-store', 'referrer-policy': 'same-origin' } };
  return message(ctx, 200, outcome.title, outcome.text);
}
