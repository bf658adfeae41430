// The default payout ledger, for one process: the contract of payout-ledger.ts kept in a Map.
import type { JsonObject } from '../../service/json.js';
import { OldestFirst } from '../stores/oldest-first.js';
import { requireOptions } from '../errors.js';
import { atLeastOne, milliseconds } from '../../service/option-rules.js';
import { LEASE_EXPIRED, type PayoutEntry, type PayoutClaim, type PayoutFinish, type PayoutResolution, type PayoutLedger } from './payout-ledger.js';

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
  // Only paid entries may go: in-flight and unknown ones stay until resolved. An entry becomes paid
  // only through #paid, which sets it again at the end, so insertion order is the paid entries' age.
  readonly #oldPaid = new OldestFirst(this.#held, (held) => held.entry.state === 'paid');

  constructor(options: MemoryPayoutLedgerOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.ttlMs = options.ttlMs ?? 30 * 24 * 60 * 60 * 1000;
    requireOptions('MemoryPayoutLedger', [
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
      if (held?.entry.state === 'in-flight' && resolution.source === 'merchant') return held.entry;
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
