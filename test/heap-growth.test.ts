// LIFELINE_HEAP_GROWTH_PERCENT (src/server/heap-growth.ts): how far V8 lets a heap grow past what is live.
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/server/config.js";
import { DEFAULT_HEAP_GROWTH_PERCENT } from "../src/server/heap-growth.js";

describe("the heap's growth", () => {
  it("is limited to 1.3 times what is live unless the environment says otherwise", () => {
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(30);
    expect(configFromEnv({}).heapGrowthPercent).toBe(30);
  });

  it("LIFELINE_HEAP_GROWTH_PERCENT=0 leaves V8's own heuristics", () => {
    expect(configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
  });

  it("a setting that is not a non-negative number stops the start, naming the variable", () => {
    expect(() => configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "lots" })).toThrow(
      /LIFELINE_HEAP_GROWTH_PERCENT must be a non-negative number/,
    );
    expect(() => configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "-5" })).toThrow(/LIFELINE_HEAP_GROWTH_PERCENT/);
  });
});
