// The automatic retry schedule of a failed hook (src/agents/uniter/retry.ts), as Juju's
// uniter has it: worker/hookretrystrategy's 5 s, doubling, at most 5 min, on a backoff
// timer that a success or a person's `resolved` resets (worker/uniter/resolver.go
// `nextOpHookError`: StartRetryHookTimer / StopRetryHookTimer).
import { describe, expect, it } from "vitest";
import { JUJU_HOOK_RETRY, RetryTimer, retryDelay } from "../src/agents/uniter/retry.js";
import { ManualClock } from "./support/manual-clock.js";

describe("retryDelay", () => {
  it("waits 5 s before the first retry and doubles each time, up to 5 min (Juju's hook retry strategy)", () => {
    const waits = Array.from({ length: 9 }, (_, i) => retryDelay(JUJU_HOOK_RETRY, i + 1) / 1000);
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300]);
  });

  it("stays at the bound however many retries came before", () => {
    expect(retryDelay(JUJU_HOOK_RETRY, 5000)).toBe(300_000);
  });
});

describe("RetryTimer", () => {
  const timer = () => {
    const clock = new ManualClock();
    const fired: number[] = [];
    let count = 0;
    const t = new RetryTimer({ baseMs: 5_000, maxMs: 20_000, clock }, () => fired.push(++count));
    return { clock, fired, t };
  };

  it("fires once per start, after the schedule's next wait", () => {
    const { clock, fired, t } = timer();
    expect(t.start()).toBe(5_000);
    clock.advance(4_999);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([1]);
    expect(t.armed).toBe(false);
    clock.advance(60_000);
    expect(fired).toEqual([1]); // not started again: no second firing
  });

  it("each start waits twice as long as the one before, up to the bound", () => {
    const { t } = timer();
    expect([t.start(), t.start(), t.start(), t.start()]).toEqual([5_000, 10_000, 20_000, 20_000]);
  });

  it("a start while armed replaces the armed wait: it fires once", () => {
    const { clock, fired, t } = timer();
    t.start();
    t.start();
    expect(clock.waits()).toEqual([10_000]);
    clock.advance(60_000);
    expect(fired).toEqual([1]);
  });

  it("reset disarms it and starts the schedule over (a success, or resolved)", () => {
    const { clock, fired, t } = timer();
    t.start();
    t.start();
    t.reset();
    expect(t.armed).toBe(false);
    clock.advance(60_000);
    expect(fired).toEqual([]);
    expect(t.start()).toBe(5_000);
  });
});
