// How PaymentClient uses the payout ledger: claim before sending, record the outcome after, answer a
// repeat from the ledger, and resolve an entry from the merchant (resolvePayout) or from the service's
// callback. The rules of which failures free a request_id are here, in one place (docs/payouts.md).
import { ApiError, DuplicatePayoutError, PayFormError, PayoutLedgerError, ValidationError } from '../errors.js';
import type { FieldIssue, PayoutRequest } from '../../service/fields.js';
import type { JsonObject, JsonValue } from '../../service/json.js';
import { payoutKey, type PayoutEntry, type PayoutFinish, type PayoutLedger } from './payout-ledger.js';
import { sendUntilTaken } from '../stores/retry.js';
import { traced } from '../telemetry/otel.js';

/** Which payout: the service scopes request_ids by merchant (the client's) and site. */
export interface PayoutRef {
  site_id: number;
  request_id: string;
}

/** What the merchant learned about a payout whose outcome was unknown. */
export type PayoutOutcome =
  | { status: 'paid'; invoice: { invoice_id: string; [field: string]: JsonValue } }
  | { status: 'not-paid' };

/** The fields that make two payouts under one request_id the same payout. None of them is a secret. */
function fingerprint(request: PayoutRequest): string {
  return JSON.stringify([request.amount, request.currency, request.method, request.site_login]);
}

/**
 * True when the service provably did not pay: the connection was refused (nothing arrived), or it
 * answered a signed `success: false` with a 4xx other than 409. A 409 says a payout with this request_id
 * may already exist; a 5xx, an unsigned failure, a time-out or an unusable answer leave it unknown.
 */
function refusedForSure(error: unknown): boolean {
  if (error instanceof ApiError) return error.verified && error.status >= 400 && error.status < 500 && error.status !== 409;
  return error instanceof PayFormError && (error as { outcomeUnknown?: unknown }).outcomeUnknown === false;
}

function unknownReason(error: unknown): string {
  return error instanceof PayFormError ? error.code : 'error';
}

/** A repeat's answer from the ledger: the stored invoice, or a typed refusal. */
function replay(held: PayoutEntry, request: PayoutRequest, fp: string): JsonObject {
  const ref = { siteId: request.site_id, requestId: request.request_id };
  if (held.fingerprint !== '' && held.fingerprint !== fp) {
    throw new DuplicatePayoutError({ ...ref, state: held.state, mismatch: true });
  }
  if (held.state !== 'paid') throw new DuplicatePayoutError({ ...ref, state: held.state, mismatch: false });
  // A copy: what the caller does with its answer must not change what the ledger holds.
  if (held.source === 'answer') return structuredClone(held.invoice);
  // Settled by a callback or the merchant: the request's own fields, then what was learned. It carries
  // no service signature of its own (it was verified, or given, where it was learned).
  const { request_id, amount, currency, site_login, site_id } = request;
  return { request_id, amount, currency, site_login, site_id, ...held.invoice, success: true, signature: '' };
}

/**
 * Sends `request` (already validated and signed) once per request_id: claims it, sends, records the
 * outcome. A ledger that cannot claim means nothing is sent, and the claim is released: a claim that
 * reaches the ledger after this call gave up (Redis answered late, or a primary ran it and died before
 * answering, its replica now serving) would otherwise hold the request_id in flight for the whole
 * lease, then leave it unknown. An outcome the ledger cannot record at once is sent again until it
 * can (a failover ends) or the lease ends; meanwhile the claim is in flight, and after the lease it
 * reads as unknown, which is safe.
 */
export async function guardedPayout(
  ledger: PayoutLedger,
  merchantId: string,
  request: PayoutRequest,
  leaseMs: number,
  send: () => Promise<Record<string, unknown>>,
): Promise<JsonObject> {
  const key = payoutKey(merchantId, request.site_id, request.request_id);
  const fp = fingerprint(request);
  const token = crypto.randomUUID();
  let held: PayoutEntry | undefined;
  try {
    held = await traced('pay_form.payout.claim', undefined, () => ledger.claim(key, { token, fingerprint: fp, leaseMs }));
  } catch (error) {
    void settle(ledger, key, token, { state: 'free' }, leaseMs);
    throw new PayoutLedgerError('claim', error);
  }
  if (held) return replay(held, request, fp);
  let outcome: PayoutFinish;
  try {
    const body = (await send()) as JsonObject;
    outcome = { state: 'paid', invoice: body };
    return body;
  } catch (error) {
    outcome = refusedForSure(error) ? { state: 'free' } : { state: 'unknown', reason: unknownReason(error) };
    throw error;
  } finally {
    await settle(ledger, key, token, outcome!, leaseMs);
  }
}

