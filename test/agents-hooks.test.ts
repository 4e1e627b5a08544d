// Unit agents running their charms' hooks, end to end over real sockets: the
// bundled charms' real hooks (charms/*/hooks) with the real hook tools,
// every agent run by the controller as `npm start` runs them. Waits poll the
// API with a deadline; nothing sleeps and hopes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { describe, expect, it } from "vitest";
import { AgentConnection, ApiError } from "../src/agents/connection.js";
import { MachineAgent } from "../src/agents/machine-agent.js";
import { JUJU_HOOK_RETRY } from "../src/agents/uniter/retry.js";
import { BeginHookDocument, CommitHookDocument, UnitAgentDocument, type UnitAgentSubscription } from "../src/client/graphql.js";
import { useAgents } from "./support/agents.js";
import { ManualClock } from "./support/manual-clock.js";
import { CHANGES, subscribe, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const agentsFor = useAgents(live);
const DEADLINE = { timeout: scaled(90_000), interval: 100 };

const UNIT = `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) {
  life agentState workloadStatus { current message } agentStatus { current message hook }
  blockers { kind message }
  hookRuns(first: 100) { edges { node { hook remoteUnit result } } }
} } }`;

/** The unit, with its hook runs oldest first as "hook remote result". */
async function unit(model: string, name: string) {
  const result = await live.post(UNIT, { model, unit: name });
  if (result.errors?.some((e) => e.extensions?.code === "NOT_FOUND")) return null; // removed
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  const m = result.data!.model;
  const runs = m.unit.hookRuns.edges.map((e: any) => e.node).reverse();
  return { ...m.unit, runs: runs.map((r: any) => [r.hook, r.remoteUnit, r.result].filter(Boolean).join(" ")) as string[] };
}

const mutate = (query: string, input: Record<string, unknown>) => live.ok(query, { input });
const deploy = (model: string, charm: string, extra: Record<string, unknown> = {}) =>
  mutate(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { model, charm, ...extra });
const integrate = (model: string, a: string, b: string) =>
  mutate(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, { model, endpoints: [a, b] });
const resolve = (model: string, name: string, retry: boolean) =>
  mutate(`mutation ($input: ResolveUnitInput!) { resolveUnit(input: $input) { name } }`, { model, unit: name, retry });
const failHook = (hook: string) => ({ config: [{ key: "fail-hook", value: hook }] });

describe("hooks, in Juju's order", { timeout: scaled(180_000) }, () => {
  it("install, config-changed, start; then -joined, always followed by -changed for that unit", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress");
    await deploy(model, "mysql");
    await integrate(model, "wordpress", "mysql");
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.workloadStatus.current, DEADLINE).toBe("active");
    // status-set takes effect at once, so the -changed that said "active" may still be running: compare which hooks ran.
    const runs = (await unit(model, "wordpress/0"))!.runs.map((r: string) => r.replace(/ (RUNNING|SUCCEEDED)$/, ""));
    expect(runs.slice(0, 5)).toEqual(["install", "config-changed", "start", "db-relation-joined mysql/0", "db-relation-changed mysql/0"]);
    // Each new version of mysql/0's settings (its own -joined sets them) runs -changed again (seed 002), and nothing else.
    expect(new Set(runs.slice(5))).toEqual(new Set(runs.length > 5 ? ["db-relation-changed mysql/0"] : []));
  });

  it("a new unit's agent goes from allocating straight to running its install hook, as Juju's uniter does: no idle report before it", async () => {
    const { name: model } = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model, kinds: ["UNIT"], entities: ["wordpress/0"] });
    await stream.synced();
    await agentsFor(model);
    await deploy(model, "wordpress");
    // The unit's creation row says it is allocating; the rows about its agent after it carry the status it reports.
    const reported = () =>
      stream.changes
        .filter((e) => e.changed.includes("agentStatus"))
        .map((e) => e.unit!.agentStatus!)
        .map((status) => (status.current === "executing" ? `executing: ${status.message}` : status.current));
    await stream.until(() => reported().length > 1, DEADLINE.timeout);
    expect(reported().slice(0, 2)).toEqual(["allocating", "executing: running install hook"]);
  });

  it("a hook the charm does not ship is passed over, its progress saved and no run recorded: mysql has no db-relation-changed", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress");
    await deploy(model, "mysql");
    const { id } = (await integrate(model, "wordpress", "mysql")).integrate;
    // Its progress says it has seen wordpress/0's settings, with no -changed owed: it moved past the hook it lacks.
    await expect
      .poll(async () => (await unit(model, "mysql/0"))?.agentState?.relations?.[id], DEADLINE)
      .toMatchObject({ members: { "wordpress/0": expect.any(Number) }, changedPending: null });
    expect((await unit(model, "mysql/0"))!.runs.filter((r: string) => r.startsWith("db-relation-"))).toEqual([
      "db-relation-joined wordpress/0 SUCCEEDED",
    ]);
  });

  it("the charms exchange relation data: wordpress's db-relation-changed reads the host mysql's db-relation-joined set", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress");
    await deploy(model, "mysql");
    const { id } = (await integrate(model, "wordpress", "mysql")).integrate;
    const settings = `query ($model: String!, $id: Int!) { model(name: $model) { relation(id: $id) { settings(unit: "mysql/0") { values { key value } } } } }`;
    const host = async () =>
      (await live.ok(settings, { model, id })).model.relation.settings?.values.find((v: any) => v.key === "host")?.value as
        | string
        | undefined;
    await expect.poll(host, DEADLINE).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await expect
      .poll(async () => (await unit(model, "wordpress/0"))?.workloadStatus, DEADLINE)
      .toEqual({
        current: "active",
        message: `database at ${await host()}`,
      });
  });
});

