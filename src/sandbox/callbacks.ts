// Signed callbacks to the merchant, delivered again with capped exponential backoff until a 2xx.
// The service shows no callback; the payload, statuses and retry rule here are pay-form's choice
// (docs/service-contract.md, Callbacks).
import type { CallbackPayload } from '../service/callback.js';
import { sign } from '../service/signature.js';
import type { CallbackRetryOptions } from './options.js';

export type { CallbackPayload };

export type DeliveryState = 'pending' | 'delivered' | 'gave-up' | 'no-callback-url' | 'stopped';

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

export class CallbackQueue {
  readonly #deliveries: CallbackDelivery[] = [];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  readonly #waiters = new Set<() => void>();
  readonly #later = new Set<Promise<void>>();

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
    this.#deliveries.push(delivery);
    this.#forgetOldest();
    if (this.url === undefined) {
      delivery.state = 'no-callback-url';
      this.#settle();
      return;
    }
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
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#later]);
    await Promise.allSettled([...this.#inFlight]);
    for (const d of this.#deliveries) if (d.state === 'pending') d.state = 'stopped';
    this.#settle();
  }

  #attempt(delivery: CallbackDelivery): void {
    const run = this.#post(delivery).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #post(delivery: CallbackDelivery): Promise<void> {
    if (this.#stop.signal.aborted) return;
    let outcome: number | string;
    try {
      const response = await fetch(delivery.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(delivery.body),
        signal: AbortSignal.any([this.#stop.signal, AbortSignal.timeout(this.retry.timeoutMs)]),
        redirect: 'manual',
      });
      await response.arrayBuffer().catch(() => undefined);
      outcome = response.status;
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    }
    if (this.#stop.signal.aborted) return;
    delivery.attempts.push({ at: Date.now(), outcome });
    const n = delivery.attempts.length;
    this.log(`callback ${delivery.body.invoice_id} ${delivery.body.status} attempt ${n}: ${outcome}`);
    if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
      delivery.state = 'delivered';
    } else if (n >= this.retry.maxAttempts) {
      delivery.state = 'gave-up';
    } else {
      const delay = Math.min(this.retry.maxDelayMs, this.retry.initialDelayMs * 2 ** (n - 1));
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#attempt(delivery);
      }, delay);
      this.#timers.add(timer);
      return;
    }
    this.#settle();
  }

  /** Keeps the history bounded: past the cap, the oldest finished deliveries go; pending ones stay. */
  #forgetOldest(): void {
    let excess = this.#deliveries.length - this.maxKept;
    for (let i = 0; excess > 0 && i < this.#deliveries.length; ) {
      if (this.#deliveries[i]!.state === 'pending') i++;
      else {
        this.#deliveries.splice(i, 1);
        excess--;
      }
    }
  }

  #busy(): boolean {
    return this.#later.size > 0 || this.#deliveries.some((d) => d.state === 'pending');
  }

  #settle(): void {
    if (this.#busy()) return;
    for (const resolve of this.#waiters) resolve();
    this.#waiters.clear();
  }
}
