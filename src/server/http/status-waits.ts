// The status handler's waiting requests (docs/server.md, Status endpoint): what one open checkout costs
// while it waits is its socket and a small record here. Waits on one order share one entry and one
// `watch` of the store, so news of an order wakes that entry alone, which reads the store once per
// attempt asked and answers all of its waits. Deadlines are kept by one sweep per handler (no timer per
// request); the store's watch vouches for news missed (status-feed.ts), so nothing reads the store on a
// clock while the store watches, and an entry remembers which attempts read as nothing yet since the
// last news: a page that asks again after its 204 (or a refused flood) costs no read. Such an entry
// stays LINGER_MS after its last wait for that re-ask; one that remembers nothing goes at the next
// tick. A store without watch is read once per waiting order every RECONCILE_MS, and at each ask. A
// wait is the handler's own record of the request (status-handler.ts), kept here as it is: no promise,
// closure or listener of its own, its client's leaving read by the sweep (within a tick; at once when
// the process or the order is full, where a place is wanted).
import { orderStatus, type OrderStatus, type StatusNews, type StatusStore } from '../stores/callback-store.js';
import type { Incoming } from './handler-logic.js';

/** How often a store without watch is read for each waiting order. */
export const RECONCILE_MS = 1000;

/** How long an order's entry, and its watch, outlive its last wait when it read an attempt as nothing:
 *  longer than the page's pause between a 204 and its next ask (250 ms, settle-controller.ts). */
export const LINGER_MS = 5000;

/** The answer to one wait: the status, undefined when none came in time, 'left' when the client went
 *  away first, null when the store failed. */
export type WaitResult = OrderStatus | undefined | 'left' | null;

/** The waiting request, as far as a wait needs it: whether its client went away. */
export type Client = Pick<Incoming, 'left'>;

/** Why a wait was refused at once: this process's waits are all taken, or this order's are. */
export type Refusal = 'full' | 'order-full';

/** A wait's end when its client has left, else not yet. */
const LEFT = (wait: Wait): WaitResult | false => (wait.client.left() ? 'left' : false);

/** One waiting request, as the status handler hands it over. */
export interface Wait {
  readonly attempt: string | undefined;
  readonly client: Client;
  /** When it ends with undefined: set by wait(). */
  deadline: number;
  /** Its end, called once. */
  end(result: WaitResult): void;
}

