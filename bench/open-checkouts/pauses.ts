// What stalls a process of bench/open-checkouts, for a p99 that is not the queue: the event loop's
// longest delay (timers sampled every 10 ms) and its garbage collections (longest pause, how many were
// major), since the last take(). GCs a caller forced (global.gc) are left out, and the loop's record
// starts again a little after take(), past the late timer such a forced GC leaves.
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

export interface Pauses {
  loopDelayMaxMs: number;
  gcMaxMs: number;
  gcMajor: number;
}

export function pauses(): { take(): Pauses } {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let gc = { gcMaxMs: 0, gcMajor: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as { detail?: { kind?: number; flags?: number } }).detail;
      if (((detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) continue;
      gc.gcMaxMs = Math.max(gc.gcMaxMs, entry.duration);
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.gcMajor++;
    }
  }).observe({ entryTypes: ['gc'] });
  return {
    take() {
      const taken = { loopDelayMaxMs: loop.max / 1e6, ...gc };
      gc = { gcMaxMs: 0, gcMajor: 0 };
      setTimeout(() => loop.reset(), 30).unref();
      return taken;
    },
  };
}
