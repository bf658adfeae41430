// Bounding a Map used as an LRU or an age list, for the one-process stores: MemoryCallbackStore (done
// keys, order statuses) and MemoryPayoutLedger (paid entries).

/**
 * Drops a Map's oldest evictable keys (insertion order is age: a key seen again, or changed so that it
 * may go, is deleted and set at the end) down to a bound. Scanning from the first key on every eviction
 * grew costly once the map was full (see docs/performance.md): the Map's iteration steps over every key
 * that may not go and every slot deleted since its last compaction. A cursor kept between evictions
 * starts where the last one stopped: every key behind it was evicted, re-inserted at the end, deleted,
 * or not evictable, so the first evictable key after it is the oldest one, exactly as a scan from the
 * start would find. That holds only while a key becomes evictable by being set again, never in place.
 */
export class OldestFirst<V> {
  #cursor: Iterator<string>;

  constructor(
    private readonly map: Map<string, V>,
    private readonly evictable: (value: V) => boolean,
  ) {
    this.#cursor = map.keys();
  }

  trim(max: number): void {
    let restarted = false;
    while (this.map.size > max) {
      const next = this.#cursor.next();
      if (next.done === true) {
        // Only keys that may not go are left, or the cursor ran out: start again from the first key, once.
        if (restarted) return;
        restarted = true;
        this.#cursor = this.map.keys();
        continue;
      }
      if (this.evictable(this.map.get(next.value)!)) this.map.delete(next.value);
    }
  }
}
