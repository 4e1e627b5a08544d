// An agent's calls made within one turn go as one bulk call (src/agents/batch.ts):
// Juju's agent API takes a list of entities in every call.
import { describe, expect, it } from "vitest";
import { Batch } from "../src/agents/batch.js";
import { ApiError } from "../src/agents/connection.js";

/** A batch over fake calls that records what it was asked; `refuse` items make a bulk call, and their single call, fail. */
function fake(max = 100, refuse: ReadonlySet<number> = new Set()) {
  const calls: string[] = [];
  const batch = new Batch<number, string>(
    async (items) => {
      calls.push(`many ${items.join(",")}`);
      if (items.some((i) => refuse.has(i))) throw new ApiError("NOT_ALIVE", "refused");
      return items.map((i) => `answer ${i}`);
    },
    async (item) => {
      calls.push(`one ${item}`);
      if (refuse.has(item)) throw new ApiError("NOT_ALIVE", `refused ${item}`);
      return `answer ${item}`;
    },
    max,
  );
  return { batch, calls };
}

describe("Batch", () => {
  it("sends the calls made in one turn as one bulk call, answering each in order", async () => {
    const { batch, calls } = fake();
    expect(await Promise.all([1, 2, 3].map((i) => batch.add(i)))).toEqual(["answer 1", "answer 2", "answer 3"]);
    expect(calls).toEqual(["many 1,2,3"]);
  });

  it("sends a call alone in its turn as a single call", async () => {
    const { batch, calls } = fake();
    expect(await batch.add(7)).toBe("answer 7");
    expect(await batch.add(8)).toBe("answer 8");
    expect(calls).toEqual(["one 7", "one 8"]);
  });

  it("makes a bulk call refused as a whole again one by one: each caller gets its own answer or refusal", async () => {
    const { batch, calls } = fake(100, new Set([2]));
    const settled = await Promise.allSettled([1, 2, 3].map((i) => batch.add(i)));
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([
      "answer 1",
      "refused 2",
      "answer 3",
    ]);
    expect(calls).toEqual(["many 1,2,3", "one 1", "one 2", "one 3"]);
  });

  it("puts at most `max` items in one bulk call", async () => {
    const { batch, calls } = fake(2);
    await Promise.all([1, 2, 3, 4, 5].map((i) => batch.add(i)));
    expect(calls).toEqual(["many 1,2", "many 3,4", "one 5"]);
  });

  it("fails every caller when the bulk call fails otherwise (the connection, not a refusal), without retrying one by one", async () => {
    const calls: string[] = [];
    const batch = new Batch<number, string>(
      async () => {
        calls.push("many");
        throw new Error("socket closed");
      },
      async () => {
        calls.push("one");
        return "answer";
      },
      100,
    );
    const settled = await Promise.allSettled([1, 2].map((i) => batch.add(i)));
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toEqual(["many"]);
  });
});
