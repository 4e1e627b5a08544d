// Running one hook and recording it through the API (src/agents/uniter/
// hook-operation.ts; Juju's run-hook operation), against a live server with the
// bundled charms' real hooks: each run begun and committed with the progress it
// leads to, a failure committed FAILED with why, a skip SKIPPED, and hooks the
// charm does not ship passed in one call. No unit agent runs: the spec plays its
// pass, choosing each hook with the resolver.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentConnection } from "../src/agents/connection.js";
import { passMissingHooks } from "../src/agents/gathered-calls.js";
import { HookRunner } from "../src/agents/hooks/run-hook.js";
import { HookOperations, type HookSurroundings } from "../src/agents/uniter/hook-operation.js";
import { LocalState } from "../src/agents/uniter/local-state.js";
import { freshProgress, nextHookChoice, type Situation } from "../src/agents/uniter/resolver.js";
import { HookRetry } from "../src/agents/uniter/retry.js";
import { issueUnitCredentials } from "../src/model/index.js";
import { ManualClock } from "./support/manual-clock.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const UNIT = `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) {
  agentState agentStatus { current message }
  hookRuns(first: 100) { edges { node { hook remoteUnit result message } } }
} } }`;

/** The unit's state document, agent status and runs oldest first, as "hook remote result". */
async function unitOnServer(model: string, unit: string) {
  const u = (await live.ok(UNIT, { model, unit })).model.unit;
  const runs = u.hookRuns.edges.map((e: any) => e.node).reverse();
  return {
    state: u.agentState,
    status: u.agentStatus,
    runs: runs.map((r: any) => [r.hook, r.remoteUnit, r.result].filter(Boolean).join(" ")) as string[],
    messages: runs.map((r: any) => r.message) as (string | null)[],
  };
}

const deploy = (model: string, charm: string, extra: Record<string, unknown> = {}) =>
  live.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { input: { model, charm, ...extra } });

const alone: HookSurroundings = { principal: () => null, endpointsOf: () => [] };
const noRelations: Situation = { unitLife: "ALIVE", configVersion: 1, relations: {} };

/** A unit's hook operations and local state, as its agent would have them, with its own credentials. */
async function operationsOf(model: string, unit: string, surroundings = alone) {
  const { tag, token } = await issueUnitCredentials(live.store.db, { model, unit });
  const api = new AgentConnection(live.url);
  const runner = new HookRunner();
  const dataDir = mkdtempSync(join(tmpdir(), "lifeline-hook-operation-"));
  cleanup.push(
    () => api.close(),
    () => runner.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const log: string[] = [];
  const operations = new HookOperations({
    model,
    unit,
    tag,
    call: api.callerFor(token),
    passMissing: (hooks, state) => passMissingHooks(api, { model, unit, hooks, state: { ...state } }, token),
    runner,
    charmDir: join(dataDir, "charm"),
    machineId: "0",
    addresses: { private: "10.0.0.1", public: "10.0.0.1" },
    surroundings,
    stopped: () => false,
    log: (line) => log.push(line),
  });
  const local = new LocalState(
    { ...freshProgress(), pending: null },
    true,
    new HookRetry({ baseMs: 5_000, maxMs: 5_000, clock: new ManualClock() }, () => {}),
  );
  /** Performs the resolver's choices, as passes would, until nothing is left to run or it would wait. */
  async function settle(situation: Situation) {
    const fine = { inError: false, resolved: null, pendingFailed: false, retryDue: false };
    for (;;) {
      const choice = nextHookChoice(local.progress, { ...fine, pendingFailed: local.pendingFailed }, situation);
      if (choice === null || choice === "wait") return choice;
      expect(await operations.perform(choice, local, situation)).toBe(true);
    }
  }
  return { operations, local, settle, log, charmDir: join(dataDir, "charm") };
}

describe("one hook, begun, run and committed through the API", { timeout: scaled(60_000) }, () => {
  it("each hook runs and is committed SUCCEEDED with the progress it leads to, which the server keeps", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "wordpress");
    const { local, settle } = await operationsOf(model, "wordpress/0");
    expect(await settle(noRelations)).toBeNull();
    const onServer = await unitOnServer(model, "wordpress/0");
    expect(onServer.runs).toEqual(["install SUCCEEDED", "config-changed SUCCEEDED", "start SUCCEEDED"]);
    expect(local.progress).toMatchObject({ installed: true, configVersion: 1, started: true, pending: null });
    expect(onServer.state).toEqual(local.progress);
  });

  it("the charm directory is written before the charm's first hook runs, and not at all for a charm that ships none", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "wordpress");
    const shipping = await operationsOf(model, "wordpress/0");
    expect(await shipping.settle(noRelations)).toBeNull();
    expect(existsSync(join(shipping.charmDir, "hooks", "install"))).toBe(true);

    const { addCharm } = await live.ok(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, {
      input: { model, metadata: "name: bare\nsummary: no hooks\ndescription: ships no hook\n" },
    });
    await deploy(model, addCharm.url, { application: "bare" });
    const bare = await operationsOf(model, "bare/0");
    expect(await bare.settle(noRelations)).toBeNull();
    expect(bare.local.progress).toMatchObject({ installed: true, started: true });
    expect((await unitOnServer(model, "bare/0")).runs).toEqual([]);
    expect(existsSync(bare.charmDir)).toBe(false);
  });

  it("a hook that fails is committed FAILED with how it ended and its output's end; the agent knows it is in error", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "wordpress", { config: [{ key: "fail-hook", value: "install" }] });
    const { local, settle, log } = await operationsOf(model, "wordpress/0");
    expect(await settle(noRelations)).toBe("wait");
    const onServer = await unitOnServer(model, "wordpress/0");
    expect(onServer.runs).toEqual(["install FAILED"]);
    expect(onServer.messages[0]).toBe("exit status 1"); // its juju-log went to the agent's log, not its output
    expect(log.some((line) => line.endsWith("juju-log ERROR: install fails on purpose (config fail-hook)"))).toBe(true);
    expect(onServer.status).toEqual({ current: "error", message: 'hook failed: "install"' });
    expect([local.pendingFailed, local.progress.pending, local.progress.installed]).toEqual([true, { name: "install" }, false]);
  });

  it("resolved with no retry, the failed hook is committed SKIPPED without running, and the unit goes on", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "wordpress", { config: [{ key: "fail-hook", value: "install" }] });
    const { operations, local, settle } = await operationsOf(model, "wordpress/0");
    await settle(noRelations);
    await live.ok(`mutation ($input: ResolveUnitInput!) { resolveUnit(input: $input) { name } }`, {
      input: { model, unit: "wordpress/0", retry: false },
    });
    const skip = nextHookChoice(
      local.progress,
      { inError: true, resolved: "SKIP_HOOK", pendingFailed: true, retryDue: false },
      noRelations,
    );
    expect(skip).toEqual({ hook: { name: "install" }, skip: true, by: "resolution" });
    expect(await operations.perform(skip as Exclude<typeof skip, null | "wait">, local, noRelations)).toBe(true);
    expect([local.pendingFailed, local.progress.installed]).toEqual([false, true]);
    expect(await settle(noRelations)).toBeNull();
    expect((await unitOnServer(model, "wordpress/0")).runs).toEqual([
      "install FAILED",
      "install SKIPPED",
      "config-changed SUCCEEDED",
      "start SUCCEEDED",
    ]);
  });

  it("hooks the charm does not ship are passed in one call, no run recorded for them: mysql has no cluster-relation-changed", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "mysql", { numUnits: 2 });
    const peer = (await live.ok(`query ($model: String!) { model(name: $model) { relation(key: "mysql:cluster") { id } } }`, { model }))
      .model.relation.id as number;
    const enter = (unit: string) =>
      live.ok(`mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName } } }`, {
        input: { model, relation: peer, unit, privateAddress: "10.0.0.2" },
      });
    await enter("mysql/0");
    await enter("mysql/1");
    const peers: HookSurroundings = { principal: () => null, endpointsOf: () => [{ applicationName: "mysql", name: "cluster" }] };
    const { local, settle, log } = await operationsOf(model, "mysql/0", peers);
    await settle(noRelations);
    local.progress.relations[peer] = { endpoint: "cluster", members: {}, changedPending: null };
    const inPeer: Situation = { ...noRelations, relations: { [peer]: { life: "ALIVE", peer: true, remote: { "mysql/1": 1 } } } };
    expect(await settle(inPeer)).toBeNull();
    expect((await unitOnServer(model, "mysql/0")).runs.slice(3)).toEqual(["cluster-relation-joined mysql/1 SUCCEEDED"]);
    expect((await unitOnServer(model, "mysql/0")).state).toEqual(local.progress);
    expect(local.progress.relations[peer]).toEqual({ endpoint: "cluster", members: { "mysql/1": 1 }, changedPending: null });
    expect(log.at(-1)).toMatch(/no hook cluster-relation-changed \(mysql\/1\)$/);
  });
});