describe("a failed hook (as Juju's uniter: hook failures and resolved)", { timeout: scaled(180_000) }, () => {
  it('stops the unit in error, `hook failed: "<hook>"`; resolveUnit with retry runs it again and the unit goes on', async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress", failHook("start"));
    await expect
      .poll(async () => (await unit(model, "wordpress/0"))?.agentStatus, DEADLINE)
      .toEqual({ current: "error", message: 'hook failed: "start"', hook: "start" });
    await mutate(`mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`, {
      model,
      application: "wordpress",
      values: [{ key: "fail-hook", value: "" }],
    });
    await resolve(model, "wordpress/0", true);
    await expect
      .poll(async () => (await unit(model, "wordpress/0"))?.runs.slice(-2), DEADLINE)
      .toEqual(["start SUCCEEDED", "config-changed SUCCEEDED"]);
    const after = await unit(model, "wordpress/0");
    expect(after!.runs).toEqual([
      "install SUCCEEDED",
      "config-changed SUCCEEDED",
      "start FAILED",
      "start SUCCEEDED",
      "config-changed SUCCEEDED",
    ]);
    expect(after!.agentStatus.current).toBe("idle");
  });

  it("resolveUnit with no retry marks the failed hook done without running it, and the unit goes on", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress", failHook("install"));
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.agentStatus.current, DEADLINE).toBe("error");
    await resolve(model, "wordpress/0", false);
    await expect
      .poll(async () => (await unit(model, "wordpress/0"))?.runs, DEADLINE)
      .toEqual(["install FAILED", "install SKIPPED", "config-changed SUCCEEDED", "start SUCCEEDED"]);
  });

  it("a Dying unit stuck on a failed hook says so in its blockers; removeUnit with force gets past it", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress", failHook("stop"));
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.runs.at(-1), DEADLINE).toBe("start SUCCEEDED");
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/0"] });
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.blockers.map((b: any) => b.kind), DEADLINE).toContain("HOOK_FAILED");
    expect((await unit(model, "wordpress/0"))!.agentStatus.message).toBe('hook failed: "stop"');
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, {
      model,
      units: ["wordpress/0"],
      force: true,
    });
    await expect.poll(async () => unit(model, "wordpress/0"), DEADLINE).toBeNull();
  });

  it("after its application is removed, its hook history still says what ran and why it failed, juju-log lines included", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    await deploy(model, "wordpress", failHook("install"));
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.agentStatus.current, DEADLINE).toBe("error");
    await mutate(`mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { outcome } }`, {
      model,
      applications: ["wordpress"],
      force: true,
    });
    await expect.poll(async () => unit(model, "wordpress/0"), DEADLINE).toBeNull();
    // Juju's debug-log --replay: oldest first.
    const data = await live.ok(
      `query ($model: String!) { model(name: $model) { hookHistory(application: "wordpress", order: OLDEST_FIRST) {
        edges { node { unitName hook result message unitRemovedAt log { level message } } } } } }`,
      { model },
    );
    const [install] = data.model.hookHistory.edges.map((e: any) => e.node);
    expect(install).toMatchObject({
      unitName: "wordpress/0",
      hook: "install",
      result: "FAILED",
      log: [{ level: "ERROR", message: "install fails on purpose (config fail-hook)" }],
    });
    expect(install.message).toMatch(/^exit status 1/);
    expect(install.unitRemovedAt).not.toBeNull();
  });
});

