// The service's two JSON endpoints, with the service's checks (docs/service-contract.md) in the order the sandbox documents:
// content type and JSON, then every field (the shared rules of pay-form/server), then merchant_id,
// then the signature. Every answer, failures included, is signed with the merchant's secret.
import { failureBody, parseJsonObject } from '../service/body.js';
import { validatePayoutRequest, validateTokenRequest, type Validation } from '../service/fields.js';
import { SERVICE_PATHS, openFormPath } from '../service/paths.js';
import { hmacSigner, signed, verify } from '../service/signature.js';
import type { CallbackQueue } from './callbacks.js';
import type { Invoice, InvoiceBook } from './invoices.js';
import { siteHasRedirectMode, type ResolvedOptions } from './options.js';


export interface ApiContext {
  readonly options: ResolvedOptions;
  readonly book: InvoiceBook;
  readonly callbacks: CallbackQueue;
  readonly url: string;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  /** Runs once the answer has been sent, so a callback never overtakes the answer it follows. */
  after?: () => Promise<void>;
}

export type ApiEndpoint = (ctx: ApiContext, input: unknown) => Promise<ApiAnswer>;

export async function signedAnswer(ctx: ApiContext, answer: ApiAnswer): Promise<ApiAnswer> {
  return { ...answer, body: await signed(answer.body, hmacSigner(ctx.options.secret)) };
}

export function failure(status: number, message: string): ApiAnswer {
  return { status, body: failureBody(message) };
}

async function admit<T extends { merchant_id: string }>(
  ctx: ApiContext,
  input: unknown,
  validate: (input: unknown, opts: { signed: boolean }) => Validation<T>,
): Promise<{ ok: true; value: T } | { ok: false; answer: ApiAnswer }> {
  const checked = validate(input, { signed: true });
  if (!checked.ok) {
    const list = checked.issues.map((issue) => `${issue.path || 'body'}: ${issue.message}`).join('; ');
    return { ok: false, answer: failure(400, `Invalid request: ${list}`) };
  }
  if (checked.value.merchant_id !== ctx.options.merchantId) {
    return { ok: false, answer: failure(401, 'Unknown merchant_id') };
  }
  // The signature covers what was sent, not the normalised value (an unknown language becomes EN).
  if (!(await verify(input as Record<string, unknown>, ctx.options.secret))) {
    return { ok: false, answer: failure(401, 'Invalid signature') };
  }
  return { ok: true, value: checked.value };
}

export function callbackPayload(invoice: Invoice) {
  const { invoice_id, request_id, status, amount, currency, site_id, site_login, merchant_id } = invoice;
  return { invoice_id, request_id, status, amount, currency, site_id, site_login, merchant_id };
}

export const obtainToken: ApiEndpoint = async (ctx, input) => {
  const admitted = await admit(ctx, input, validateTokenRequest);
  if (!admitted.ok) return admitted.answer;
  const r = admitted.value;
  const invoice = ctx.book.create(
    {
      kind: 'payment', merchant_id: r.merchant_id, site_id: r.site_id, site_login: r.site_login,
      request_id: r.request_id, amount: r.amount, currency: r.currency, method: r.method,
      language: r.language, success_url: r.success_url, fail_url: r.fail_url,
    },
    ctx.options.keyTtlMs,
  );
  const key = invoice.key as string;
  const body: Record<string, unknown> = { success: true, key };
  if (siteHasRedirectMode(ctx.options.redirectMode, r.site_id)) {
    body.redirect_url = openFormPath(ctx.url, key);
  }
  return { status: 200, body };
};

export const payout: ApiEndpoint = async (ctx, input) => {
  const admitted = await admit(ctx, input, validatePayoutRequest);
  if (!admitted.ok) return admitted.answer;
  const r = admitted.value;
  const earlier = ctx.book.findPayout(r.merchant_id, r.site_id, r.request_id);
  if (earlier) {
    return failure(409, `Duplicate request_id: payout ${earlier.invoice_id} already has request_id ${r.request_id}`);
  }
  const invoice = ctx.book.create({
    kind: 'payout', merchant_id: r.merchant_id, site_id: r.site_id, site_login: r.site_login,
    request_id: r.request_id, amount: r.amount, currency: r.currency, method: r.method,
    language: undefined, success_url: undefined, fail_url: undefined,
  });
  // The payout exists before the late answer leaves: a client that times out meanwhile has paid.
  if (ctx.options.payoutDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, ctx.options.payoutDelayMs));
  return {
    status: 200,
    body: {
      success: true, status: invoice.status, invoice_id: invoice.invoice_id, request_id: r.request_id,
      amount: r.amount, currency: r.currency, site_login: r.site_login, site_id: r.site_id,
    },
    // The sandbox pays out at once; the merchant learns it from the callback, as from a real service.
    after: async () => {
      ctx.book.move(invoice, 'success');
      await ctx.callbacks.send(callbackPayload(invoice));
    },
  };
};

export const API_ENDPOINTS: Readonly<Record<string, ApiEndpoint>> = {
  [SERVICE_PATHS.payout]: payout,
  [SERVICE_PATHS.obtain_token]: obtainToken,
};
