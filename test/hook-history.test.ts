// Hook history that outlives the unit (issue 35): a removed unit's hook runs and
// their juju-log lines stay, queryable by model and unit or application name
// (Juju's show-status-log, debug-log --replay), bounded by count per unit name and by age.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { HOOK_LOG_LINE_LIMIT, HOOK_LOG_LINES_KEPT, pruneHookHistory } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { deploy } from "./support/fixtures.js";
import { agent } from "./support/hooks.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const HISTORY = `query ($model: String!, $unit: String, $application: String, $order: HookHistoryOrder!, $first: Int, $after: String) {
  model(name: $model) { hookHistory(unit: $unit, application: $application, order: $order, first: $first, after: $after) {
    edges { node { id unitName unitRemovedAt unit { name } hook result message
      log { level message loggedAt } logLinesDropped } }
    pageInfo { hasNextPage endCursor } } } }`;
const LOG = `mutation ($input: LogHookInput!) { logHook(input: $input) }`;

async function history(model: string, of: { unit?: string; application?: string; order?: string; first?: number; after?: string } = {}) {
  const data = await api.ok(HISTORY, { model, order: "NEWEST_FIRST", ...of });
  return data.model.hookHistory;
}
const nodes = (page: any) => page.edges.map((e: any) => e.node);
const brief = (page: any) => nodes(page).map((r: any) => `${r.unitName} ${r.hook} ${r.result}`);

async function scene() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: 2 });
  await deploy(api, model, { charm: "mysql" });
  const a = agent(api, model);
  const log = (unit: string, run: string, level: string, message: string) =>
    api.ok(LOG, { input: { model, unit, run, level, message } }).then((d) => d.logHook as boolean);
  return { model, a, l: lifecycle(api, model), log };
}

describe("hook history outlives the unit", () => {
  it("keeps a removed unit's runs and their juju-log lines, by unit name: its unit is null, its removal's time is set", async () => {
    const { model, a, l, log } = await scene();
    const install = await a.begin("wordpress/1", "install");
    await log("wordpress/1", install.id, "ERROR", "install fails on purpose");
    await a.commit("wordpress/1", install.id, "FAILED", { message: "exit status 1" });
    await a.run("wordpress/0", "install", "SUCCEEDED");
    await l.removeUnit(["wordpress/1"], { force: true });

    const kept = await history(model, { unit: "wordpress/1" });
    expect(brief(kept)).toEqual(["wordpress/1 install FAILED"]);
    expect(nodes(kept)[0]).toMatchObject({ unit: null, message: "exit status 1" });
    expect(nodes(kept)[0].unitRemovedAt).not.toBeNull();
    expect(nodes(kept)[0].log).toMatchObject([{ level: "ERROR", message: "install fails on purpose" }]);
    // The living unit's runs are history too, with their unit.
    const living = nodes(await history(model, { unit: "wordpress/0" }));
    expect(living).toMatchObject([{ hook: "install", unit: { name: "wordpress/0" }, unitRemovedAt: null }]);
  });

  it("keeps every unit's runs after removeApplication, by application name; a run left running ends INTERRUPTED", async () => {
    const { model, a, l } = await scene();
    await a.run("wordpress/0", "install", "SUCCEEDED");
    await a.run("wordpress/1", "install", "SUCCEEDED");
    await a.begin("wordpress/0", "start");
    await a.run("mysql/0", "install", "SUCCEEDED");
    await l.removeApplication(["wordpress"], { force: true });
    // Its units are removed with it (force): then every run is retired.
    await expect
      .poll(async () => nodes(await history(model, { application: "wordpress" })).map((r: any) => r.unitRemovedAt !== null))
      .toEqual([true, true, true]);

    const kept = await history(model, { application: "wordpress" });
    expect(brief(kept)).toEqual(["wordpress/0 start INTERRUPTED", "wordpress/1 install SUCCEEDED", "wordpress/0 install SUCCEEDED"]);
    expect(nodes(kept)[0].message).toMatch(/its unit was removed/);
    expect(nodes(kept).every((r: any) => r.unitRemovedAt !== null && r.unit === null)).toBe(true);
    // The live views show living units only, as before.
    const live = await api.ok(`query ($model: String!) { model(name: $model) { hookRuns { edges { node { unitName } } } } }`, { model });
    expect(live.model.hookRuns.edges.map((e: any) => e.node.unitName)).toEqual(["mysql/0"]);
  });

  it("pages newest first (show-status-log) or oldest first (debug-log --replay)", async () => {
    const { model, a } = await scene();
    const runs: string[] = [];
    for (const hook of ["install", "config-changed", "start"]) runs.push((await a.run("wordpress/0", hook, "SUCCEEDED")).id);
    const newest = await history(model, { unit: "wordpress/0", first: 2 });
    expect(nodes(newest).map((r: any) => r.id)).toEqual([runs[2], runs[1]]);
    const older = await history(model, { unit: "wordpress/0", first: 2, after: newest.pageInfo.endCursor });
    expect(nodes(older).map((r: any) => r.id)).toEqual([runs[0]]);
    const oldest = await history(model, { unit: "wordpress/0", first: 2, order: "OLDEST_FIRST" });
    expect(nodes(oldest).map((r: any) => r.id)).toEqual([runs[0], runs[1]]);
    expect(oldest.pageInfo.hasNextPage).toBe(true);
    const newer = await history(model, { unit: "wordpress/0", order: "OLDEST_FIRST", after: oldest.pageInfo.endCursor });
    expect(nodes(newer).map((r: any) => r.id)).toEqual([runs[2]]);
  });
});

describe("juju-log lines", () => {
  it("are kept with their run in order, each cut at the line limit; past the run's bound they are counted, not kept", async () => {
    const { model, a, log } = await scene();
    const run = await a.begin("wordpress/0", "install");
    expect(await log("wordpress/0", run.id, "INFO", "x".repeat(HOOK_LOG_LINE_LIMIT + 10))).toBe(true);
    for (let i = 1; i < HOOK_LOG_LINES_KEPT; i++) await log("wordpress/0", run.id, "DEBUG", `line ${i}`);
    expect(await log("wordpress/0", run.id, "WARNING", "one too many")).toBe(false);
    const [kept] = nodes(await history(model, { unit: "wordpress/0" }));
    expect(kept.log).toHaveLength(HOOK_LOG_LINES_KEPT);
    expect(kept.log[0]).toMatchObject({ level: "INFO", message: "x".repeat(HOOK_LOG_LINE_LIMIT) });
    expect(kept.log.at(-1)).toMatchObject({ level: "DEBUG", message: `line ${HOOK_LOG_LINES_KEPT - 1}` });
    expect(kept.logLinesDropped).toBe(1);
  });

  it("go only to a running run of the unit: HOOK_RUN_ENDED once committed, NOT_FOUND for another unit's", async () => {
    const { model, a } = await scene();
    const run = await a.run("wordpress/0", "install", "SUCCEEDED");
    const input = { model, unit: "wordpress/0", run: run.id, level: "INFO", message: "late" };
    await api.refused("HOOK_RUN_ENDED", LOG, { input });
    await api.refused("NOT_FOUND", LOG, { input: { ...input, unit: "wordpress/1" } });
  });
});

describe("the bounds", () => {
  it("prunes ended runs older than the days, in batches, with their lines; never a running run nor a living unit's latest", async () => {
    const { model, a, l, log } = await scene();
    const old = await a.begin("wordpress/1", "install");
    await log("wordpress/1", old.id, "INFO", "old");
    await a.commit("wordpress/1", old.id, "SUCCEEDED");
    await a.run("wordpress/1", "start", "SUCCEEDED");
    await l.removeUnit(["wordpress/1"], { force: true });
    await a.run("wordpress/0", "install", "SUCCEEDED");
    await a.run("wordpress/0", "start", "SUCCEEDED");
    await a.run("mysql/0", "install", "SUCCEEDED");
    const running = await a.begin("mysql/0", "start");
    // Everything began 8 days ago, but for wordpress/0's latest.
    const latest = nodes(await history(model, { unit: "wordpress/0", first: 1 }))[0].id;
    await api.store.db.execute(
      sql`update hook_runs set started_at = started_at - interval '8 days' where model_id = (select id from models where name = ${model}) and id <> ${Number(latest)}`,
    );

    expect(await pruneHookHistory(api.store.db, { days: 7, batch: 1 })).toBe(4);
    expect(brief(await history(model))).toEqual(["mysql/0 start RUNNING", "wordpress/0 start SUCCEEDED"]);
    expect(nodes(await history(model, { unit: "mysql/0" }))[0].id).toBe(running.id);
    const lines = await api.store.db.execute(sql`select 1 from hook_log where run_id = ${Number(old.id)}`);
    expect(rowsOf(lines)).toHaveLength(0);
    // Younger than the bound: kept.
    expect(await pruneHookHistory(api.store.db, { days: 9, batch: 10 })).toBe(0);
  });
});