describe("automatic retries (the model's automaticallyRetryHooks, on by default)", { timeout: scaled(180_000) }, () => {
  it("a failed hook is retried with backoff, so once its cause is gone the unit goes on with no resolveUnit", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model, undefined, { hookRetry: { baseMs: 100, maxMs: 400 } });
    await deploy(model, "wordpress", failHook("start"));
    await expect
      .poll(async () => (await unit(model, "wordpress/0"))?.runs.filter((r: string) => r === "start FAILED").length, DEADLINE)
      .toBeGreaterThan(1);
    await mutate(`mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`, {
      model,
      application: "wordpress",
      values: [{ key: "fail-hook", value: "" }],
    });
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.runs.at(-1), DEADLINE).toBe("config-changed SUCCEEDED");
    expect((await unit(model, "wordpress/0"))!.runs).toContain("start SUCCEEDED");
  });

  it("with automaticallyRetryHooks off, a failed hook waits for resolveUnit: it is not retried while the same failure retries elsewhere", async () => {
    const retry = { hookRetry: { baseMs: 100, maxMs: 400 } };
    const { name: off } = await live.newModel();
    await mutate(`mutation ($input: SetModelConfigInput!) { setModelConfig(input: $input) { automaticallyRetryHooks } }`, {
      model: off,
      automaticallyRetryHooks: false,
    });
    // The control: the same charm, failure and backoff in a model that retries, run beside it.
    const { name: on } = await live.newModel();
    await agentsFor(off, undefined, retry);
    await agentsFor(on, undefined, retry);
    await deploy(off, "wordpress", failHook("start"));
    await deploy(on, "wordpress", failHook("start"));
    const failures = async (model: string) =>
      (await unit(model, "wordpress/0"))?.runs.filter((r: string) => r === "start FAILED").length ?? 0;
    await expect.poll(() => failures(off), DEADLINE).toBe(1);
    await expect.poll(() => failures(on), DEADLINE).toBeGreaterThan(3);
    expect(await failures(off)).toBe(1);
    expect((await unit(off, "wordpress/0"))!.agentStatus).toMatchObject({ current: "error", message: 'hook failed: "start"' });
  });
});

