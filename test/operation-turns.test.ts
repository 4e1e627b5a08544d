// A burst of graphql-ws operations begins a few a turn of the event loop (issue 32: 1,000
// subscriptions in one socket read held every other client for the whole burst).
import { describe, expect, it } from "vitest";
import { operationTurns } from "../src/server/operation-turns.js";

describe("operation turns", () => {
  it("a burst passes `perTurn` a turn, in the order it came, and other callbacks run between turns", async () => {
    const turn = operationTurns(4);
    const passed: number[] = [];
    // Queued before the burst, this runs in the event loop's next turn: after the first four, before the rest.
    let seenBetween = -1;
    setImmediate(() => {
      seenBetween = passed.length;
    });
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const wait = turn();
        if (wait) await wait;
        passed.push(i);
      }),
    );
    expect(passed).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(seenBetween).toBe(4);
  });

  it("a lone operation passes at once, without waiting for a turn", () => {
    const turn = operationTurns(4);
    expect(turn()).toBeUndefined();
  });
});
