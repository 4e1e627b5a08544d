// The benchmarks' split of a server thread's CPU by path (bench/profile-split.ts): a sample belongs to the innermost
// frame of Lifeline's own code on its stack, a library's time to the code of ours that called it, and only where none
// of ours is on the stack to the library itself. A synthetic profile, so each rule is seen alone.
import { describe, expect, it } from "vitest";
import { splitProfile } from "../bench/profile-split.js";

const ROOT = "/app";
const frame = (functionName: string, url = "") => ({ functionName, url });

/** A profile of one sample a stack (leaf last), the first at 0 s and each 1 s after the last. */
function profileOf(stacks: readonly (readonly ReturnType<typeof frame>[])[]) {
  const nodes: { id: number; callFrame: ReturnType<typeof frame>; children: number[] }[] = [
    { id: 1, callFrame: frame("(root)"), children: [] },
  ];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0]!;
    for (const callFrame of stack) {
      const node = { id: nodes.length + 1, callFrame, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
  }
  // Each sample's time runs until the next one: a last sample closes the window.
  samples.push(1);
  return { nodes, startTime: 0, samples, timeDeltas: samples.map((_, i) => (i === 0 ? 0 : 1e6)) };
}

const stringifyInFrames = [frame("payloadBytes", `${ROOT}/src/server/shared-frames.ts`), frame("stringify")];
const postgresUnderModel = [
  frame("enterScope", `${ROOT}/src/model/scope.ts`),
  frame("execute", `${ROOT}/node_modules/postgres/cjs/src/connection.js`),
];
const postgresAlone = [frame("data", `${ROOT}/node_modules/postgres/cjs/src/connection.js`), frame("parse")];
const graphqlAlone = [frame("execute", `${ROOT}/node_modules/graphql/execution/execute.js`)];
const agentLogic = [frame("act", `${ROOT}/src/agents/unit-agent.ts`)];
const gc = [frame("(garbage collector)")];
const idle = [frame("(idle)")];
const nodeInternals = [frame("processTicksAndRejections", "node:internal/process/task_queues")];

describe("a server thread's CPU by path, from its profile", () => {
  it("a library's time goes to the code of ours that called it: JSON.stringify under a stream's frame is the streams'", () => {
    const split = splitProfile(profileOf([stringifyInFrames, postgresUnderModel]), 0, 10e6);
    expect(split.byPath.streams).toBe(1);
    expect(split.byPath["writes and reads"]).toBe(1);
  });

  it("with none of our code on the stack, the innermost library a rule names decides; nothing named is other", () => {
    const split = splitProfile(profileOf([postgresAlone, graphqlAlone, nodeInternals]), 0, 10e6);
    expect([split.byPath["writes and reads"], split.byPath.requests, split.byPath.other]).toEqual([1, 1, 1]);
  });

  it("garbage collection is its own path, idle time is not busy, and a thread that ran agents' code says so", () => {
    const split = splitProfile(profileOf([gc, idle, agentLogic]), 0, 10e6);
    expect(split.byPath["garbage collection"]).toBe(1);
    expect(split.byPath.agents).toBe(1);
    expect(split.busySeconds).toBe(2);
    expect(split.runsAgents).toBe(true);
  });

  it("only the samples inside the window count", () => {
    // Samples at 0, 1 and 2 s: a window from 0.5 to 1.5 s holds the second alone.
    const split = splitProfile(profileOf([agentLogic, gc, graphqlAlone]), 0.5e6, 1.5e6);
    expect(split.busySeconds).toBe(1);
    expect(split.byPath["garbage collection"]).toBe(1);
  });
});
