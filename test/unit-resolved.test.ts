// A failed hook stops its unit's progress (agent status error, Juju's
// `hook failed: "<hook>"`), until `juju resolved` (retry it) or
// `juju resolved --no-retry` (skip it) and the run its agent begins for it,
// or until the unit is removed with force (as Juju's uniter treats hook
// failures and `resolved`). The run takes the resolution as it begins.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { agent, BEGIN_HOOK, RESOLVE_UNIT } from "./support/hooks.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

/** wordpress/0 in the db relation's scope, its db-relation-changed hook failed. */
async function failed() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress" });
  await deploy(api, model, { charm: "mysql" });
  const db = (await integrate(api, model, "wordpress", "mysql")).id as number;
  const l = lifecycle(api, model);
  await l.enter(db, "wordpress/0");
  await l.enter(db, "mysql/0");
  const a = agent(api, model);
  const failedRun = await a.run("wordpress/0", "db-relation-changed", "FAILED", {
    begin: { relation: db, remoteUnit: "mysql/0" },
    commit: { message: "exit status 1" },
  });
  return { model, db, l, a, failedRun };
}

/** The failed hook's run, naming the resolution it acts on (null: none, as the retry timer's). */
const failedHookRun = (db: number, resolved: "RETRY_HOOK" | "SKIP_HOOK" | null = "RETRY_HOOK") => ({
  begin: { relation: db, remoteUnit: "mysql/0", resolved },
});

describe("resolveUnit", () => {
  it("is refused with NOT_IN_ERROR for a unit whose agent is not in error, changing nothing", async () => {
    const { model, a } = await failed();
    const before = await a.revision();
    const error = await api.refused("NOT_IN_ERROR", RESOLVE_UNIT, { input: { model, unit: "mysql/0" } });
    expect(error.message).toMatch("unit mysql/0's agent is allocating, not in error");
    await api.refused("NOT_IN_ERROR", RESOLVE_UNIT, { input: { model, unit: "mysql/0", retry: false } });
    await api.refused("NOT_FOUND", RESOLVE_UNIT, { input: { model, unit: "mysql/7" } });
    expect(await a.revision()).toBe(before);
  });

  it("records RETRY_HOOK by default, SKIP_HOOK with retry: false", async () => {
    const { db, a } = await failed();
    expect(await a.resolve("wordpress/0")).toEqual({ name: "wordpress/0", resolved: "RETRY_HOOK", agentStatus: { current: "error" } });
    await a.run("wordpress/0", "db-relation-changed", "FAILED", failedHookRun(db));
    expect(await a.resolve("wordpress/0", false)).toEqual({
      name: "wordpress/0",
      resolved: "SKIP_HOOK",
      agentStatus: { current: "error" },
    });
  });

  // Juju's SetResolved asserts that no mode is set (state/unit.go), and its TestResolve (state/unit_test.go): `Resolve`
  // again, either way, fails with "already resolved" and the first mode stands, until ClearResolved: here, its agent
  // beginning the run it allows.
  it("is refused with ALREADY_RESOLVED while a resolution is pending, either way, and the first one stands, changing nothing", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    const revision = await a.revision();
    for (const retry of [false, true]) {
      const error = await api.refused("ALREADY_RESOLVED", RESOLVE_UNIT, { input: { model: a.model, unit: "wordpress/0", retry } });
      expect(error.message).toBe("unit wordpress/0 is already resolved (retry-hook): its agent has yet to act on it");
      expect(error.extensions).toMatchObject({ code: "ALREADY_RESOLVED", resolved: "retry-hook" });
    }
    expect(await a.revision()).toBe(revision);
    expect((await a.unit("wordpress/0")).resolved).toBe("RETRY_HOOK");
    // Its agent runs the hook, which fails again: the run took the mode as it began, and a new resolution is taken.
    await a.run("wordpress/0", "db-relation-changed", "FAILED", failedHookRun(db));
    expect((await a.resolve("wordpress/0", false)).resolved).toBe("SKIP_HOOK");
    await api.refused("ALREADY_RESOLVED", RESOLVE_UNIT, { input: { model: a.model, unit: "wordpress/0" } });
    expect((await a.unit("wordpress/0")).resolved).toBe("SKIP_HOOK");
  });

  // Juju's TestSetClearResolvedWhenNotAlive (state/unit_test.go): SetResolved succeeds on a Dying unit, fails on a Dead one.
  it("resolves a Dying unit: that is how a removal stuck on a failed hook goes on", async () => {
    const { l, a } = await failed();
    await l.removeUnit(["wordpress/0"]);
    expect(await a.resolve("wordpress/0", false)).toEqual({
      name: "wordpress/0",
      resolved: "SKIP_HOOK",
      agentStatus: { current: "error" },
    });
    expect((await a.unit("wordpress/0")).life).toBe("DYING");
  });

  it("is refused with NOT_ALIVE for a Dead unit, whatever its agent says or was asked, changing nothing", async () => {
    const { db, l, a } = await failed();
    await l.removeUnit(["wordpress/0"]);
    await a.resolve("wordpress/0", false); // asked while Dying; then the unit is made Dead by hand
    await l.leave(db, "wordpress/0");
    await l.setUnitDead("wordpress/0");
    const before = await a.unit("wordpress/0");
    const revision = await a.revision();
    for (const retry of [true, false]) {
      const error = await api.refused("NOT_ALIVE", RESOLVE_UNIT, { input: { model: a.model, unit: "wordpress/0", retry } });
      expect(error.message).toBe("unit wordpress/0 is dead: its agent runs no more hooks, nothing to resolve");
      expect(error.extensions).toMatchObject({ code: "NOT_ALIVE", life: "dead" });
    }
    expect(await a.revision()).toBe(revision);
    expect(await a.unit("wordpress/0")).toEqual(before);
    expect(before).toMatchObject({ life: "DEAD", resolved: "SKIP_HOOK", agentStatus: { current: "error" } });
  });

  it("retry: the agent runs the hook again; its success commits the hook's settings, makes it idle and clears resolved", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    const retried = await a.run("wordpress/0", "db-relation-changed", "SUCCEEDED", {
      ...failedHookRun(db),
      commit: { settings: [{ relation: db, set: [{ key: "url", value: "http://wp" }] }] },
    });
    expect(retried.result).toBe("SUCCEEDED");
    const unit = await a.unit("wordpress/0");
    expect(unit).toMatchObject({ resolved: null, agentStatus: { current: "idle", message: "" } });
    expect((await a.settings(db, "wordpress/0")).values.url).toBe("http://wp");
    expect(unit.runs.map((r: any) => r.result)).toEqual(["SUCCEEDED", "FAILED"]);
  });

  it("a retried hook that fails again is in error again, and needs another resolveUnit", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    await a.run("wordpress/0", "db-relation-changed", "FAILED", failedHookRun(db));
    expect(await a.unit("wordpress/0")).toMatchObject({
      resolved: null,
      agentStatus: { current: "error", message: 'hook failed: "db-relation-changed"' },
    });
  });

  it("no retry: the agent commits the hook SKIPPED, with none of its settings; it is idle and resolved cleared", async () => {
    const { db, a } = await failed();
    const settings = await a.settings(db, "wordpress/0");
    await a.resolve("wordpress/0", false);
    const skipped = await a.run("wordpress/0", "db-relation-changed", "SKIPPED", failedHookRun(db, "SKIP_HOOK"));
    expect(skipped.result).toBe("SKIPPED");
    expect(await a.unit("wordpress/0")).toMatchObject({ resolved: null, agentStatus: { current: "idle" } });
    expect(await a.settings(db, "wordpress/0")).toEqual(settings);
  });
});