/**
 * finish(), at once (after a claim that threw: on the same connection, so it runs after a claim that
 * lands late) and, when that fails, again until the ledger takes it or the claim's lease ends. Only
 * this call's token is settled (the contract's finish), so a late one never touches another call's claim.
 */
async function settle(ledger: PayoutLedger, key: string, token: string, outcome: PayoutFinish, leaseMs: number): Promise<void> {
  await sendUntilTaken(() => ledger.finish(key, token, outcome), leaseMs);
}

function refIssues(ref: unknown): FieldIssue[] {
  const r = (typeof ref === 'object' && ref !== null ? ref : {}) as Record<string, unknown>;
  return [
    ...(Number.isSafeInteger(r['site_id']) ? [] : [{ path: 'site_id', message: 'must be an integer' }]),
    ...(typeof r['request_id'] === 'string' && r['request_id'] !== '' ? [] : [{ path: 'request_id', message: 'must be a non-empty string' }]),
  ];
}

/**
 * Records what the merchant learned. `paid` stores the invoice (a repeat answers it); `not-paid` frees
 * the request_id for a new payout. Either is refused while the payout is in flight. Answers what the
 * ledger holds afterwards (undefined: free).
 */
export async function resolvePayout(
  ledger: PayoutLedger,
  merchantId: string,
  ref: PayoutRef,
  outcome: PayoutOutcome,
): Promise<PayoutEntry | undefined> {
  const issues = refIssues(ref);
  const o = (typeof outcome === 'object' && outcome !== null ? outcome : {}) as Record<string, unknown>;
  const invoice = o['invoice'] as Record<string, unknown> | undefined;
  if (o['status'] !== 'paid' && o['status'] !== 'not-paid') issues.push({ path: 'outcome.status', message: "must be 'paid' or 'not-paid'" });
  if (o['status'] === 'paid' && (typeof invoice !== 'object' || invoice === null || typeof invoice['invoice_id'] !== 'string' || invoice['invoice_id'] === '')) {
    issues.push({ path: 'outcome.invoice.invoice_id', message: 'must be a non-empty string' });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  const key = payoutKey(merchantId, ref.site_id, ref.request_id);
  let after: PayoutEntry | undefined;
  try {
    after = await ledger.resolve(
      key,
      outcome.status === 'paid' ? { status: 'paid', invoice: outcome.invoice, source: 'merchant', create: true } : { status: 'not-paid' },
    );
  } catch (error) {
    throw new PayoutLedgerError('resolve', error);
  }
  // In flight, the sending call's own answer finishes it, signed; the merchant's word would replace it.
  if (after?.state === 'in-flight') {
    throw new DuplicatePayoutError({ siteId: ref.site_id, requestId: ref.request_id, state: 'in-flight', mismatch: false });
  }
  return after;
}

/**
 * The callback handler's hook: a verified callback for a payout the ledger holds resolves it. `fail`
 * frees the request_id; any other status shows the service has the payout, so it is recorded paid.
 * Callbacks for request_ids the ledger does not hold (payments, old payouts) change nothing. A `fail`
 * while the payout is still in flight throws, so the handler answers 500 and the service delivers again.
 */
export async function resolveFromCallback(ledger: PayoutLedger, payload: Record<string, unknown>): Promise<void> {
  const { merchant_id, site_id, request_id, invoice_id, status } = payload;
  if (typeof merchant_id !== 'string' || !Number.isSafeInteger(site_id) || typeof request_id !== 'string') return;
  const key = payoutKey(merchant_id, site_id as number, request_id);
  if (status !== 'fail') {
    await ledger.resolve(key, { status: 'paid', invoice: payload as JsonObject, source: 'callback', create: false });
    return;
  }
  const after = await ledger.resolve(key, { status: 'not-paid', invoiceId: String(invoice_id) });
  if (after?.state === 'in-flight') {
    throw new DuplicatePayoutError({ siteId: site_id as number, requestId: request_id, state: 'in-flight', mismatch: false });
  }
}
