// The payout ledger: where PaymentClient claims a payout's request_id before sending it, so a payout
// goes out once even when several processes (a retry job, a web request, a restarted queue) ask for
// it. The states, their transitions and what the merchant does in each are in docs/payouts.md.
// This file holds the contract every ledger keeps: MemoryPayoutLedger keeps it in one
// process, RedisPayoutLedger for several.
import type { JsonObject } from '../../service/json.js';

/** Where a paid entry's invoice came from: the service's signed answer, its callback, or the merchant. */
export type PaidSource = 'answer' | 'callback' | 'merchant';

/**
 * What the ledger holds for one (merchant, site_id, request_id). No entry means the request_id is
 * free: nothing was sent, or the merchant or the service said it was not paid.
 * - `in-flight`: a process claimed it and is sending it now.
 * - `unknown`: it was sent and no verified answer came back (time-out, cut connection, unusable or
 *   unsigned answer, a 5xx, or a process that died mid-payout): it stays so until reconciled.
 * - `paid`: the service has the payout; `invoice` is its answer (or the callback's / merchant's word).
 * `fingerprint` names the amount, currency, method and site_login of the claiming request ('' when the
 * merchant recorded the entry), so a repeat that differs is refused rather than answered.
 */
export type PayoutEntry =
  | { state: 'in-flight'; fingerprint: string }
  | { state: 'unknown'; fingerprint: string; reason: string }
  | { state: 'paid'; fingerprint: string; invoice: JsonObject; source: PaidSource };

export type PayoutState = PayoutEntry['state'];

/** A claim: who holds it (a random token per call) and for how long it counts as live. */
export interface PayoutClaim {
  token: string;
  fingerprint: string;
  /** After this long without finish(), the entry reads as unknown: its holder died or hung. */
  leaseMs: number;
}

/** How the claiming call ended: paid, unknown, or `free` (the request provably did not pay). */
export type PayoutFinish = { state: 'paid'; invoice: JsonObject } | { state: 'unknown'; reason: string } | { state: 'free' };

/**
 * What was learned outside the call: from a callback (`create: false`, only entries that exist
 * change) or from the merchant (`create: true`, a paid entry is recorded even if none existed).
 * `not-paid` with an `invoiceId` frees a paid entry only when that invoice is the one it holds.
 */
export type PayoutResolution =
  | { status: 'paid'; invoice: JsonObject; source: Exclude<PaidSource, 'answer'>; create: boolean }
  | { status: 'not-paid'; invoiceId?: string };

/**
 * The contract of a payout ledger; every method is atomic for its key across all the ledger's users.
 * - claim: when the key is free, store `in-flight` under the claim's token and lease and answer
 *   undefined; otherwise answer the entry, an in-flight one whose lease ran out as `unknown`
 *   (reason `lease-expired`). An in-flight or unknown entry is never freed by time.
 * - finish: only while the entry is still the one claimed with `token` (in flight, or unknown after
 *   its lease ran out): store the outcome, or delete the entry for `free`. Otherwise do nothing: a
 *   callback or the merchant resolved it first, or the claim never landed. A claim that threw is
 *   followed by finish(`free`) with its token, so one that lands late is released, not left in flight;
 *   a finish that throws is sent again until it is taken or the claim's lease ends, so it must be
 *   idempotent (the token makes it so).
 * - resolve: `paid` from a callback turns in-flight or unknown into paid; from the merchant it turns
 *   unknown into paid (or records a free key) and leaves one in flight (lease live) unchanged; a paid
 *   entry stays as it is. `not-paid` deletes an unknown or paid entry and leaves one in flight
 *   unchanged. Answers the entry afterwards (undefined when free), so the caller sees a refusal.
 * - get: the entry, in-flight past its lease read as unknown.
 */
export interface PayoutLedger {
  claim(key: string, claim: PayoutClaim): Promise<PayoutEntry | undefined>;
  finish(key: string, token: string, outcome: PayoutFinish): Promise<void>;
  resolve(key: string, resolution: PayoutResolution): Promise<PayoutEntry | undefined>;
  get(key: string): Promise<PayoutEntry | undefined>;
}

/** The ledger key: one per merchant, site and request_id, as the service scopes request_ids. */
export function payoutKey(merchantId: string, siteId: number, requestId: string): string {
  return JSON.stringify([merchantId, siteId, requestId]);
}

export const LEASE_EXPIRED = 'lease-expired';
