// In-process listeners per request_id: how the memory store, and each server of the Redis store on its
// pub/sub messages, tells waiting status requests that an order's verified status may have changed.
// The status handler keeps one listener per waiting order (status-waits.ts), however many requests wait
// on it, so a message wakes one entry, not every request.

export class Watchers {
  readonly #byId = new Map<string, Set<() => void>>();

  add(requestId: string, listener: () => void): () => void {
    let set = this.#byId.get(requestId);
    if (!set) this.#byId.set(requestId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#byId.get(requestId) === set) this.#byId.delete(requestId);
    };
  }

  notify(requestId: string): void {
    for (const listener of this.#byId.get(requestId) ?? []) listener();
  }

  /** Every listener: news may have been missed (a subscription that dropped), so each order reads again. */
  notifyAll(): void {
    for (const set of [...this.#byId.values()]) for (const listener of set) listener();
  }

  /** Orders watched now. */
  get size(): number {
    return this.#byId.size;
  }
}
