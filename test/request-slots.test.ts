// The agents' request slots (src/agents/request-slots.ts): while every slot is busy, calls wait in order, and when one
// frees, the next call goes with the calls of its kind and model waiting behind it, as one bulk call.
import { describe, expect, it } from "vitest";
import { type Gathered, RequestSlots } from "../src/agents/request-slots.js";

/** A promise settled from outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

class Refused extends Error {}

/** A kind whose calls are recorded: `one` answers "one:<item>", `many` ["many:<item>", …] or throws `failMany`. */
function recordingKind(most = 100, failMany?: () => Error) {
  const calls: { bulk: boolean; items: string[]; tokens: string[] }[] = [];
  const kind: Gathered<string, string> = {
    most,
    refusedAsAWhole: (error) => error instanceof Refused,
    one: async (item, token) => {
      calls.push({ bulk: false, items: [item], tokens: [token] });
      if (item === "refused") throw new Refused(`no ${item}`);
      return `one:${item}`;
    },
    many: async (items, tokens) => {
      calls.push({ bulk: true, items: [...items], tokens: [...tokens] });
      if (failMany) throw failMany();
      return items.map((item) => `many:${item}`);
    },
  };
  return { kind, calls };
}

/** Slots of `size`, every one held by a plain request until `release` is called. */
function busySlots(size: number) {
  const slots = new RequestSlots(size);
  const held = deferred();
  const holding = Array.from({ length: size }, () => slots.run(() => held.promise));
  const release = async () => {
    held.resolve();
    await Promise.all(holding);
  };
  return { slots, release };
}

describe("request slots", () => {
  it("a call made with a slot free goes at once, alone", async () => {
    const { kind, calls } = recordingKind();
    const slots = new RequestSlots(2);
    expect(await slots.gather(kind, "m", "a", "ta")).toBe("one:a");
    expect(calls).toEqual([{ bulk: false, items: ["a"], tokens: ["ta"] }]);
  });

  it("calls of one kind and model waiting for a slot go as one bulk call, in order, each with its agent's token", async () => {
    const { kind, calls } = recordingKind();
    const { slots, release } = busySlots(1);
    const answers = Promise.all(["a", "b", "c"].map((item) => slots.gather(kind, "m", item, `t${item}`)));
    expect(slots.waiting).toBe(3);
    await release();
    expect(await answers).toEqual(["many:a", "many:b", "many:c"]);
    expect(calls).toEqual([{ bulk: true, items: ["a", "b", "c"], tokens: ["ta", "tb", "tc"] }]);
  });

  it("a bulk call takes at most its kind's most; another model's calls and plain requests keep their place", async () => {
    const { kind, calls } = recordingKind(2);
    const { slots, release } = busySlots(1);
    const order: string[] = [];
    const made = [
      slots.gather(kind, "m", "a", "t").then(() => order.push("a")),
      slots.gather(kind, "other", "x", "t").then(() => order.push("x")),
      slots.run(async () => order.push("plain")),
      slots.gather(kind, "m", "b", "t").then(() => order.push("b")),
      slots.gather(kind, "m", "c", "t").then(() => order.push("c")),
    ];
    await release();
    await Promise.all(made);
    expect(calls.map((c) => c.items)).toEqual([["a", "b"], ["x"], ["c"]]);
    expect(order).toEqual(["a", "b", "x", "plain", "c"]);
  });

  it("a bulk call refused as a whole is asked item by item: each agent gets its own answer or refusal", async () => {
    const { kind, calls } = recordingKind(100, () => new Refused("one item refused them all"));
    const { slots, release } = busySlots(1);
    const answers = ["a", "refused", "c"].map((item) => slots.gather(kind, "m", item, "t").catch((e: Error) => e));
    await release();
    const [a, refused, c] = await Promise.all(answers);
    expect([a, c]).toEqual(["one:a", "one:c"]);
    expect(refused).toBeInstanceOf(Refused);
    expect(calls.map((call) => [call.bulk, call.items])).toEqual([
      [true, ["a", "refused", "c"]],
      [false, ["a"]],
      [false, ["refused"]],
      [false, ["c"]],
    ]);
  });

  it("any other failure of a bulk call (the connection's) fails each of its callers", async () => {
    const { kind, calls } = recordingKind(100, () => new Error("socket closed"));
    const { slots, release } = busySlots(1);
    const answers = ["a", "b"].map((item) => slots.gather(kind, "m", item, "t").catch((e: Error) => e.message));
    await release();
    expect(await Promise.all(answers)).toEqual(["socket closed", "socket closed"]);
    expect(calls).toHaveLength(1);
  });

  it("never has more calls on the server than it has slots", async () => {
    const slots = new RequestSlots(3);
    let running = 0;
    let most = 0;
    const gates = Array.from({ length: 10 }, () => deferred());
    const runs = gates.map((gate) =>
      slots.run(async () => {
        most = Math.max(most, ++running);
        await gate.promise;
        running--;
      }),
    );
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(most).toBe(3);
  });
});