// Juju's uniter clears the resolved mode as the operation it allows starts (worker/uniter/resolver.go nextOpHookError:
// ClearResolved, then RunHook or SkipHook), and takes a pending resolution before its retry timer. Here the run's begin
// takes it, in its transaction, and the run names it: so one resolution allows one run, whatever the agent's stream says.
describe("a resolution is taken by the run it allows, as the run begins", () => {
  const refusedBegin = (a: ReturnType<typeof agent>, db: number, resolved: string | null) =>
    api.refused("RESOLUTION_MISMATCH", BEGIN_HOOK, {
      input: { model: a.model, unit: "wordpress/0", hook: "db-relation-changed", relation: db, remoteUnit: "mysql/0", resolved },
    });

  it("beginHook naming the pending resolution takes it: the unit reads resolved null, executing, before any commit", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    await a.begin("wordpress/0", "db-relation-changed", failedHookRun(db).begin);
    expect(await a.unit("wordpress/0")).toMatchObject({ resolved: null, agentStatus: { current: "executing" } });
  });

  it("a skip takes SKIP_HOOK as its run begins, before the SKIPPED commit", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0", false);
    await a.begin("wordpress/0", "db-relation-changed", failedHookRun(db, "SKIP_HOOK").begin);
    expect((await a.unit("wordpress/0")).resolved).toBeNull();
  });

  it("a second run naming the resolution its first run took is refused with RESOLUTION_MISMATCH, beginning nothing: one run a resolution", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    await a.run("wordpress/0", "db-relation-changed", "FAILED", failedHookRun(db)); // in error again, nothing pending
    const revision = await a.revision();
    const error = await refusedBegin(a, db, "RETRY_HOOK");
    expect(error.message).toBe(
      "unit wordpress/0 has no resolution pending: its agent has begun the run it allowed already (one run a resolution)",
    );
    expect(error.extensions).toMatchObject({ resolved: null });
    expect(await a.revision()).toBe(revision);
  });

  it("a run naming a resolution for a unit not in error is refused with RESOLUTION_MISMATCH: the run it allowed succeeded", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    await a.run("wordpress/0", "db-relation-changed", "SUCCEEDED", failedHookRun(db));
    const error = await refusedBegin(a, db, "RETRY_HOOK");
    expect(error.message).toBe("unit wordpress/0's agent is idle, not in error: no resolution to act on");
  });

  it("the retry timer's run (naming none) while a resolution is pending is refused with RESOLUTION_MISMATCH, and the resolution stands: it comes first", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0", false);
    const revision = await a.revision();
    const error = await refusedBegin(a, db, null);
    expect(error.message).toBe("unit wordpress/0 is resolved (skip-hook): the failed hook's next run acts on it, and names it");
    expect(error.extensions).toMatchObject({ resolved: "skip-hook" });
    expect(await a.revision()).toBe(revision);
    expect((await a.unit("wordpress/0")).resolved).toBe("SKIP_HOOK");
  });

  it("a run naming another resolution than the pending one is refused with RESOLUTION_MISMATCH, and the pending one stands", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0", false);
    const error = await refusedBegin(a, db, "RETRY_HOOK");
    expect(error.message).toBe("unit wordpress/0 is resolved (skip-hook), not retry-hook");
    expect((await a.unit("wordpress/0")).resolved).toBe("SKIP_HOOK");
  });

  it("a resolution allows a run of the failed hook only: naming it for another hook is INVALID_ARGUMENT, changing nothing", async () => {
    const { db, a } = await failed();
    await a.resolve("wordpress/0");
    const revision = await a.revision();
    const error = await api.refused("INVALID_ARGUMENT", BEGIN_HOOK, {
      input: {
        model: a.model,
        unit: "wordpress/0",
        hook: "db-relation-joined",
        relation: db,
        remoteUnit: "mysql/0",
        resolved: "RETRY_HOOK",
      },
    });
    expect(error.message).toBe('a resolution allows a run of the failed hook only ("db-relation-changed"), not of "db-relation-joined"');
    expect(await a.revision()).toBe(revision);
  });
});

