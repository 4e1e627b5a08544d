// An agent's reconciling passes (src/agents/serial.ts) after a failure that passes by itself: the database out of
// reach makes the API answer UNAVAILABLE, and no change may come to poke the agent again. As Juju's dependency engine
// restarts a failed worker after a delay, the pass runs again by itself: 1 s, doubling to 30 s, until one succeeds.
import { describe, expect, it } from "vitest";
import { ApiError, passesAgain } from "../src/agents/connection.js";
import { SerialPasses } from "../src/agents/serial.js";
import { ManualClock } from "./support/manual-clock.js";

/** Passes that fail with `errors` in turn, then succeed; counts them. */
function passes(errors: unknown[], clock: ManualClock) {
  const state = { runs: 0, failures: [] as unknown[] };
  const serial = new SerialPasses(
    async () => {
      state.runs++;
      const error = errors.shift();
      if (error) throw error;
    },
    (error) => state.failures.push(error),
    { retryable: passesAgain, clock },
  );
  return { serial, state };
}

/** Lets the pass a timer started run to its end (passes are async). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const unavailable = () => new ApiError("UNAVAILABLE", "the database is unavailable", true);

describe("a pass that failed for a reason that passes", () => {
  it("runs again by itself after 1 s, 2 s, 4 s…, once each time, until one succeeds", async () => {
    const clock = new ManualClock();
    const { serial, state } = passes([unavailable(), unavailable(), unavailable()], clock);
    serial.poke();
    await settle();
    expect(state.runs).toBe(1);
    for (const [wait, runs] of [
      [1_000, 2],
      [2_000, 3],
      [4_000, 4],
    ] as const) {
      expect(clock.waits()).toEqual([wait]);
      clock.advance(wait - 1);
      await settle();
      expect(state.runs).toBe(runs - 1);
      clock.advance(1);
      await settle();
      expect(state.runs).toBe(runs);
    }
    // The fourth succeeded: nothing more is armed.
    expect(clock.waits()).toEqual([]);
    await serial.stop();
  });

  it("starts the waits over after a pass succeeds", async () => {
    const clock = new ManualClock();
    const errors: unknown[] = [unavailable(), unavailable()];
    const { serial, state } = passes(errors, clock);
    serial.poke();
    await settle();
    clock.advance(1_000);
    await settle();
    expect(clock.waits()).toEqual([2_000]);
    clock.advance(2_000);
    await settle();
    expect(state.runs).toBe(3);
    errors.push(unavailable());
    serial.poke();
    await settle();
    expect(clock.waits()).toEqual([1_000]);
    await serial.stop();
  });

  it("waits at most 30 s between runs", async () => {
    const clock = new ManualClock();
    const { serial } = passes(Array.from({ length: 10 }, unavailable), clock);
    serial.poke();
    for (let i = 0; i < 8; i++) {
      await settle();
      clock.advance(clock.waits()[0]!);
    }
    await settle();
    expect(clock.waits()).toEqual([30_000]);
    await serial.stop();
    expect(clock.waits()).toEqual([]);
  });
});

describe("a pass refused for good", () => {
  it("waits for the next change (a poke), as before", async () => {
    const clock = new ManualClock();
    const { serial, state } = passes([new ApiError("NOT_ALIVE", "unit wordpress/0 is dead")], clock);
    serial.poke();
    await settle();
    expect(state.failures).toHaveLength(1);
    expect(clock.waits()).toEqual([]);
    await serial.stop();
  });

  it("CONTENTION and a failure that is not the server's answer (a socket closed) pass; refusals do not", () => {
    expect(passesAgain(new ApiError("CONTENTION", "excessive contention"))).toBe(true);
    expect(passesAgain(new Error("socket closed"))).toBe(true);
    expect(passesAgain(new ApiError("UNAVAILABLE", "out of reach", true))).toBe(true);
    expect(passesAgain(new ApiError("FORBIDDEN", "no"))).toBe(false);
  });
});
