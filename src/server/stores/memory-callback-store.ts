// The default store, for one process: done keys and verified statuses in Maps used as LRUs, in-flight
// claims with a lease, and watchers told in-process.
import type { CallbackStore, ClaimResult, OrderOutcome, OrderStatus } from './callback-store.js';
import { Watchers } from './watchers.js';
import { OldestFirst } from './oldest-first.js';
import { requireOptions } from '../errors.js';
import { atLeastOne, milliseconds } from '../../service/option-rules.js';

export interface MemoryCallbackStoreOptions {
  /** Most done keys kept, and most order statuses kept; the least recently seen go first. Default 10,000. */
  maxEntries?: number;
  /** How long a done key and an order's status are remembered. Default 24 hours. */
  ttlMs?: number;
  /** How long an in-flight claim holds before the next delivery may claim it again. Default 60 s. */
  leaseMs?: number;
}

type Entry =
  | { state: 'done'; at: number }
  | { state: 'in-flight'; until: number; settled: Promise<'done' | 'failed'>; settle: (outcome: 'done' | 'failed') => void };

/**
 * A Map used as an LRU of done keys, bounded by maxEntries and ttlMs. Keys in flight are never
 * evicted (there are only as many as concurrent calls); a claim older than leaseMs is taken again by
 * the next delivery. A repeat that arrives after its key was evicted calls onStatus again, so keep
 * onStatus idempotent for old repeats.
 */
export class MemoryCallbackStore implements CallbackStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly leaseMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #statuses = new Map<string, OrderStatus & { at: number }>();
  readonly #watchers = new Watchers();
  // Keys in flight are never evicted; every recorded status may be.
  readonly #oldEntries = new OldestFirst(this.#entries, (entry) => entry.state === 'done');
  readonly #oldStatuses = new OldestFirst(this.#statuses, () => true);

  constructor(options: MemoryCallbackStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    requireOptions('MemoryCallbackStore', [
      ['maxEntries', atLeastOne(this.maxEntries)],
      ['ttlMs', milliseconds(this.ttlMs)],
      ['leaseMs', milliseconds(this.leaseMs)],
    ]);
  }

  /** How many keys are held now (done and in flight). */
  get size(): number {
    return this.#entries.size;
  }

  async begin(key: string): Promise<ClaimResult> {
    const entry = this.#entries.get(key);
    const now = Date.now();
    if (entry?.state === 'in-flight') {
      if (now < entry.until) return 'in-flight';
      // The lease ran out: whoever waits on the old claim hears 'failed', and this delivery retakes it.
      entry.settle('failed');
    }
    if (entry?.state === 'done' && now - entry.at < this.ttlMs) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return 'done';
    }
    let settle!: (outcome: 'done' | 'failed') => void;
    const settled = new Promise<'done' | 'failed'>((resolve) => (settle = resolve));
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'in-flight', until: now + this.leaseMs, settled, settle });
    this.#oldEntries.trim(this.maxEntries);
    return 'new';
  }

  async complete(key: string, outcome?: OrderOutcome): Promise<void> {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'done', at: Date.now() });
    if (outcome !== undefined) this.#record(outcome);
    if (entry?.state === 'in-flight') entry.settle('done');
    this.#oldEntries.trim(this.maxEntries);
    if (outcome !== undefined) this.#watchers.notify(outcome.request_id);
  }

  async fail(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state !== 'in-flight') return;
    this.#entries.delete(key);
    entry.settle('failed');
  }

  async settled(key: string): Promise<'done' | 'failed'> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return 'failed';
    return entry.state === 'done' ? 'done' : entry.settled;
  }

  async status(requestId: string): Promise<OrderStatus | undefined> {
    const found = this.#statuses.get(requestId);
    if (found === undefined) return undefined;
    if (Date.now() - found.at >= this.ttlMs) {
      this.#statuses.delete(requestId);
      return undefined;
    }
    return { status: found.status, invoice_id: found.invoice_id };
  }

  watch(requestId: string, listener: () => void): () => void {
    return this.#watchers.add(requestId, listener);
  }

  #record({ request_id, status, invoice_id }: OrderOutcome): void {
    this.#statuses.delete(request_id);
    this.#statuses.set(request_id, { status, invoice_id, at: Date.now() });
    this.#oldStatuses.trim(this.maxEntries);
  }
}
