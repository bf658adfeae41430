// In-process listeners per request_id: how the memory store, and each server of the Redis store on its
// pub/sub messages, tells waiting status requests that an order's verified status may have changed.
// The status handler keeps one listener per waiting order (status-waits.ts), however many requests wait
// on it, so a message wakes one entry, not every request.

import type { StatusNews } from './callback-store.js';

type Listener = (news?: StatusNews) => void;

export class Watchers {
  /** One listener as itself (the usual case: one status handler), several in a Set. */
  readonly #byId = new Map<string, Listener | Set<Listener>>();

  add(requestId: string, listener: Listener): () => void {
    const held = this.#byId.get(requestId);
    if (held === undefined) this.#byId.set(requestId, listener);
    else if (typeof held === 'function') this.#byId.set(requestId, new Set([held, listener]));
    else held.add(listener);
    return () => this.remove(requestId, listener);
  }

  /** What add's answer does, for a caller that keeps one closure of its own (one per waiting order). */
  remove(requestId: string, listener: Listener): void {
    const now = this.#byId.get(requestId);
    if (now === listener) this.#byId.delete(requestId);
    else if (typeof now === 'object' && now.delete(listener) && now.size === 0) this.#byId.delete(requestId);
  }

  /** The order's listeners, told what changed when the store knows it. */
  notify(requestId: string, news?: StatusNews): void {
    const held = this.#byId.get(requestId);
    if (typeof held === 'function') held(news);
    else for (const listener of held ?? []) listener(news);
  }

  /** Every listener: news may have been missed (a subscription that dropped), so each order reads again. */
  notifyAll(): void {
    for (const held of [...this.#byId.values()]) {
      if (typeof held === 'function') held();
      else for (const listener of [...held]) listener();
    }
  }

  /** Orders watched now. */
  get size(): number {
    return this.#byId.size;
  }
}