interface Entry {
  readonly orderRef: string;
  /** Replaced, not pushed to, when one joins: a pushed array keeps room for 17, and an order has one
   *  or two waits (docs/performance.md, Open checkouts). */
  waiters: Wait[];
  unwatch: (() => void) | undefined;
  reading: boolean;
  again: boolean;
  /** Counts the news; a read answers for `known` only when none came while it ran. */
  news: number;
  /** Attempts ('' for none asked) read as no status since the last news; emptied by news. An array: an
   *  order has a few attempts at most, and an empty array costs less than an empty Set. */
  known: string[];
  /** When its last wait ended, while it lingers. */
  idleSince: number;
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
   * Waits for a verified status of `wait.attempt` of the order, at most waitMs less a random fifth (so
   * pages that opened together do not ask again together), or until the client goes away: `wait.end` is
   * called once with the result. A Refusal at once, and no end, when maxWaiters requests wait in this
   * process or maxPerOrder on this order (their clients that left counted out first).
   */
  wait(orderRef: string, wait: Wait): Refusal | undefined {
    let entry = this.#entries.get(orderRef);
    // Before a refusal, a look at each wait for a client that left (tens of microseconds for ten
    // thousand): its place is freed at once rather than at the next tick.
    if (this.#count >= this.options.maxWaiters && this.#endLeft(this.#entries.values()) === 0) return 'full';
    if (entry !== undefined && entry.waiters.length >= this.options.maxPerOrder && this.#endLeft([entry]) === 0) return 'order-full';
    if (entry === undefined) {
      const created: Entry = { orderRef, waiters: [], unwatch: undefined, reading: false, again: false, news: 0, known: [], idleSince: 0 };
      // Bound, not a closure over this call's scope: a bound function alone is the smaller, and an
      // order's entry keeps it for as long as anything waits on the order.
      created.unwatch = this.store.watch?.(orderRef, this.#heard.bind(this, created));
      this.#entries.set(orderRef, (entry = created));
    }
    wait.deadline = Date.now() + Math.max(0, this.options.waitMs * (0.8 + 0.2 * Math.random()) - this.#tickMs);
    entry.waiters = entry.waiters.concat(wait);
    this.#count++;
    this.#startSweep();
    // Read once now, unless the watch has vouched for this attempt since its last read.
    if (entry.unwatch === undefined || !entry.known.includes(wait.attempt ?? '')) this.#read(entry);
    return undefined;
  }

  /** Ends the waits of `entries` whose client went away; how many. */
  #endLeft(entries: Iterable<Entry>): number {
    let ended = 0;
    for (const entry of entries) ended += this.#endEach(entry, LEFT);
    return ended;
  }

  /** Ends the entry's waits that `result` gives a result for (false: not yet), in one pass; how many. */
  #endEach(entry: Entry, result: (wait: Wait) => WaitResult | false): number {
    let ended = 0;
    // From the end: #end takes the wait out of this very array.
    for (let i = entry.waiters.length - 1; i >= 0; i--) {
      const wait = entry.waiters[i]!;
      const outcome = result(wait);
      if (outcome !== false && this.#end(entry, wait, outcome)) ended++;
    }
    return ended;
  }


  /** Whether the order's entry has read `attempt` as no status, with no news since: no need to read it. */
  knownEmpty(orderRef: string, attempt: string | undefined): boolean {
    const entry = this.#entries.get(orderRef);
    return entry?.unwatch !== undefined && entry.known.includes(attempt ?? '');
  }

  /**
   * News of the order. With what changed, the waits on that attempt are answered from it, waits on
   * attempts already read as nothing from the payment it may carry, and only the rest (the order's
   * current attempt, an attempt whose read is still to come) read; without, every attempt is read.
   */
  #heard(entry: Entry, news: StatusNews | undefined): void {
    entry.news++;
    if (news === undefined) {
      entry.known = [];
      if (entry.waiters.length > 0) this.#read(entry);
      return;
    }
    const changed = orderStatus(news);
    let unread = false;
    for (const wait of [...entry.waiters]) {
      const attempt = wait.attempt;
      if (attempt === news.attempt && changed !== undefined) this.#end(entry, wait, changed);
      else if (attempt === undefined) unread = true;
      else if (news.paid !== undefined) {
        // Paid: an attempt read as nothing now answers the payment; any other may hold its own success.
        if (entry.known.includes(attempt)) this.#end(entry, wait, news.paid);
        else unread = true;
      }
    }
    // Every other attempt's own status is unchanged: what was read as nothing still is, unless paid.
    const at = entry.known.indexOf(news.attempt);
    if (news.paid !== undefined) entry.known = [];
    else if (at !== -1) entry.known.splice(at, 1);
    if (unread) this.#read(entry);
  }

  /** Reads the entry's attempts once (again when news came during a read) and answers the waits it can. */
  #read(entry: Entry): void {
    if (entry.reading) {
      entry.again = true;
      return;
    }
    entry.reading = true;
    entry.again = false;
    const news = entry.news;
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
        if (result === undefined) {
          if (entry.news === news && !entry.known.includes(attempt ?? '')) entry.known = entry.known.concat(attempt ?? '');
          return;
        }
        for (const wait of entry.waiters.filter((w) => w.attempt === attempt)) this.#end(entry, wait, result);
      }),
    ).then(() => {
      entry.reading = false;
      if (entry.again && entry.waiters.length > 0) this.#read(entry);
    });
  }

  #end(entry: Entry, wait: Wait, result: WaitResult): boolean {
    const at = entry.waiters.indexOf(wait);
    if (at === -1) return false;
    entry.waiters.splice(at, 1);
    this.#count--;
    if (entry.waiters.length === 0) entry.idleSince = Date.now();
    wait.end(result);
    return true;
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

  /** Ends the waits past their deadline or whose client left, and the entries past their linger; without
   *  a watch, reads every waiting order each RECONCILE_MS. */
  #tick(): void {
    const now = Date.now();
    const reconcile = this.store.watch === undefined && now - this.#lastReconcile >= RECONCILE_MS;
    if (reconcile) this.#lastReconcile = now;
    const due = (wait: Wait): WaitResult | false => (wait.client.left() ? 'left' : wait.deadline <= now ? undefined : false);
    // A Map may be iterated while its current entry is deleted: no copy of ten thousand entries a tick.
    for (const entry of this.#entries.values()) {
      this.#endEach(entry, due);
      if (entry.waiters.length > 0) {
        if (reconcile) this.#read(entry);
      } else if (!entry.reading && (entry.known.length === 0 || now - entry.idleSince >= LINGER_MS)) {
        // Only what it remembers (attempts read as nothing) is worth keeping for a re-ask: an order
        // whose waits were answered with their status is let go at once, its watch with it.
        this.#entries.delete(entry.orderRef);
        entry.unwatch?.();
      }
    }
    if (this.#entries.size === 0) this.#stopSweep();
  }
}