describe("a failed hook runs again only when allowed, once each time (issue 31: a departed hook re-run every half second)", {
  timeout: scaled(180_000),
}, () => {
  const setRetries = (model: string, on: boolean) =>
    mutate(`mutation ($input: SetModelConfigInput!) { setModelConfig(input: $input) { automaticallyRetryHooks } }`, {
      model,
      automaticallyRetryHooks: on,
    });

  /**
   * The user's report: wordpress and mysql related, wordpress's db-relation-departed exits 1, `removeUnit wordpress/0`.
   * The agents' retry waits are Juju's (5 s doubling to 5 min), on a clock the test moves.
   */
  async function departedFails(retries: boolean) {
    const clock = new ManualClock();
    const { name: model } = await live.newModel();
    await setRetries(model, retries);
    const { controller } = await agentsFor(model, undefined, { hookRetry: { ...JUJU_HOOK_RETRY, clock } });
    // Every run of the unit's hooks, from the model's HOOK stream: it outlives the unit, whose runs go with it.
    const hooks = subscribe(live.url, CHANGES, { model, kinds: ["HOOK"], entities: ["wordpress/0"] });
    await hooks.synced();
    await deploy(model, "wordpress", failHook("db-relation-departed"));
    await deploy(model, "mysql");
    await integrate(model, "wordpress", "mysql");
    await expect.poll(async () => (await unit(model, "wordpress/0"))?.runs.at(-1), DEADLINE).toBe("db-relation-changed mysql/0 SUCCEEDED");
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/0"] });
    const ended = (result: string) =>
      hooks.changes.filter((e) => e.hook?.hook === "db-relation-departed" && e.hook?.result === result).length;
    /** How many times the hook has run (begun) and failed, and the agent's status. */
    const runs = async () => ({
      begun: ended("RUNNING"),
      failed: ended("FAILED"),
      agent: (await unit(model, "wordpress/0"))?.agentStatus.current,
    });
    return { model, controller, clock, runs, ended };
  }

  it("with automatic retries, the agent runs it once after each wait of 5 s, 10 s, 20 s, and stays in error between them", async () => {
    const { model, clock, runs, ended } = await departedFails(true);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 1, failed: 1, agent: "error" });
    for (const [retry, wait] of [5_000, 10_000, 20_000].entries()) {
      // Juju's uniter arms its retry timer once it finds the hook failed: it fires once, and allows one run.
      await expect.poll(() => clock.waits(), DEADLINE).toEqual([wait]);
      clock.advance(wait);
      await expect.poll(runs, DEADLINE).toEqual({ begun: retry + 2, failed: retry + 2, agent: "error" });
    }
    // In error between retries, resolveUnit is taken at once: the person skips the hook, and the removal goes on.
    await resolve(model, "wordpress/0", false);
    await expect.poll(async () => unit(model, "wordpress/0"), DEADLINE).toBeNull();
    expect({ begun: ended("RUNNING"), failed: ended("FAILED"), skipped: ended("SKIPPED") }).toEqual({ begun: 5, failed: 4, skipped: 1 });
    expect(clock.waits()).toEqual([]); // the skip disarmed the timer
  });

  it("a resolution starts the schedule over (Juju's StopRetryHookTimer): when its run fails too, the next wait is 5 s again", async () => {
    const { model, clock, runs } = await departedFails(true);
    await expect.poll(() => clock.waits(), DEADLINE).toEqual([5_000]);
    clock.advance(5_000);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 2, failed: 2, agent: "error" });
    await expect.poll(() => clock.waits(), DEADLINE).toEqual([10_000]);
    await resolve(model, "wordpress/0", true);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 3, failed: 3, agent: "error" });
    await expect.poll(() => clock.waits(), DEADLINE).toEqual([5_000]);
  });

  it("an agent that starts with its unit in error arms the retry timer too, as Juju's uniter does on finding a failed hook", async () => {
    const { controller, clock, runs } = await departedFails(true);
    await expect.poll(() => clock.waits(), DEADLINE).toEqual([5_000]);
    // The machine agent restarts: its unit agent, and the timer it armed, are gone; the new one finds the unit in error.
    const [instance, machineAgent] = [...controller.machineAgents].find(([, a]) => a.unitAgents.has("wordpress/0"))!;
    machineAgent.stop();
    await machineAgent.finished;
    expect(clock.waits()).toEqual([]);
    const restarted = new MachineAgent(controller.api, machineAgent.credentials, { hookRetry: { ...JUJU_HOOK_RETRY, clock } });
    controller.machineAgents.set(instance, restarted);
    await restarted.start();
    await expect.poll(() => clock.waits(), DEADLINE).toEqual([5_000]);
    expect(await runs()).toEqual({ begun: 1, failed: 1, agent: "error" });
    clock.advance(5_000);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 2, failed: 2, agent: "error" });
  });

  it("without automatic retries, nothing runs it until resolveUnit, and each resolveUnit with retry runs it once", async () => {
    const { model, clock, runs, ended } = await departedFails(false);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 1, failed: 1, agent: "error" });
    clock.advance(3_600_000); // an hour: no timer of any schedule is left to fire
    await resolve(model, "wordpress/0", true);
    await expect.poll(runs, DEADLINE).toEqual({ begun: 2, failed: 2, agent: "error" });
    clock.advance(3_600_000);
    await resolve(model, "wordpress/0", false);
    await expect.poll(async () => unit(model, "wordpress/0"), DEADLINE).toBeNull();
    expect({ begun: ended("RUNNING"), failed: ended("FAILED"), skipped: ended("SKIPPED") }).toEqual({ begun: 3, failed: 2, skipped: 1 });
  });
});

