// Hook runs kept on the server (issue 10): a unit agent begins each hook and
// commits it; the commit carries the hook's relation-set writes (committed
// together, only on success: Juju's CommitHookChanges) and its state document,
// so an agent that lost its disk knows where it was (the seeds' hardware-failure BUG).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { AGENT_STATE_LIMIT, HOOK_RUNS_KEPT, MAX_MISSING_HOOKS, MAX_MISSING_HOOKS_OF_UNITS } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { agent, BEGIN_HOOK, COMMIT_HOOK, RECORD_MISSING_HOOKS, RECORD_UNITS_MISSING_HOOKS, SET_AGENT_STATE } from "./support/hooks.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

/** The kinds of the change rows written after `revision`, in order. */
async function kindsSince(model: string, revision: string): Promise<string[]> {
  const rows = await api.store.db.execute(
    sql`select kind from changes where model_id = (select id from models where name = ${model}) and revision > ${Number(revision)} order by revision`,
  );
  return rowsOf<{ kind: string }>(rows).map((r) => r.kind);
}

/** wordpress/0 and mysql/0 in the scope of their db relation; wordpress/1 in no scope. */
async function scene() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: 2 });
  await deploy(api, model, { charm: "mysql" });
  const db = (await integrate(api, model, "wordpress", "mysql")).id as number;
  const peer = (await api.ok(`query ($model: String!) { model(name: $model) { relation(key: "mysql:cluster") { id } } }`, { model })).model
    .relation.id as number;
  const l = lifecycle(api, model);
  await l.enter(db, "wordpress/0", "10.0.0.1");
  await l.enter(db, "mysql/0", "10.0.0.2");
  await l.enter(peer, "mysql/0", "10.0.0.2");
  return { model, db, peer, l, a: agent(api, model) };
}

