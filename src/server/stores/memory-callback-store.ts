// The default store, for one process: finished callbacks and orders in Maps used as LRUs, in-flight
// claims with a lease, and watchers told in-process.
import { claimKey, orderStatus, type AttemptRequest, type AttemptStart, type CallbackRecord, type CallbackStore, type ClaimResult, type KeptToken, type OrderStatus, type StatusNews, type Verdict } from './callback-store.js';
import { dropIn, judgeIn, keepIn, recordIn, startIn, type AttemptBook } from './attempt-rules.js';
import { Watchers } from './watchers.js';
import { OldestFirst } from './oldest-first.js';
import { requireOptions } from '../errors.js';
import { atLeastOne, milliseconds } from '../../service/option-rules.js';

export interface MemoryCallbackStoreOptions {
  /** Most finished callbacks kept, and most orders kept; the least recently seen go first. Default 10,000. */
  maxEntries?: number;
  /** How long a finished callback and an order's record are remembered. Default 24 hours. */
  ttlMs?: number;
  /** How long an in-flight claim holds before the next delivery may claim it again. Default 60 s. */
  leaseMs?: number;
}

type Entry =
  | { state: 'finished'; at: number }
  | { state: 'in-flight'; until: number; ended: Promise<'finished' | 'released'>; end: (how: 'finished' | 'released') => void };

/** One order: its attempts (attempt-rules.ts), and when it was last seen. */
interface Order extends AttemptBook {
  at: number;
}

/**
 * Maps used as LRUs of finished callbacks and of orders, bounded by maxEntries and ttlMs. Claims in
 * flight are never evicted (there are only as many as concurrent calls); a claim older than leaseMs is
 * taken again by the next delivery. A repeat that arrives after its callback was evicted calls
 * onStatus again, so keep onStatus idempotent for old repeats.
 */
export class MemoryCallbackStore implements CallbackStore {
  readonly maxEntries: number;
  readonly ttlMs: number;
  readonly leaseMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #orders = new Map<string, Order>();
  readonly #watchers = new Watchers();
  // Claims in flight are never evicted; every order may be.
  readonly #oldEntries = new OldestFirst(this.#entries, (entry) => entry.state === 'finished');
  readonly #oldOrders = new OldestFirst(this.#orders, () => true);

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

  /** How many callbacks are held now (finished and in flight). */
  get size(): number {
    return this.#entries.size;
  }

  async claim(callback: CallbackRecord): Promise<ClaimResult> {
    const key = claimKey(callback);
    const entry = this.#entries.get(key);
    const now = Date.now();
    if (entry?.state === 'in-flight') {
      if (now < entry.until) return 'in-flight';
      // The lease ran out: whoever waits on the old claim hears 'released', and this delivery retakes it.
      entry.end('released');
    }
    if (entry?.state === 'finished' && now - entry.at < this.ttlMs) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return 'finished';
    }
    let end!: (how: 'finished' | 'released') => void;
    const ended = new Promise<'finished' | 'released'>((resolve) => (end = resolve));
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'in-flight', until: now + this.leaseMs, ended, end });
    this.#oldEntries.trim(this.maxEntries);
    return 'claimed';
  }

  async finish(callback: CallbackRecord): Promise<void> {
    const key = claimKey(callback);
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    this.#entries.set(key, { state: 'finished', at: Date.now() });
    let news: StatusNews | undefined;
    if (callback.order_ref !== '' && callback.verdict !== undefined && callback.verdict.verdict !== 'foreign') {
      const order = this.#touch(callback.order_ref);
      recordIn(order, callback);
      news = { attempt: callback.attempt, own: order.outcomes.get(callback.attempt), paid: order.paid };
    }
    if (entry?.state === 'in-flight') entry.end('finished');
    this.#oldEntries.trim(this.maxEntries);
    if (callback.order_ref !== '') this.#watchers.notify(callback.order_ref, news);
  }

  async release(callback: CallbackRecord): Promise<void> {
    const key = claimKey(callback);
    const entry = this.#entries.get(key);
    if (entry?.state !== 'in-flight') return;
    this.#entries.delete(key);
    entry.end('released');
  }

  async waitForClaim(callback: CallbackRecord): Promise<'finished' | 'released'> {
    const entry = this.#entries.get(claimKey(callback));
    if (entry === undefined) return 'released';
    return entry.state === 'finished' ? 'finished' : entry.ended;
  }

  async status(orderRef: string, attempt?: string): Promise<OrderStatus | undefined> {
    const order = this.#order(orderRef);
    if (order === undefined) return undefined;
    return orderStatus({ paid: order.paid, own: order.outcomes.get(attempt ?? order.current ?? '') });
  }

  async judge(callback: CallbackRecord): Promise<Verdict> {
    return callback.order_ref === '' ? { verdict: 'foreign' } : judgeIn(this.#touch(callback.order_ref), callback);
  }

  async startAttempt(orderRef: string, request: AttemptRequest): Promise<AttemptStart> {
    return startIn(this.#touch(orderRef), request, Date.now());
  }

  async keepToken(orderRef: string, attempt: string, token: KeptToken): Promise<'kept' | 'paid' | 'gone'> {
    return keepIn(this.#touch(orderRef), attempt, token);
  }

  async dropAttempt(orderRef: string, attempt: string): Promise<void> {
    dropIn(this.#touch(orderRef), attempt);
  }

  watch(orderRef: string, listener: (news?: StatusNews) => void): () => void {
    return this.#watchers.add(orderRef, listener);
  }

  /** The order's record while it is within ttlMs. */
  #order(orderRef: string): Order | undefined {
    const order = this.#orders.get(orderRef);
    if (order !== undefined && Date.now() - order.at >= this.ttlMs) {
      this.#orders.delete(orderRef);
      return undefined;
    }
    return order;
  }

  /** The order's record (a new one when absent or expired), made the most recently seen. */
  #touch(orderRef: string): Order {
    const order = this.#order(orderRef) ?? { started: new Map(), outcomes: new Map<string, OrderStatus>(), at: 0 };
    order.at = Date.now();
    this.#orders.delete(orderRef);
    this.#orders.set(orderRef, order);
    this.#oldOrders.trim(this.maxEntries);
    return order;
  }
}