/**
 * A connection whose `unit`'s unitAgent stream starts over at the worst moment, as after a reconnect: from the first
 * beginHook on, the stream's rows are held back, and once that run is committed the stream sends again the full state
 * it sent first (from before the begin). The rows held back come when the test releases them.
 */
class StaleSnapshotConnection extends AgentConnection {
  private readonly first: UnitAgentSubscription[] = [];
  private firstSent = false;
  private held: UnitAgentSubscription[] | null = null;
  private replayed = false;
  private deliver: (data: UnitAgentSubscription) => void = () => {};
  /** Each beginHook's outcome: "begun", or the code it was refused with. */
  readonly begins: string[] = [];

  constructor(
    url: string,
    private readonly unit: string,
  ) {
    super(url);
  }

  override subscribe<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    token: string,
    handlers: { next: (data: R) => void; failed: (error: Error) => void },
  ): () => void {
    if ((document as unknown) !== UnitAgentDocument || (variables as { unit?: string }).unit !== this.unit)
      return super.subscribe(document, variables, token, handlers);
    this.deliver = handlers.next as (data: UnitAgentSubscription) => void;
    return super.subscribe(document, variables, token, {
      ...handlers,
      next: (data) => {
        const event = data as UnitAgentSubscription;
        if (!this.firstSent) this.first.push(event);
        if (event.unitAgent.type === "BOOKMARK") this.firstSent = true;
        if (this.held) this.held.push(event);
        else handlers.next(data);
      },
    });
  }

  override async request<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
    const begin = (document as unknown) === BeginHookDocument;
    if (begin && !this.replayed) this.held ??= [];
    try {
      const result = await super.request(document, variables, token);
      if (begin) this.begins.push("begun");
      return result;
    } catch (error) {
      if (begin) this.begins.push(error instanceof ApiError ? error.code : String(error));
      throw error;
    } finally {
      // Committed: the stream starts over, with the state from before the begin, before the agent's next pass.
      if ((document as unknown) === CommitHookDocument && this.held && !this.replayed) {
        this.replayed = true;
        for (const event of this.first) this.deliver(event);
      }
    }
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.deliver(event);
  }
}