describe("beginHook", () => {
  it("records the run RUNNING and makes the agent executing, with Juju's message and the hook's details", async () => {
    const { db, a } = await scene();
    const run = await a.begin("wordpress/0", "db-relation-joined", { relation: db, remoteUnit: "mysql/0" });
    expect(run).toMatchObject({
      unitName: "wordpress/0",
      hook: "db-relation-joined",
      relation: db,
      remoteUnit: "mysql/0",
      result: "RUNNING",
    });
    expect(run.endedAt).toBeNull();
    const unit = await a.unit("wordpress/0");
    expect(unit.agentStatus).toMatchObject({
      current: "executing",
      message: "running db-relation-joined hook for mysql/0",
      hook: "db-relation-joined",
      relation: db,
      remoteUnit: "mysql/0",
    });
    expect(unit.runs.map((r: any) => r.id)).toEqual([run.id]);
  });

  it("ends a run still RUNNING as INTERRUPTED: its agent restarted mid-hook and began again", async () => {
    const { model, a } = await scene();
    const first = await a.begin("wordpress/0", "install");
    const second = await a.begin("wordpress/0", "install");
    const runs = (await a.unit("wordpress/0")).runs;
    expect(runs.map((r: any) => [r.id, r.result])).toEqual([
      [second.id, "RUNNING"],
      [first.id, "INTERRUPTED"],
    ]);
    expect(runs[1].endedAt).not.toBeNull();
    // The interrupted run's agent (a zombie, say) cannot commit it any more.
    await api.refused("HOOK_RUN_ENDED", COMMIT_HOOK, { input: { model, unit: "wordpress/0", run: first.id, result: "SUCCEEDED" } });
  });

  it(`keeps each unit's latest ${HOOK_RUNS_KEPT} runs`, async () => {
    const { a } = await scene();
    const ids: string[] = [];
    for (let i = 0; i < HOOK_RUNS_KEPT + 2; i++) ids.push((await a.begin("wordpress/1", "update-status")).id);
    const runs = (await a.unit("wordpress/1")).runs;
    expect(runs).toHaveLength(HOOK_RUNS_KEPT);
    expect(runs[0].id).toBe(ids.at(-1));
    expect(runs.at(-1).id).toBe(ids[2]);
  });

  it("refuses, changing nothing: hooks the charm cannot have, relation details that do not fit, Dead units, oversized state", async () => {
    const { model, db, peer, a } = await scene();
    const before = await a.revision();
    const begin = (code: string, input: Record<string, unknown>) => api.refused(code, BEGIN_HOOK, { input: { model, ...input } });
    expect((await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "cluster-relation-joined", relation: peer })).message).toMatch(
      /not a hook of charm "wordpress".*\(website, db, cache, juju-info\)/,
    );
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "reboot" });
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "db-relation-changed" }); // no relation
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "install", relation: db }); // a unit hook has none
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "start", remoteUnit: "mysql/0" });
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "db-relation-broken", relation: db, remoteUnit: "mysql/0" });
    expect((await begin("INVALID_ARGUMENT", { unit: "mysql/0", hook: "db-relation-changed", relation: peer })).message).toMatch(
      /mysql's "cluster" relation, not "db"/,
    );
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "db-relation-changed", relation: peer }); // wordpress is not in it
    await begin("INVALID_ID", { unit: "wordpress/0", hook: "db-relation-changed", relation: db, remoteUnit: "mysql" });
    await begin("INVALID_ID", { unit: "wordpress/0", hook: "db-relation-changed", relation: -1 });
    await begin("NOT_FOUND", { unit: "wordpress/9", hook: "install" });
    await begin("INVALID_ARGUMENT", { unit: "wordpress/0", hook: "install", state: { blob: "x".repeat(AGENT_STATE_LIMIT) } });
    expect(await a.revision()).toBe(before);
    expect((await a.unit("wordpress/0")).runs).toEqual([]);

    const l = lifecycle(api, model);
    await l.setUnitDead("wordpress/1");
    await begin("NOT_ALIVE", { unit: "wordpress/1", hook: "stop" });
  });

  it("takes a relation that is already gone on trust: -departed and -broken run after a forced removal", async () => {
    const { a } = await scene();
    const run = await a.begin("wordpress/0", "db-relation-broken", { relation: 999 });
    expect(run).toMatchObject({ relation: 999, remoteUnit: null });
  });
});

describe('recordMissingHooks (hooks the charm does not ship: Juju\'s "skipped missing hook")', () => {
  // wordpress ships install and db-relation-joined, not update-status, cache-relation-joined or website-relation-changed.
  const missing = (db: number) => [
    { hook: "update-status" },
    { hook: "website-relation-changed", relation: db + 1000, remoteUnit: "haproxy/0" },
    { hook: "update-status" },
  ];

  it("moves the agent past them with no run recorded (Juju records none): the agent idle, its state saved; the unit as it stands after", async () => {
    const { model, db, a } = await scene();
    const before = await a.revision();
    const after = (
      await api.ok(RECORD_MISSING_HOOKS, { input: { model, unit: "wordpress/0", hooks: missing(db), state: { at: "after" } } })
    ).recordMissingHooks;
    expect(after).toEqual({ name: "wordpress/0", agentStatus: { current: "idle" } });
    const unit = await a.unit("wordpress/0");
    expect(unit.agentState).toEqual({ at: "after" });
    expect(unit.runs).toEqual([]);
    // The unit's agent went idle (from allocating): no hook run is among the changes.
    expect(await kindsSince(model, before)).toEqual(["unit"]);
  });

  it("a run begun before and never committed is ended INTERRUPTED: its agent moved on", async () => {
    const { model, db, a } = await scene();
    await a.begin("wordpress/0", "install");
    await api.ok(RECORD_MISSING_HOOKS, { input: { model, unit: "wordpress/0", hooks: missing(db) } });
    const unit = await a.unit("wordpress/0");
    expect(unit.agentStatus).toMatchObject({ current: "idle", hook: null });
    expect(unit.runs.map((r: any) => [r.hook, r.result])).toEqual([["install", "INTERRUPTED"]]);
  });

  it("refuses the whole call, changing nothing: a hook the charm ships, one it cannot have, a unit in error or Dead, no hooks, too many", async () => {
    const { model, db, a, l } = await scene();
    const before = await a.revision();
    const record = (code: string, input: Record<string, unknown>) =>
      api.refused(code, RECORD_MISSING_HOOKS, { input: { model, unit: "wordpress/0", ...input } });
    expect((await record("INVALID_ARGUMENT", { hooks: [...missing(db), { hook: "install" }] })).message).toMatch(
      /charm "wordpress" ships hook "install": run it/,
    );
    await record("INVALID_ARGUMENT", { hooks: [{ hook: "reboot" }] });
    await record("INVALID_ARGUMENT", { hooks: [{ hook: "update-status", relation: db }] });
    await record("INVALID_ARGUMENT", { hooks: [] });
    await record("INVALID_ARGUMENT", { hooks: Array.from({ length: MAX_MISSING_HOOKS + 1 }, () => ({ hook: "update-status" })) });
    await record("NOT_FOUND", { unit: "wordpress/9", hooks: missing(db) });
    expect(await a.revision()).toBe(before);
    expect((await a.unit("wordpress/0")).runs).toEqual([]);

    await a.run("wordpress/0", "install", "FAILED");
    expect((await record("UNIT_IN_ERROR", { hooks: missing(db) })).extensions).toMatchObject({ hook: "install" });
    await l.setUnitDead("wordpress/1");
    await record("NOT_ALIVE", { unit: "wordpress/1", hooks: missing(db) });
  });
});

