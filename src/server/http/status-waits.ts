// The status handler's waiting requests (docs/server.md, Status endpoint): what one open checkout costs
// while it waits is its socket and a small record here. Waits on one order share one entry and one
// `watch` of the store, so news of an order wakes that entry alone, which reads the store once per
// attempt asked and answers all of its waits. Deadlines are kept by one sweep per handler (no timer per
// request); the store's watch vouches for news missed (status-feed.ts), so nothing reads the store on a
// clock while the store watches. A store without watch is read once per waiting order every RECONCILE_MS.
import type { OrderStatus, StatusStore } from '../stores/callback-store.js';

/** How often a store without watch is read for each waiting order. */
export const RECONCILE_MS = 1000;

/** The answer to one wait: the status, undefined when none came in time (or the client left), null when the store failed. */
export type WaitResult = OrderStatus | undefined | null;

/** Why a wait was refused at once: this process's waits are all taken, or this order's are. */
export type Refusal = 'full' | 'order-full';

interface Waiter {
  readonly attempt: string | undefined;
  readonly deadline: number;
  readonly done: (result: WaitResult) => void;
  readonly signal: AbortSignal | undefined;
  readonly left: () => void;
}

interface Entry {
  readonly orderRef: string;
  readonly waiters: Waiter[];
  unwatch: (() => void) | undefined;
  reading: boolean;
  again: boolean;
}

export interface StatusWaitsOptions {
  waitMs: number;
  maxWaiters: number;
  maxPerOrder: number;
  onError: ((error: unknown) => void) | undefined;
}

export class StatusWaits {
  readonly #entries = new Map<string, Entry>();
  readonly #tickMs: number;
  #count = 0;
  #sweep: ReturnType<typeof setInterval> | undefined;
  #lastReconcile = 0;

  constructor(
    private readonly store: StatusStore,
    private readonly options: StatusWaitsOptions,
  ) {
    // A deadline is kept to within one tick: a second on the default 25 s, finer for short waits.
    this.#tickMs = Math.min(1000, Math.max(10, Math.floor(options.waitMs / 10)));
  }

  /** Requests waiting now. */
  get size(): number {
    return this.#count;
  }

  /** Orders waited on now (one entry and one watch each). */
  get orders(): number {
    return this.#entries.size;
  }

  /**
   * Waits for a verified status of `attempt` of the order, at most waitMs less a random fifth (so pages
   * that opened together do not ask again together), or until `signal` aborts; a Refusal at once when
   * maxWaiters requests wait in this process or maxPerOrder on this order.
   */
  wait(orderRef: string, attempt: string | undefined, signal: AbortSignal | undefined): Promise<WaitResult> | Refusal {
    if (this.#count >= this.options.maxWaiters) return 'full';
    let entry = this.#entries.get(orderRef);
    if (entry !== undefined && entry.waiters.length >= this.options.maxPerOrder) return 'order-full';
    if (entry === undefined) {
      const created: Entry = { orderRef, waiters: [], unwatch: undefined, reading: false, again: false };
      created.unwatch = this.store.watch?.(orderRef, () => this.#read(created));
      this.#entries.set(orderRef, (entry = created));
    }
    const joined = entry;
    const { waitMs } = this.options;
    const deadline = Date.now() + Math.max(0, waitMs * (0.8 + 0.2 * Math.random()) - this.#tickMs);
    return new Promise<WaitResult>((resolve) => {
      const waiter: Waiter = {
        attempt,
        deadline,
        signal,
        done: resolve,
        left: () => this.#end(joined, waiter, undefined),
      };
      joined.waiters.push(waiter);
      this.#count++;
      signal?.addEventListener('abort', waiter.left);
      this.#startSweep();
      // News that came between the handler's first look and this watch: read once now.
      this.#read(joined);
    });
  }

  /** Reads the entry's attempts once (again when news came during a read) and answers the waits it can. */
  #read(entry: Entry): void {
    if (entry.reading) {
      entry.again = true;
      return;
    }
    entry.reading = true;
    entry.again = false;
    const attempts = [...new Set(entry.waiters.map((waiter) => waiter.attempt))];
    void Promise.all(
      attempts.map(async (attempt) => {
        let result: WaitResult;
        try {
          result = await this.store.status(entry.orderRef, attempt);
        } catch (error) {
          this.options.onError?.(error);
          result = null;
        }
        if (result === undefined) return;
        for (const waiter of entry.waiters.filter((w) => w.attempt === attempt)) this.#end(entry, waiter, result);
      }),
    ).then(() => {
      entry.reading = false;
      if (entry.again && entry.waiters.length > 0) this.#read(entry);
    });
  }

  #end(entry: Entry, waiter: Waiter, result: WaitResult): void {
    const at = entry.waiters.indexOf(waiter);
    if (at === -1) return;
    entry.waiters.splice(at, 1);
    this.#count--;
    waiter.signal?.removeEventListener('abort', waiter.left);
    if (entry.waiters.length === 0 && this.#entries.get(entry.orderRef) === entry) {
      this.#entries.delete(entry.orderRef);
      entry.unwatch?.();
    }
    if (this.#count === 0) this.#stopSweep();
    waiter.done(result);
  }

  #startSweep(): void {
    if (this.#sweep !== undefined) return;
    this.#sweep = setInterval(() => this.#tick(), this.#tickMs);
    this.#sweep.unref?.();
  }

  #stopSweep(): void {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  /** Ends the waits past their deadline; without a watch, reads every waiting order each RECONCILE_MS. */
  #tick(): void {
    const now = Date.now();
    const reconcile = this.store.watch === undefined && now - this.#lastReconcile >= RECONCILE_MS;
    if (reconcile) this.#lastReconcile = now;
    for (const entry of [...this.#entries.values()]) {
      if (entry.waiters.some((w) => w.deadline <= now)) {
        for (const waiter of entry.waiters.filter((w) => w.deadline <= now)) this.#end(entry, waiter, undefined);
      }
      if (reconcile && entry.waiters.length > 0) this.#read(entry);
    }
  }
}