describe("a resolution allows one run, whatever the agent's stream says (Juju clears it as the run starts)", {
  timeout: scaled(180_000),
}, () => {
  it("an agent whose stream starts over with the resolution still pending, after the run it allowed failed, runs the hook no second time", async () => {
    const { name: model } = await live.newModel();
    await mutate(`mutation ($input: SetModelConfigInput!) { setModelConfig(input: $input) { automaticallyRetryHooks } }`, {
      model,
      automaticallyRetryHooks: false,
    });
    const { controller } = await agentsFor(model);
    const hooks = subscribe(live.url, CHANGES, { model, kinds: ["HOOK"], entities: ["wordpress/0"] });
    await hooks.synced();
    await deploy(model, "wordpress", failHook("start"));
    const runs = (result: string) => hooks.changes.filter((e) => e.hook?.hook === "start" && e.hook?.result === result).length;
    await expect.poll(() => runs("FAILED"), DEADLINE).toBe(1);
    // Its machine agent stops; the person resolves; the agent comes back on a connection whose stream will start over.
    const [instance, machineAgent] = [...controller.machineAgents].find(([, a]) => a.unitAgents.has("wordpress/0"))!;
    machineAgent.stop();
    await machineAgent.finished;
    await resolve(model, "wordpress/0", true);
    const connection = new StaleSnapshotConnection(live.url, "wordpress/0");
    const restarted = new MachineAgent(connection, machineAgent.credentials);
    controller.machineAgents.set(instance, restarted);
    try {
      await restarted.start();
      // The resolution's run fails; the stream shows the resolution again; each pass meanwhile (any change pokes one)
      // acts on it, and is refused: nothing is begun.
      await expect.poll(() => connection.begins.length, DEADLINE).toBeGreaterThanOrEqual(2);
      expect(connection.begins[0]).toBe("begun");
      expect(new Set(connection.begins.slice(1))).toEqual(new Set(["RESOLUTION_MISMATCH"]));
      connection.release();
      await expect.poll(() => runs("FAILED"), DEADLINE).toBe(2);
      await expect.poll(async () => (await unit(model, "wordpress/0"))?.agentStatus.current, DEADLINE).toBe("error");
      expect(runs("RUNNING")).toBe(2);
    } finally {
      restarted.stop();
      await restarted.finished;
      await connection.close();
    }
  });
});

describe("progress is kept on the server (the seeds' hardware-failure BUG, fixed)", { timeout: scaled(180_000) }, () => {
  it("an agent redeployed with its local state wiped runs no hook twice, and still departs its relations properly", async () => {
    const { name: model } = await live.newModel();
    const dataDir = mkdtempSync(join(tmpdir(), "lifeline-agents-test-"));
    try {
      const { controller } = await agentsFor(model, undefined, { dataDir });
      await deploy(model, "wordpress");
      await deploy(model, "mysql");
      await integrate(model, "wordpress", "mysql");
      await expect
        .poll(async () => (await unit(model, "wordpress/0"))?.runs.at(-1), DEADLINE)
        .toBe("db-relation-changed mysql/0 SUCCEEDED");
      // The hardware fails: the machine agent and its unit agents are gone, and so is everything they kept locally.
      const [instance, machineAgent] = [...controller.machineAgents].find(([, a]) => a.unitAgents.has("wordpress/0"))!;
      machineAgent.stop();
      await machineAgent.finished;
      rmSync(dataDir, { recursive: true, force: true });
      const redeployed = new MachineAgent(controller.api, machineAgent.credentials, { dataDir, privateAddress: "10.9.9.9" });
      controller.machineAgents.set(instance, redeployed);
      await redeployed.start();
      await expect.poll(() => redeployed.unitAgents.has("wordpress/0"), DEADLINE).toBe(true);
      await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/0"] });
      await expect
        .poll(async () => (await unit(model, "mysql/0"))?.runs.at(-1), DEADLINE)
        .toBe("db-relation-departed wordpress/0 SUCCEEDED");
      await expect.poll(async () => unit(model, "wordpress/0"), DEADLINE).toBeNull();
      const mysql = await unit(model, "mysql/0");
      expect(mysql!.runs.filter((r: string) => r.startsWith("install"))).toEqual(["install SUCCEEDED"]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
