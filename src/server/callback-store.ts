// De-duplication of callbacks. The callback handler claims a key (invoice_id + status) before it
// calls onStatus, and marks it done or failed afterwards, so a repeat is answered without a second
// call, concurrent deliveries hand over once, and a failure leaves the key free for the next delivery.

export type ClaimResult = 'new' | 'done' | 'in-flight';

/**
 * Where handled callbacks are remembered. All methods are async so a shared store (Redis, SQL) fits.
 * For several servers behind one callback URL, implement it on a shared store:
 * - begin: atomically claim the key if absent (Redis `SET key in-flight NX PX <lease>`), answering
 *   'new' when the claim was made, 'done' or 'in-flight' from the existing value. Give the in-flight
 *   claim a lease (say 60 s) so a server that dies mid-call does not block the key forever.
 * - complete: store 'done' with a long TTL (days: longer than the service's redelivery window).
 * - fail: delete the claim, so the service's next delivery calls onStatus again.
 * - settled (optional): wait until an in-flight key is done or failed. Without it the handler answers
 *   an in-flight repeat with 503 and Retry-After, and the service's next delivery finds it done.
 */
export interface CallbackStore {
  begin(key: string): Promise<ClaimResult>;
  complete(key: string): Promise<void>;
  fail(key: string): Promise<void>;
  settled?(key: string): Promise<'done' | 'failed'>;
}

export interface MemoryCallbackStoreOptions {
  /** Most keys kept; the least recently seen done keys are dropped first. Default 10,000. */
  maxEntries?: number;
  /** How long a done key is remembered. Default 24 hours. */
  ttlMs?: number;
}

type Entry =
  | { state: 'done'; at: number }
  | { state: 'in-flight'; settled: Promise<'done' | 'failed'>; settle: (outcome: 'done' | 'failed') => void };

/**
 * The default store, for one process: a Map used as an LRU of done keys, bounded by maxEntries and
 * ttlMs. Keys in flight are never evicted (there are only as many as concurrent calls). A repeat that
 * arrives after its key was evicted calls onStatus again, so keep onStatus idempotent for old repeats.
 */
export class MemoryCallbackStore implements CallbackStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryCallbackStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    if (!Number.isSafeInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError('maxEntries must be a whole number, 1 or more');
    }
    if (!(this.ttlMs > 0)) throw new RangeError('ttlMs must be above 0');
  }

  /** How many keys are held now (done and in flight). */
  get size(): number {
    return this.#entries.size;
  }

  async begin(key: string): Promise<ClaimResult> {
    const entry = this.#entries.get(key);
    if (entry?.state === 'in-flight') return 'in-flight';
    if (entry?.state === 'done' && Date.now() - entry.at < this.ttlMs) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return 'done';
    }
    let settle!: (outcome: 'done' | 'failed') => void;
    const settled = new Promise<'done' | 'failed'>((resolve) => (settle = resolve));
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'in-flight', settled, settle });
    this.#evict();
    return 'new';
  }

  async complete(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'done', at: Date.now() });
    if (entry?.state === 'in-flight') entry.settle('done');
    this.#evict();
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

  // Scanning from the first key on every eviction grew costly once the store was full (see
  // docs/performance.md): the Map's iteration steps over every slot deleted since its last compaction. A cursor kept
  // between evictions starts where the last one stopped. Only in-flight keys are ever left behind it
  // (complete and begin re-insert a key at the end, fail deletes it), so the first done key after it is
  // the least recently seen one, exactly as a scan from the start would find.
  #cursor: Iterator<string> = this.#entries.keys();

  #evict(): void {
    let restarted = false;
    while (this.#entries.size > this.maxEntries) {
      const next = this.#cursor.next();
      if (next.done === true) {
        // Only in-flight keys left, or the cursor ran out: start again from the first key, once.
        if (restarted) return;
        restarted = true;
        this.#cursor = this.#entries.keys();
        continue;
      }
      if (this.#entries.get(next.value)?.state === 'done') this.#entries.delete(next.value);
    }
  }
}
