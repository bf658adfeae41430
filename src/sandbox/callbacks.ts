// Signed callbacks to the merchant, delivered again with capped exponential backoff until a 2xx.
// The service shows no callback; the payload, statuses and retry rule here are pay-form's choice
// (docs/service-contract.md, Callbacks). What is kept is bounded: at most `maxKept` deliveries, the
// ones still being delivered included, and at most MAX_CONCURRENT_POSTS attempts open at once, so a
// merchant that never answers holds neither the sandbox's memory nor its own sockets without end.
import type { CallbackPayload } from '../service/callback.js';
import { sign } from '../service/signature.js';
import type { CallbackRetryOptions } from './options.js';

export type { CallbackPayload };

export type DeliveryState = 'pending' | 'delivered' | 'gave-up' | 'no-callback-url' | 'stopped';

/** Attempts open at once, to all callbacks together; the others wait their turn. */
export const MAX_CONCURRENT_POSTS = 32;

export interface CallbackAttempt {
  at: number;
  /** The merchant's HTTP status, or the network error's message. */
  outcome: number | string;
}

export interface CallbackDelivery {
  readonly url: string | undefined;
  readonly body: CallbackPayload & { signature: string };
  state: DeliveryState;
  readonly attempts: CallbackAttempt[];
}

/** A pending delivery's handles: aborting it ends its open attempt, and its retry timer is cleared. */
interface Pending {
  readonly abort: AbortController;
  timer?: ReturnType<typeof setTimeout>;
}

export class CallbackQueue {
  readonly #deliveries: CallbackDelivery[] = [];
  readonly #pending = new Map<CallbackDelivery, Pending>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  readonly #waiters = new Set<() => void>();
  readonly #later = new Set<Promise<void>>();
  /** Attempts waiting for one of the MAX_CONCURRENT_POSTS places, first come first served. */
  readonly #queued: Array<() => void> = [];
  #posting = 0;

  constructor(
    private readonly url: string | undefined,
    private readonly secret: string,
    private readonly retry: Required<CallbackRetryOptions>,
    private readonly log: (line: string) => void,
    private readonly maxKept: number,
  ) {}

  async send(payload: CallbackPayload): Promise<void> {
    const body = { ...payload, signature: await sign({ ...payload }, this.secret) };
    const delivery: CallbackDelivery = { url: this.url, body, state: 'pending', attempts: [] };
    this.#makeRoom();
    this.#deliveries.push(delivery);
    if (this.url === undefined) {
      delivery.state = 'no-callback-url';
      this.#settle();
      return;
    }
    this.#pending.set(delivery, { abort: new AbortController() });
    this.#attempt(delivery);
  }

  /** Runs `work` (which sends callbacks) after the current turn, counted by idle() until it is done. */
  later(work: () => Promise<void>): void {
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (this.#stop.signal.aborted ? undefined : work()))
      .catch((error: unknown) => this.log(`sandbox error: ${error instanceof Error ? error.stack : String(error)}`))
      .finally(() => {
        this.#later.delete(run);
        this.#settle();
      });
    this.#later.add(run);
  }

  deliveries(): readonly CallbackDelivery[] {
    return this.#deliveries;
  }

  /** Resolves once no callback is pending: every one delivered, given up or unsendable. */
  idle(): Promise<void> {
    if (!this.#busy()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  async close(): Promise<void> {
    this.#stop.abort();
    for (const { abort, timer } of this.#pending.values()) {
      clearTimeout(timer);
      abort.abort();
    }
    await Promise.allSettled([...this.#later]);
    await Promise.allSettled([...this.#inFlight]);
    for (const d of this.#deliveries) if (d.state === 'pending') d.state = 'stopped';
    this.#pending.clear();
    this.#settle();
  }

  #attempt(delivery: CallbackDelivery): void {
    const run = this.#post(delivery).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #post(delivery: CallbackDelivery): Promise<void> {
    const pending = this.#pending.get(delivery);
    if (!pending) return;
    await this.#place();
    // Given up (or closed) while it waited: nothing to send.
    if (pending.abort.signal.aborted) return this.#release();
    let outcome: number | string;
    try {
      const response = await fetch(delivery.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(delivery.body),
        signal: AbortSignal.any([pending.abort.signal, AbortSignal.timeout(this.retry.timeoutMs)]),
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      outcome = response.status;
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    } finally {
      this.#release();
    }
    if (pending.abort.signal.aborted) return;
    delivery.attempts.push({ at: Date.now(), outcome });
    const n = delivery.attempts.length;
    this.log(`callback ${delivery.body.invoice_id} ${delivery.body.status} attempt ${n}: ${outcome}`);
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
      delivery.state = 'delivered';
    } else if (n >= this.retry.maxAttempts) {
      delivery.state = 'gave-up';
    } else {
      const delay = Math.min(this.retry.maxDelayMs, this.retry.initialDelayMs * 2 ** (n - 1));
      pending.timer = setTimeout(() => this.#attempt(delivery), delay);
      return;
    }
    this.#pending.delete(delivery);
    this.#settle();
  }

  /** Waits for one of the MAX_CONCURRENT_POSTS places; one freed goes straight to the next in line. */
  async #place(): Promise<void> {
    if (this.#posting < MAX_CONCURRENT_POSTS) this.#posting++;
    else await new Promise<void>((resolve) => this.#queued.push(resolve));
  }

  #release(): void {
    const next = this.#queued.shift();
    if (next) next();
    else this.#posting--;
  }

  /**
   * Makes room for one more under the cap: the oldest finished delivery goes first; when every one
   * kept is still being delivered, the oldest of those is given up (its open attempt aborted).
   */
  #makeRoom(): void {
    while (this.#deliveries.length >= this.maxKept) {
      const finished = this.#deliveries.findIndex((d) => d.state !== 'pending');
      const [gone] = this.#deliveries.splice(finished < 0 ? 0 : finished, 1);
      const pending = gone && this.#pending.get(gone);
      if (!gone || !pending) continue;
      clearTimeout(pending.timer);
      pending.abort.abort();
      this.#pending.delete(gone);
      gone.state = 'gave-up';
      this.log(`callback ${gone.body.invoice_id} ${gone.body.status} given up: ${this.maxKept} callbacks kept (maxRecords), all being delivered`);
    }
  }

  #busy(): boolean {
    return this.#later.size > 0 || this.#pending.size > 0;
  }

  #settle(): void {
    if (this.#busy()) return;
    for (const resolve of this.#waiters) resolve();
    this.#waiters.clear();
  }
}
