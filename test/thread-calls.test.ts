// Calls between the API's thread and its agents' (src/server/thread-calls.ts), over a
// MessageChannel's two ports as over a worker's: answers and refusals cross, and once
// the other side is gone a call fails at once instead of waiting for ever.
import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { ThreadCalls } from "../src/server/thread-calls.js";

interface Offered {
  [name: string]: (...args: never[]) => unknown;
  add(a: number, b: number): number;
  lose(id: string): never;
  note(lines: readonly string[]): void;
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const { port1, port2 } of channels.splice(0)) {
    port1.close();
    port2.close();
  }
});

/** What the callee heard told (`note`), in order. */
const noted: string[] = [];

/** `caller` calls what `callee` offers. */
function pair() {
  const channel = new MessageChannel();
  channels.push(channel);
  new ThreadCalls(channel.port2, {
    add: (a: number, b: number) => a + b,
    lose: (id: string) => {
      throw new RangeError(`loseInstance: no instance "${id}"`);
    },
    note: (lines: readonly string[]) => {
      if (lines.includes("boom")) throw new Error("nobody hears of this");
      noted.push(...lines);
    },
  } satisfies Offered);
  return new ThreadCalls<Offered>(channel.port1, {});
}

describe("calls between threads", () => {
  it("answers a call with what the other side's function returned", async () => {
    expect(await pair().call("add", 2, 3)).toBe(5);
  });

  it("a RangeError thrown there is a RangeError here, with its message (the cloud API's INVALID_ARGUMENT)", async () => {
    const call = pair().call("lose", "i-9");
    await expect(call).rejects.toBeInstanceOf(RangeError);
    await expect(call).rejects.toThrow('loseInstance: no instance "i-9"');
  });

  it("told, the other side runs the function in order and nothing waits; a failure there does not come back", async () => {
    noted.length = 0;
    const calls = pair();
    calls.tell("note", ["one", "two"]);
    calls.tell("note", ["boom"]);
    calls.tell("note", ["three"]);
    // A call made after them is answered after they were heard: messages on a port keep their order.
    expect(await calls.call("add", 1, 1)).toBe(2);
    expect(noted).toEqual(["one", "two", "three"]);
  });

  it("a function the other side does not offer is refused by name", async () => {
    await expect(pair().call("missing" as never)).rejects.toThrow("no function missing is offered here");
  });

  it("once the other side is gone, calls waiting and calls made later fail with why, at once", async () => {
    const channel = new MessageChannel();
    channels.push(channel);
    const calls = new ThreadCalls<Offered>(channel.port1, {}); // nothing answers on port2
    const waiting = calls.call("add", 1, 1);
    calls.close(new Error("the agents' thread exited (1)"));
    await expect(waiting).rejects.toThrow("the agents' thread exited (1)");
    await expect(calls.call("add", 2, 2)).rejects.toThrow("the agents' thread exited (1)");
  });
});
