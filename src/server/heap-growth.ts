// How far V8 lets the heap grow past what is live before its next full collection. Left to itself it grows the limit
// by up to four times what survived, and under the agents' load it did: a settled 1,000-unit deployment held about
// 150 MiB live in the API's heap and 480 MiB in all, and the process peaked at 706–786 MiB. At 1.3 times it peaked at
// 457–467 MiB, settling in about the same time for 10–15% more of the server's CPU (docs/decisions.md, "Memory").
//
// A fixed share is too tight for a small heap: 30% of 40 MiB live is 12 MiB, and a server fanning out 200,000 frames
// a second to 1,000 watchers collected its whole heap three times a second. So the growth is 30% or 64 MiB, whichever
// is more, reset after each full collection from what it left live.
import { constants, PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";

export const DEFAULT_HEAP_GROWTH_PERCENT = 30;
export const DEFAULT_HEAP_GROWTH_MIN_MIB = 64;
/** V8's own largest growing factor is 4: past that a small heap would wait for ever larger garbage. */
const MOST_PERCENT = 300;

/** The growth in percent for a heap of `liveBytes`: `percent` of it, or `minimumMiB`, whichever is more. */
export function growthPercent(liveBytes: number, percent: number, minimumMiB: number): number {
  const forMinimum = Math.ceil((minimumMiB * 1024 * 1024 * 100) / Math.max(liveBytes, 1));
  return Math.min(MOST_PERCENT, Math.max(percent, forMinimum));
}

/**
 * Sets V8's heap growing factor to 1 + p/100, p as growthPercent says for the API's heap now and after each of its full
 * collections (0 leaves V8's heuristics). V8's flags are the process's: the agents' thread's heap grows by the same.
 * Returns what stops following the collections.
 */
export function limitHeapGrowth(percent: number, minimumMiB = DEFAULT_HEAP_GROWTH_MIN_MIB): () => void {
  if (percent <= 0) return () => {};
  let current = 0;
  const follow = () => {
    const wanted = growthPercent(v8.getHeapStatistics().used_heap_size, percent, minimumMiB);
    if (wanted === current) return;
    current = wanted;
    v8.setFlagsFromString(`--heap-growing-percent=${wanted}`);
  };
  follow();
  const observer = new PerformanceObserver((list) => {
    const major = (entry: PerformanceEntry) =>
      ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0) === constants.NODE_PERFORMANCE_GC_MAJOR;
    if (list.getEntries().some(major)) follow();
  });
  observer.observe({ entryTypes: ["gc"] });
  return () => observer.disconnect();
}
