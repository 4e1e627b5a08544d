// npm start's agents on a thread of their own (src/server/agents-thread.ts): they
// provision over the API's socket like any agents, the admin's cloud API reaches
// their cloud through the thread's calls, and a cloud file they cannot read fails
// their start with its own error. Waits poll with a deadline.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { issueMachineCredentials, modelsNotDead } from "../src/model/index.js";
import { DummyStateError } from "../src/provider/dummy-state.js";
import { type AgentsThread, startAgentsThread } from "../src/server/agents-thread.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const DEADLINE = { timeout: scaled(60_000), interval: 100 };
const dir = mkdtempSync(join(tmpdir(), "lifeline-agents-thread-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The agents' thread for `model` alone, against the test's server; its log lines kept. */
function startFor(model: string, cloudFile?: string): { started: Promise<AgentsThread>; lines: string[] } {
  const lines: string[] = [];
  const started = startAgentsThread(
    { url: live.url, ...(cloudFile ? { cloudFile } : {}), cloudPollMs: 50, retryDelayMs: 10 },
    {
      models: async () => (await modelsNotDead(live.store.db)).filter((name) => name === model),
      provisionerToken: async (name) => ({
        machine: "0",
        token: (await issueMachineCredentials(live.store.db, { model: name, machine: "0" })).token,
      }),
      log: (said) => void lines.push(...said),
    },
  );
  return { started, lines };
}

describe("the agents' thread", { timeout: scaled(120_000) }, () => {
  it("provisions a machine added through the API; the thread's cloud answers the admin's calls with the instance", async () => {
    const { name: model } = await live.newModel();
    const thread = await startFor(model).started;
    try {
      const { id } = (await live.ok(`mutation ($model: String!) { addMachine(input: { model: $model }) { id } }`, { model })).addMachine;
      await expect.poll(async () => (await thread.cloud.describe()).instances.filter((i) => i.machineId === id).length, DEADLINE).toBe(1);
      await thread.cloud.failNextStarts(2, "out of capacity");
      expect(await thread.cloud.describe()).toMatchObject({ failingStarts: 2, failureMessage: "out of capacity" });
    } finally {
      await thread.stop();
    }
  });

  it("a refusal of the cloud's crosses the thread as the RangeError it is (the API's INVALID_ARGUMENT)", async () => {
    const { name: model } = await live.newModel();
    const thread = await startFor(model).started;
    try {
      await expect(Promise.resolve(thread.cloud.loseInstance("no-such-instance"))).rejects.toBeInstanceOf(RangeError);
      await expect(Promise.resolve(thread.cloud.failNextStarts(-1))).rejects.toThrow(/expected a whole number of starts/);
    } finally {
      await thread.stop();
    }
  });

  it("a cloud file it cannot read fails the start with the cloud's own error, and leaves no thread running", async () => {
    const { name: model } = await live.newModel();
    const cloudFile = join(dir, "cloud.json");
    writeFileSync(cloudFile, "not json");
    const { started } = startFor(model, cloudFile);
    await expect(started).rejects.toBeInstanceOf(DummyStateError);
    await expect(started).rejects.toThrow(/cloud\.json is not JSON/);
  });
});
