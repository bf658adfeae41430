// The payout ledger: where PaymentClient claims a payout's request_id before sending it, so a payout
// goes out once even when several processes (a retry job, a web request, a restarted queue) ask for
// it. The states, their transitions and what the merchant does in each are in docs/server.md (Payout
// ledger). This file holds the contract every ledger keeps and the one-process MemoryPayoutLedger;
// RedisPayoutLedger keeps the same contract for several processes.
import type { JsonObject } from '../service/json.js';
import { OldestFirst } from './oldest-first.js';
import { requireStoreOptions } from './store-options.js';
import { atLeastOne, milliseconds } from '../service/option-rules.js';

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
 *   callback or the merchant settled it first.
 * - resolve: `paid` turns in-flight or unknown into paid and leaves a paid entry as it is; `not-paid`
 *   deletes an unknown or paid entry and leaves one in flight (lease live) unchanged. Answers the
 *   entry afterwards (undefined when free), so the caller sees a refusal.
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

export interface MemoryPayoutLedgerOptions {
  /** Most paid entries kept; the oldest are dropped first. In-flight and unknown are never dropped. Default 100,000. */
  maxEntries?: number;
  /** How long a paid entry is remembered. Default 30 days. */
  ttlMs?: number;
}

type Held = { entry: PayoutEntry; token: string | undefined; until: number; at: number };

/**
 * The default ledger, for one process (it keeps its own copy of each invoice, as a shared store would): every createPayout of this process goes through it, so two
 * concurrent calls for one request_id send once. It does not see other processes: use
 * RedisPayoutLedger (or your own PayoutLedger on a shared store) when several send payouts.
 */
export class MemoryPayoutLedger implements PayoutLedger {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly #held = new Map<string, Held>();
  // Only paid entries may go: in-flight and unknown ones stay until settled. An entry becomes paid
  // only through #paid, which sets it again at the end, so insertion order is the paid entries' age.
  readonly #oldPaid = new OldestFirst(this.#held, (held) => held.entry.state === 'paid');

  constructor(options: MemoryPayoutLedgerOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.ttlMs = options.ttlMs ?? 30 * 24 * 60 * 60 * 1000;
    requireStoreOptions('MemoryPayoutLedger', [
      ['maxEntries', atLeastOne(this.maxEntries)],
      ['ttlMs', milliseconds(this.ttlMs)],
    ]);
  }

  /** How many entries are held now. */
  get size(): number {
    return this.#held.size;
  }

  async claim(key: string, claim: PayoutClaim): Promise<PayoutEntry | undefined> {
    const held = this.#current(key);
    if (held) return held.entry;
    const now = Date.now();
    this.#held.set(key, { entry: { state: 'in-flight', fingerprint: claim.fingerprint }, token: claim.token, until: now + claim.leaseMs, at: now });
    return undefined;
  }

  async finish(key: string, token: string, outcome: PayoutFinish): Promise<void> {
    const held = this.#current(key);
    if (!held || held.token !== token || held.entry.state === 'paid') return;
    const fingerprint = held.entry.fingerprint;
    if (outcome.state === 'free') this.#held.delete(key);
    else if (outcome.state === 'paid') this.#paid(key, { state: 'paid', fingerprint, invoice: structuredClone(outcome.invoice), source: 'answer' });
    else held.entry = { state: 'unknown', fingerprint, reason: outcome.reason };
  }

  async resolve(key: string, resolution: PayoutResolution): Promise<PayoutEntry | undefined> {
    const held = this.#current(key);
    if (resolution.status === 'paid') {
      if (held?.entry.state === 'paid' || (!held && !resolution.create)) return held?.entry;
      const fingerprint = held?.entry.fingerprint ?? '';
      this.#paid(key, { state: 'paid', fingerprint, invoice: structuredClone(resolution.invoice), source: resolution.source });
      return this.#held.get(key)?.entry;
    }
    if (!held || held.entry.state === 'in-flight') return held?.entry;
    const id = resolution.invoiceId;
    if (held.entry.state === 'paid' && id !== undefined && String(held.entry.invoice['invoice_id']) !== id) return held.entry;
    this.#held.delete(key);
    return undefined;
  }

  async get(key: string): Promise<PayoutEntry | undefined> {
    return this.#current(key)?.entry;
  }

  /** The entry with its lease and age applied: an expired paid entry is gone, a stale claim unknown. */
  #current(key: string): Held | undefined {
    const held = this.#held.get(key);
    if (!held) return undefined;
    const now = Date.now();
    if (held.entry.state === 'paid' && now - held.at >= this.ttlMs) {
      this.#held.delete(key);
      return undefined;
    }
    if (held.entry.state === 'in-flight' && now >= held.until) {
      held.entry = { state: 'unknown', fingerprint: held.entry.fingerprint, reason: LEASE_EXPIRED };
    }
    return held;
  }

  #paid(key: string, entry: PayoutEntry): void {
    this.#held.delete(key);
    // Room for this one first, so the entry just paid is never the one evicted.
    this.#oldPaid.trim(this.maxEntries - 1);
    this.#held.set(key, { entry, token: undefined, until: 0, at: Date.now() });
  }
}