describe("an agent in error", () => {
  const SET_STATUS = `mutation ($input: UnitAgentStatusInput!) { setUnitAgentStatus(input: $input) { agentStatus { current message } } }`;

  it("stays in error when it reports idle (a restarted agent does not hide its failed hook)", async () => {
    const { model, a } = await failed();
    const revision = await a.revision();
    const data = await api.ok(SET_STATUS, { input: { model, unit: "wordpress/0", status: "IDLE" } });
    expect(data.setUnitAgentStatus.agentStatus).toEqual({ current: "error", message: 'hook failed: "db-relation-changed"' });
    expect(await a.revision()).toBe(revision);
  });

  it("cannot be put in error but by a failed hook", async () => {
    const { model } = await failed();
    await api.refused("INVALID_ARGUMENT", SET_STATUS, { input: { model, unit: "mysql/0", status: "ERROR" } });
  });

  it("an Alive unit in error lists no blockers: only a Dying one is held", async () => {
    const { a } = await failed();
    expect((await a.unit("wordpress/0")).blockers).toEqual([]);
  });

  it("a Dying unit in error shows a hook-failed blocker naming the hook and what gets it moving", async () => {
    const { db, l, a } = await failed();
    await l.removeUnit(["wordpress/0"]);
    const [first, ...rest] = (await a.unit("wordpress/0")).blockers;
    expect(first).toEqual({
      kind: "HOOK_FAILED",
      message: `its agent stopped on a failed hook: "db-relation-changed" (relation ${db}, remote unit mysql/0). resolveUnit runs it again, resolveUnit with retry: false skips it, removeUnit with force removes the unit anyway`,
      entities: ["wordpress/0"],
    });
    expect(rest.map((b: any) => b.kind)).toEqual(["IN_SCOPE"]);
    await a.resolve("wordpress/0", false);
    expect((await a.unit("wordpress/0")).blockers[0].message).toMatch(
      "a skip was asked for (resolveUnit with retry: false): waiting for its agent",
    );
    await a.run("wordpress/0", "db-relation-changed", "SKIPPED", failedHookRun(db, "SKIP_HOOK"));
    expect((await a.unit("wordpress/0")).blockers.map((b: any) => b.kind)).toEqual(["IN_SCOPE"]);
  });

  it("removeUnit with force removes a Dying unit in error, and its hook runs with it", async () => {
    const { model, l } = await failed();
    await l.removeUnit(["wordpress/0"]);
    expect(await l.removeUnit(["wordpress/0"], { force: true })).toEqual([{ id: "wordpress/0", outcome: "UNCHANGED" }]);
    const status = await l.status();
    expect(status.units["wordpress/0"]).toBeUndefined();
    const data = await api.ok(`query ($model: String!) { model(name: $model) { hookRuns { edges { node { unitName } } } } }`, { model });
    expect(data.model.hookRuns.edges.map((e: any) => e.node.unitName)).not.toContain("wordpress/0");
  });
});