describe("recordUnitsMissingHooks (several unit agents' recordMissingHooks in one call)", () => {
  const ISSUE = `mutation ($input: AgentUnitsInput!) { issueUnitsCredentials(input: $input) { tag token } }`;
  const MEMBERS = `query ($model: String!, $id: Int!) { model(name: $model) { relation(id: $id) { unitCount members { unitName } } } }`;
  const bearer = (token: string) => `Bearer ${token}`;

  /** The scene, with each unit agent's token. */
  async function withTokens() {
    const s = await scene();
    const issued = (await api.ok(ISSUE, { input: { model: s.model, units: ["wordpress/0", "wordpress/1", "mysql/0"] } }))
      .issueUnitsCredentials;
    const token = Object.fromEntries(issued.map((c: { tag: string; token: string }) => [c.tag, c.token])) as Record<string, string>;
    return { ...s, token };
  }

  it("moves each unit past its hooks, in order, each unit checked against its own agent's token; each agent idle, its state saved", async () => {
    const { model, db, a, token } = await withTokens();
    const result = await api.requestAs(
      token["unit-wordpress-1"]!,
      RECORD_UNITS_MISSING_HOOKS,
      {
        input: {
          model,
          units: [
            { unit: "wordpress/1", hooks: [{ hook: "update-status" }, { hook: "leader-elected" }], state: { at: "w1" } },
            { unit: "mysql/0", hooks: [{ hook: "db-relation-changed", relation: db, remoteUnit: "wordpress/0" }], state: { at: "m0" } },
          ],
        },
      },
      { authorizations: [bearer(token["unit-wordpress-1"]!), bearer(token["unit-mysql-0"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data!.recordUnitsMissingHooks.map((u: any) => [u.name, u.agentStatus.current])).toEqual([
      ["wordpress/1", "idle"],
      ["mysql/0", "idle"],
    ]);
    for (const [unit, at] of [
      ["wordpress/1", "w1"],
      ["mysql/0", "m0"],
    ] as const) {
      const view = await a.unit(unit);
      expect(view.agentStatus).toMatchObject({ current: "idle", hook: null });
      expect(view.agentState).toEqual({ at });
    }
    for (const unit of ["wordpress/0", "wordpress/1", "mysql/0"]) expect((await a.unit(unit)).runs).toEqual([]);
  });

  it("leaves each unit's scope of a -broken hook among them, taking each from the relation's count", async () => {
    const { model, peer, l } = await scene();
    // mysql ships no cluster-relation-broken.
    await api.ok(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
      input: { model, application: "mysql", count: 1 },
    });
    await l.enter(peer, "mysql/1", "10.0.0.3");
    const broken = { hook: "cluster-relation-broken", relation: peer };
    await api.ok(RECORD_UNITS_MISSING_HOOKS, {
      input: {
        model,
        units: [
          { unit: "mysql/1", hooks: [broken] },
          { unit: "mysql/0", hooks: [broken] },
        ],
      },
    });
    expect((await api.ok(MEMBERS, { model, id: peer })).model.relation).toEqual({ unitCount: 0, members: [] });
  });

  it("seed 001: the last of its units to leave a Dying relation removes it, when they leave in one call", async () => {
    const { model, l } = await scene();
    // Neither side ships its -broken hook: wordpress's website-relation-broken, haproxy's reverseproxy-relation-broken.
    await deploy(api, model, { charm: "haproxy", numUnits: 2 });
    const proxy = (await integrate(api, model, "wordpress:website", "haproxy:reverseproxy")).id as number;
    for (const unit of ["wordpress/0", "haproxy/0", "haproxy/1"]) await l.enter(proxy, unit, "10.0.0.5");
    await api.ok(`mutation ($input: RemoveRelationInput!) { removeRelation(input: $input) { outcome } }`, {
      input: { model, relations: [String(proxy)] },
    });
    expect((await api.ok(MEMBERS, { model, id: proxy })).model.relation.unitCount).toBe(3);
    await api.ok(RECORD_UNITS_MISSING_HOOKS, {
      input: {
        model,
        units: [
          { unit: "haproxy/1", hooks: [{ hook: "reverseproxy-relation-broken", relation: proxy }] },
          { unit: "wordpress/0", hooks: [{ hook: "website-relation-broken", relation: proxy }] },
          { unit: "haproxy/0", hooks: [{ hook: "reverseproxy-relation-broken", relation: proxy }] },
        ],
      },
    });
    expect(await api.refused("NOT_FOUND", MEMBERS, { model, id: proxy })).toBeDefined();
  });

  it("is FORBIDDEN, recording nothing, when one unit is not its item's agent's", async () => {
    const { model, a, token } = await withTokens();
    const before = await a.revision();
    const result = await api.requestAs(
      token["unit-wordpress-0"]!,
      RECORD_UNITS_MISSING_HOOKS,
      {
        input: {
          model,
          units: [
            { unit: "wordpress/0", hooks: [{ hook: "update-status" }] },
            { unit: "wordpress/1", hooks: [{ hook: "update-status" }] },
          ],
        },
      },
      { authorizations: [bearer(token["unit-wordpress-0"]!), bearer(token["unit-wordpress-0"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await a.revision()).toBe(before);
  });

  it("refuses the whole call, changing nothing, at the first refusal in the units' order", async () => {
    const { model, a, l } = await withTokens();
    const before = await a.revision();
    const record = (code: string, units: unknown[]) => api.refused(code, RECORD_UNITS_MISSING_HOOKS, { input: { model, units } });
    const fine = { unit: "wordpress/0", hooks: [{ hook: "update-status" }] };
    expect((await record("INVALID_ARGUMENT", [fine, { unit: "wordpress/1", hooks: [{ hook: "install" }] }])).message).toMatch(
      /ships hook "install"/,
    );
    await record("INVALID_ARGUMENT", [fine, { unit: "wordpress/1", hooks: [] }]);
    await record("INVALID_ARGUMENT", [fine, fine]);
    await record("INVALID_ARGUMENT", []);
    // Each unit within its own bound, all of them past the call's (checked before any unit is looked up).
    const many = Array.from({ length: MAX_MISSING_HOOKS }, () => ({ hook: "update-status" }));
    const units = Array.from({ length: MAX_MISSING_HOOKS_OF_UNITS / MAX_MISSING_HOOKS + 1 }, (_, i) => ({
      unit: `wordpress/${i}`,
      hooks: many,
    }));
    expect((await record("INVALID_ARGUMENT", units)).extensions).toMatchObject({ max: MAX_MISSING_HOOKS_OF_UNITS });
    await record("NOT_FOUND", [fine, { unit: "wordpress/9", hooks: [{ hook: "update-status" }] }]);
    expect(await a.revision()).toBe(before);
    await l.setUnitDead("wordpress/1");
    await record("NOT_ALIVE", [fine, { unit: "wordpress/1", hooks: [{ hook: "update-status" }] }]);
    expect((await a.unit("wordpress/0")).runs).toEqual([]);
  });
});

describe("commitHook", () => {
  it("SUCCEEDED ends the run and makes the agent idle", async () => {
    const { a } = await scene();
    const run = await a.run("wordpress/0", "install", "SUCCEEDED", { commit: { message: "ok" } });
    expect(run).toMatchObject({ hook: "install", result: "SUCCEEDED", message: "ok" });
    expect(Date.parse(run.endedAt)).toBeGreaterThanOrEqual(Date.parse(run.startedAt));
    expect((await a.unit("wordpress/0")).agentStatus).toMatchObject({ current: "idle", message: "", hook: null, relation: null });
  });

  it("commits the hook's relation-set writes together: one new version per relation written", async () => {
    const { db, peer, a } = await scene();
    const before = { db: await a.settings(db, "mysql/0"), peer: await a.settings(peer, "mysql/0") };
    await a.run("mysql/0", "db-relation-joined", "SUCCEEDED", {
      begin: { relation: db, remoteUnit: "wordpress/0" },
      commit: {
        settings: [
          {
            relation: db,
            set: [
              { key: "database", value: "wp" },
              { key: "user", value: "wp-user" },
            ],
          },
          { relation: peer, set: [{ key: "role", value: "primary" }], unset: ["ingress-address"] },
        ],
      },
    });
    expect(await a.settings(db, "mysql/0")).toEqual({
      version: before.db.version + 1,
      values: { ...before.db.values, database: "wp", user: "wp-user" },
    });
    const { "ingress-address": _gone, ...kept } = before.peer.values;
    expect(await a.settings(peer, "mysql/0")).toEqual({ version: before.peer.version + 1, values: { ...kept, role: "primary" } });
  });

  it("an empty value deletes the key, as relation-set's does", async () => {
    const { db, a } = await scene();
    await a.run("mysql/0", "db-relation-changed", "SUCCEEDED", {
      begin: { relation: db, remoteUnit: "wordpress/0" },
      commit: { settings: [{ relation: db, set: [{ key: "ingress-address", value: "" }] }] },
    });
    expect(Object.keys((await a.settings(db, "mysql/0")).values)).toEqual(["private-address"]);
  });

  it('a write that changes nothing bumps no version (seed 002: "a null setting change can be safely ignored")', async () => {
    const { model, db, a } = await scene();
    const before = await a.settings(db, "mysql/0");
    const revision = await a.revision();
    await a.run("mysql/0", "db-relation-changed", "SUCCEEDED", {
      begin: { relation: db, remoteUnit: "wordpress/0" },
      commit: {
        settings: [{ relation: db, set: [{ key: "private-address", value: before.values["private-address"] }], unset: ["never-set"] }],
      },
    });
    expect(await a.settings(db, "mysql/0")).toEqual(before);
    // Begin and commit wrote the run and the agent's status; no settings row, so no counterpart reacts.
    expect(await kindsSince(model, revision)).toEqual(["hook", "unit", "hook", "unit"]);
  });

  it("FAILED ends the run failed and puts the agent in error with Juju's message, the relation and the remote unit", async () => {
    const { db, a } = await scene();
    const before = await a.settings(db, "wordpress/0");
    const run = await a.run("wordpress/0", "db-relation-changed", "FAILED", {
      begin: { relation: db, remoteUnit: "mysql/0" },
      commit: { message: "exit status 1" },
    });
    expect(run).toMatchObject({ result: "FAILED", message: "exit status 1" });
    expect((await a.unit("wordpress/0")).agentStatus).toMatchObject({
      current: "error",
      message: 'hook failed: "db-relation-changed"',
      hook: "db-relation-changed",
      relation: db,
      remoteUnit: "mysql/0",
    });
    expect(await a.settings(db, "wordpress/0")).toEqual(before);
  });

  it("a repeated commit with the run's result returns the run and changes nothing (a retry after a lost response)", async () => {
    const { db, a } = await scene();
    const run = await a.begin("wordpress/0", "db-relation-changed", { relation: db, remoteUnit: "mysql/0" });
    const settings = [{ relation: db, set: [{ key: "n", value: "1" }] }];
    const committed = await a.commit("wordpress/0", run.id, "SUCCEEDED", { settings });
    const revision = await a.revision();
    const settingsBefore = await a.settings(db, "wordpress/0");
    expect(await a.commit("wordpress/0", run.id, "SUCCEEDED", { settings: [{ relation: db, set: [{ key: "n", value: "2" }] }] })).toEqual(
      committed,
    );
    expect(await a.revision()).toBe(revision);
    expect(await a.settings(db, "wordpress/0")).toEqual(settingsBefore);
  });

  it("refuses, changing nothing: unknown runs, another unit's run, a run ended otherwise, settings outside the scope or without success", async () => {
    const { model, db, peer, a } = await scene();
    const run = await a.begin("wordpress/0", "db-relation-changed", { relation: db, remoteUnit: "mysql/0" });
    const other = await a.begin("mysql/0", "install");
    const ended = await a.run("wordpress/1", "install", "SUCCEEDED");
    const before = { revision: await a.revision(), settings: await a.settings(db, "wordpress/0") };
    const commit = (code: string, input: Record<string, unknown>) =>
      api.refused(code, COMMIT_HOOK, { input: { model, unit: "wordpress/0", run: run.id, result: "SUCCEEDED", ...input } });
    await commit("NOT_FOUND", { run: "999999999" });
    await commit("INVALID_ID", { run: "run-1" });
    expect((await commit("NOT_FOUND", { run: other.id })).message).toMatch(`hook run ${other.id} of unit wordpress/0 not found`);
    await commit("HOOK_RUN_ENDED", { unit: "wordpress/1", run: ended.id, result: "FAILED" });
    expect((await commit("NOT_IN_SCOPE", { settings: [{ relation: peer, set: [{ key: "a", value: "b" }] }] })).message).toMatch(
      `not in the scope of relation ${peer}`,
    );
    // Together: a refused relation takes the other relation's writes with it.
    await commit("NOT_IN_SCOPE", {
      settings: [
        { relation: db, set: [{ key: "a", value: "b" }] },
        { relation: peer, set: [{ key: "a", value: "b" }] },
      ],
    });
    await commit("INVALID_ARGUMENT", { result: "FAILED", settings: [{ relation: db, set: [{ key: "a", value: "b" }] }] });
    await commit("INVALID_ARGUMENT", { settings: [{ relation: db, set: [{ key: "a=b", value: "c" }] }] });
    await commit("INVALID_ARGUMENT", { settings: [{ relation: db, set: [{ key: "a", value: "b" }], unset: ["a"] }] });
    await commit("INVALID_ARGUMENT", { settings: [{ relation: db }, { relation: db }] });
    await commit("INVALID_ARGUMENT", { settings: [{ relation: db, set: [{ key: "big", value: "x".repeat(64 * 1024 + 1) }] }] });
    await commit("INVALID_ARGUMENT", { state: { blob: "x".repeat(AGENT_STATE_LIMIT) } });
    expect(await a.revision()).toBe(before.revision);
    expect(await a.settings(db, "wordpress/0")).toEqual(before.settings);
    expect((await a.unit("wordpress/0")).runs[0]).toMatchObject({ id: run.id, result: "RUNNING" });
  });
});

describe("-relation-broken leaves the scope with its commit (Juju's relationer)", () => {
  const RELATION = `query ($model: String!, $relation: Int!, $unit: String!) { model(name: $model) {
    relation(id: $relation) { life unitCount }
    unit(name: $unit) { relationsInScope { id } }
  } }`;
  const scopeOf = async (model: string, relation: number, unit: string) => {
    const m = (await api.ok(RELATION, { model, relation, unit })).model;
    return { relation: m.relation, inScope: m.unit.relationsInScope.map((r: any) => r.id) };
  };

  it("a SUCCEEDED -broken leaves the relation's scope, in the commit's transaction", async () => {
    const { model, db, a } = await scene();
    await a.run("wordpress/0", "db-relation-broken", "SUCCEEDED", { begin: { relation: db } });
    expect(await scopeOf(model, db, "wordpress/0")).toEqual({ relation: { life: "ALIVE", unitCount: 1 }, inScope: [] });
  });

  it("a FAILED -broken stays in the scope: the hook runs again once resolved", async () => {
    const { model, db, a } = await scene();
    await a.run("wordpress/0", "db-relation-broken", "FAILED", { begin: { relation: db } });
    expect(await scopeOf(model, db, "wordpress/0")).toEqual({ relation: { life: "ALIVE", unitCount: 2 }, inScope: [db] });
  });

  it("a missing -broken recorded leaves its scope too", async () => {
    // mysql ships no cluster-relation-broken: its peer relation's -broken is missing.
    const { model, db, peer } = await scene();
    await api.ok(RECORD_MISSING_HOOKS, { input: { model, unit: "mysql/0", hooks: [{ hook: "cluster-relation-broken", relation: peer }] } });
    expect(await scopeOf(model, peer, "mysql/0")).toEqual({ relation: { life: "ALIVE", unitCount: 0 }, inScope: [db] });
  });

  it('the last member\'s -broken removes a Dying relation (seed 001: "When the last unit leaves the scope of a Dying relation, it must remove the relation")', async () => {
    const { model, db, a, l } = await scene();
    await l.removeRelation([String(db)]);
    await a.run("mysql/0", "db-relation-broken", "SUCCEEDED", { begin: { relation: db } });
    expect((await scopeOf(model, db, "wordpress/0")).relation).toEqual({ life: "DYING", unitCount: 1 });
    await a.run("wordpress/0", "db-relation-broken", "SUCCEEDED", { begin: { relation: db } });
    await api.refused("NOT_FOUND", RELATION, { model, relation: db, unit: "wordpress/0" });
  });

  it("an agent that left the scope before committing changes nothing more: the relation's count stays right", async () => {
    const { model, db, a, l } = await scene();
    await l.leave(db, "wordpress/0");
    await a.run("wordpress/0", "db-relation-broken", "SUCCEEDED", { begin: { relation: db } });
    expect(await scopeOf(model, db, "wordpress/0")).toEqual({ relation: { life: "ALIVE", unitCount: 1 }, inScope: [] });
  });
});

describe("the agent's state document", () => {
  it("round-trips through beginHook, commitHook and setUnitAgentState, and is null until saved", async () => {
    const { model, db, a } = await scene();
    expect((await a.unit("wordpress/0")).agentState).toBeNull();
    const state = (step: string) => ({
      step,
      relations: { [db]: { members: { "mysql/0": 2 }, changedPending: false } },
      installed: true,
      notes: "ünïcode ✓",
    });
    const run = await a.begin("wordpress/0", "install", { state: state("begun") });
    expect((await a.unit("wordpress/0")).agentState).toEqual(state("begun"));
    await a.commit("wordpress/0", run.id, "SUCCEEDED", { state: state("committed") });
    expect((await a.unit("wordpress/0")).agentState).toEqual(state("committed"));
    await a.commit("wordpress/0", run.id, "SUCCEEDED", { state: state("ignored: the commit was a repeat") });
    expect((await a.unit("wordpress/0")).agentState).toEqual(state("committed"));
    await api.ok(SET_AGENT_STATE, { input: { model, unit: "wordpress/0", state: state("entered scope") } });
    expect((await a.unit("wordpress/0")).agentState).toEqual(state("entered scope"));
    // A begin or commit without a state leaves it as it was.
    await a.run("wordpress/0", "start", "SUCCEEDED");
    expect((await a.unit("wordpress/0")).agentState).toEqual(state("entered scope"));
  });

  it(`is capped at ${AGENT_STATE_LIMIT} bytes of JSON`, async () => {
    const { model, a } = await scene();
    const fits = { blob: "x".repeat(AGENT_STATE_LIMIT - '{"blob":""}'.length) };
    await api.ok(SET_AGENT_STATE, { input: { model, unit: "wordpress/0", state: fits } });
    const error = await api.refused("INVALID_ARGUMENT", SET_AGENT_STATE, {
      input: { model, unit: "wordpress/0", state: { blob: `${fits.blob}y` } },
    });
    expect(error.message).toMatch(`at most ${AGENT_STATE_LIMIT} bytes`);
    expect((await a.unit("wordpress/0")).agentState).toEqual(fits);
  });

  it("nested more than 64 deep is INVALID_ARGUMENT, however deep (100,000 levels would overflow the stack that stores it)", async () => {
    const { model, a } = await scene();
    const before = (await a.unit("wordpress/0")).agentState;
    for (const depth of [65, 100_000]) {
      // JSON.stringify recurses too: the body is written by hand.
      const state = `${'{"d":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
      const body = `{"query":${JSON.stringify(SET_AGENT_STATE)},"variables":{"input":{"model":"${model}","unit":"wordpress/0","state":${state}}}}`;
      const result = await api.raw(body);
      expect(
        result.errors?.map((e) => e.extensions?.code),
        JSON.stringify(result).slice(0, 300),
      ).toEqual(["INVALID_ARGUMENT"]);
    }
    expect((await a.unit("wordpress/0")).agentState).toEqual(before);
  });
});

describe("reading hook runs", () => {
  it("Model.hookRuns pages newest first, of every unit or one", async () => {
    const { model, a } = await scene();
    const runs = [await a.run("wordpress/0", "install", "SUCCEEDED"), await a.run("mysql/0", "install", "SUCCEEDED")];
    runs.push(await a.run("wordpress/0", "start", "SUCCEEDED"));
    const PAGE = `query ($model: String!, $unit: String, $after: String) { model(name: $model) {
      hookRuns(first: 2, unit: $unit, after: $after) { edges { node { id hook unitName } } pageInfo { hasNextPage endCursor } } } }`;
    const first = (await api.ok(PAGE, { model })).model.hookRuns;
    expect(first.edges.map((e: any) => e.node.id)).toEqual([runs[2].id, runs[1].id]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await api.ok(PAGE, { model, after: first.pageInfo.endCursor })).model.hookRuns;
    expect(second.edges.map((e: any) => e.node.id)).toEqual([runs[0].id]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const own = (await api.ok(PAGE, { model, unit: "wordpress/0" })).model.hookRuns;
    expect(own.edges.map((e: any) => e.node.hook)).toEqual(["start", "install"]);
  });

  it("a unit's runs go with it", async () => {
    const { model, a, l } = await scene();
    await a.run("wordpress/1", "install", "SUCCEEDED");
    await l.removeUnit(["wordpress/1"], { force: true });
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { hookRuns(unit: "wordpress/1") { edges { node { id } } } } }`,
      {
        model,
      },
    );
    expect(data.model.hookRuns.edges).toEqual([]);
  });
});
