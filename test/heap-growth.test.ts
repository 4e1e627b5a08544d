// LIFELINE_HEAP_GROWTH_PERCENT and LIFELINE_HEAP_GROWTH_MIN_MIB (src/server/heap-growth.ts): how far V8 lets a heap
// grow past what is live before it collects it all.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../src/server/config.js";
import { DEFAULT_HEAP_GROWTH_MIN_MIB, DEFAULT_HEAP_GROWTH_PERCENT, growthPercent } from "../src/server/heap-growth.js";

const MiB = 1024 * 1024;

/** Full collections of test/support/heap-churn.ts's process with this growth (node's --trace-gc lines). */
function fullCollections(percent: number, minimumMiB: number): number {
  const out = execFileSync(
    process.execPath,
    ["--trace-gc", "--import", "tsx", "test/support/heap-churn.ts", String(percent), String(minimumMiB)],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  expect(out).toContain("kept 36 arrays");
  return out.split("\n").filter((line) => line.includes("Mark-Compact")).length;
}

describe("the heap's growth", () => {
  it("is limited to 1.3 times what is live, or 64 MiB past it, unless the environment says otherwise", () => {
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(30);
    expect(DEFAULT_HEAP_GROWTH_MIN_MIB).toBe(64);
    expect(configFromEnv({})).toMatchObject({ heapGrowthPercent: 30, heapGrowthMinMiB: 64 });
    expect(configFromEnv({ LIFELINE_HEAP_GROWTH_MIN_MIB: "16" }).heapGrowthMinMiB).toBe(16);
  });

  it("a large heap grows by its percentage", () => {
    expect(growthPercent(1024 * MiB, 30, 64)).toBe(30);
    expect(growthPercent(250 * MiB, 30, 64)).toBe(30);
  });

  it("a small heap grows by the minimum: 64 MiB past 40 MiB live is 160%", () => {
    expect(growthPercent(40 * MiB, 30, 64)).toBe(160);
  });

  it("never past V8's own largest factor, four times what is live", () => {
    expect(growthPercent(4 * MiB, 30, 64)).toBe(300);
    expect(growthPercent(0, 30, 64)).toBe(300);
  });

  it("a small heap promoting garbage is collected whole at most half as often with the minimum as with 30% alone", () => {
    const withMinimum = fullCollections(30, 64);
    const percentAlone = fullCollections(30, 0);
    expect(withMinimum * 2).toBeLessThanOrEqual(percentAlone);
  });

  it("LIFELINE_HEAP_GROWTH_PERCENT=0 leaves V8's own heuristics", () => {
    expect(configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
  });

  it("a setting that is not a non-negative number stops the start, naming the variable", () => {
    expect(() => configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "lots" })).toThrow(
      /LIFELINE_HEAP_GROWTH_PERCENT must be a non-negative number/,
    );
    expect(() => configFromEnv({ LIFELINE_HEAP_GROWTH_PERCENT: "-5" })).toThrow(/LIFELINE_HEAP_GROWTH_PERCENT/);
    expect(() => configFromEnv({ LIFELINE_HEAP_GROWTH_MIN_MIB: "-1" })).toThrow(
      /LIFELINE_HEAP_GROWTH_MIN_MIB must be a non-negative number/,
    );
  });
});
