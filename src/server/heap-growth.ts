// How far V8 lets the heap grow past what is live before its next full collection. Left to itself it grows the limit
// by up to four times what survived, and under the agents' load it did: a settled 1,000-unit deployment held about
// 150 MiB live in the API's heap and 480 MiB in all, and the process peaked at 706–786 MiB. At 1.3 times it peaked at
// 457–467 MiB, settling in about the same time for 10–15% more of the server's CPU (docs/decisions.md, "Memory").
import v8 from "node:v8";

export const DEFAULT_HEAP_GROWTH_PERCENT = 30;

/** Sets V8's heap growing factor to 1 + percent/100 (0 leaves its heuristics). V8's flags are the process's: the agents' thread's heap too. */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
