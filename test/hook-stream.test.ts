// Hook runs on the change streams (docs/streams.md): `changes(kinds: [HOOK])`
// starts from each unit's latest run, then carries every begin and commit; a
// unit agent's unitLife stream carries its agent status and resolved mode.
import { describe, expect, it } from "vitest";
import { CHANGES, EVENT_FIELDS, type StreamEvent, subscribe, useLiveServer } from "./support/streams.js";

const live = useLiveServer({ bookmarkIntervalMs: 200 });

const DEPLOY = `mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", numUnits: 2 }) { name } }`;
const BEGIN = `mutation ($input: BeginHookInput!) { beginHook(input: $input) { id } }`;
const COMMIT = `mutation ($input: CommitHookInput!) { commitHook(input: $input) { id } }`;
const REMOVE_UNIT = `mutation ($model: String!, $unit: String!) { removeUnit(input: { model: $model, units: [$unit], force: true }) { outcome } }`;
const LOG = `mutation ($input: LogHookInput!) { logHook(input: $input) }`;
const RESOLVE = `mutation ($model: String!, $unit: String!) { resolveUnit(input: { model: $model, unit: $unit }) { name } }`;

async function scene() {
  const { name: model } = await live.newModel();
  await live.ok(DEPLOY, { model });
  const begin = async (unit: string, hook: string, resolved?: string) =>
    (await live.ok(BEGIN, { input: { model, unit, hook, resolved } })).beginHook.id as string;
  const commit = (unit: string, run: string, result: string) => live.ok(COMMIT, { input: { model, unit, run, result } });
  return { model, begin, commit };
}

const brief = (e: StreamEvent) => (e.removed ? `${e.type} ${e.entity} removed` : `${e.type} ${e.entity} ${e.hook!.hook} ${e.hook!.result}`);

describe("the HOOK stream", () => {
  it("starts from each unit's latest run, then carries every begin and commit, and a unit's removal", async () => {
    const { model, begin, commit } = await scene();
    await commit("wordpress/0", await begin("wordpress/0", "install"), "SUCCEEDED");
    const start = await begin("wordpress/0", "start");
    await commit("wordpress/1", await begin("wordpress/1", "install"), "FAILED");

    const s = subscribe(live.url, CHANGES, { model, kinds: ["HOOK"] });
    await s.synced();
    const snapshot = s.events.filter((e) => e.type === "STATE");
    expect(snapshot.map(brief)).toEqual(["STATE wordpress/0 start RUNNING", "STATE wordpress/1 install FAILED"]);
    expect(snapshot[0]!.hook).toMatchObject({
      unitName: "wordpress/0",
      applicationName: "wordpress",
      id: start,
      hook: "start",
      relation: null,
      remoteUnit: null,
      result: "RUNNING",
      message: "",
      endedAt: null,
    });
    expect(Date.parse(snapshot[0]!.hook!.startedAt)).not.toBeNaN();

    await commit("wordpress/0", start, "SUCCEEDED");
    await commit("wordpress/0", await begin("wordpress/0", "config-changed"), "SUCCEEDED");
    await live.ok(REMOVE_UNIT, { model, unit: "wordpress/1" });
    await s.until((x) => x.changes.some((e) => e.removed));
    expect(s.changes.map(brief)).toEqual([
      "CHANGE wordpress/0 start SUCCEEDED",
      "CHANGE wordpress/0 config-changed RUNNING",
      "CHANGE wordpress/0 config-changed SUCCEEDED",
      "CHANGE wordpress/1 removed",
    ]);
    expect(s.changes[0]!.hook!.id).toBe(start);
    // A removal gives the identifying fields only.
    expect(s.changes.at(-1)!.changed).toEqual(["unitName", "applicationName"]);
    expect(s.changes.at(-1)!.hook).toMatchObject({ unitName: "wordpress/1", applicationName: "wordpress", hook: null, result: null });
  });

  it("carries a hook's juju-log lines as they are kept: a HOOK event with the run and the line just logged", async () => {
    const { model, begin, commit } = await scene();
    const run = await begin("wordpress/0", "install");
    const s = subscribe(live.url, CHANGES, { model, kinds: ["HOOK"] });
    await s.synced();
    for (const message of ["installing", "nearly there"])
      await live.ok(LOG, { input: { model, unit: "wordpress/0", run, level: "INFO", message } });
    await commit("wordpress/0", run, "SUCCEEDED");
    await s.until((x) => x.changes.some((e) => e.hook?.result === "SUCCEEDED"));
    expect(s.changes.map((e) => [e.hook!.id, e.hook!.result, e.hook!.logged?.map((l: any) => `${l.level} ${l.message}`) ?? null])).toEqual([
      [run, null, ["INFO installing"]],
      [run, null, ["INFO nearly there"]],
      [run, "SUCCEEDED", null],
    ]);
    // A line's event is the run's id and the line: no result, so a reader counting runs by result counts no line.
    expect(s.changes[0]!.changed).toEqual(["unitName", "applicationName", "id", "logged"]);
    expect(s.changes[2]!.changed).not.toContain("logged");
  });

  it("a unit agent's unitLife stream carries its status, the failed hook and the resolved mode", async () => {
    const { model, begin, commit } = await scene();
    const run = await begin("wordpress/0", "install");
    const s = subscribe(
      live.url,
      `subscription ($model: String!, $unit: String!) { unitLife(model: $model, unit: $unit) { ${EVENT_FIELDS} } }`,
      {
        model,
        unit: "wordpress/0",
      },
    );
    await s.synced();
    expect(s.events.find((e) => e.type === "STATE" && e.kind === "UNIT")!.unit).toMatchObject({
      agentStatus: { current: "executing", message: "running install hook", hook: "install" },
      resolved: null,
    });
    await commit("wordpress/0", run, "FAILED");
    await live.ok(RESOLVE, { model, unit: "wordpress/0" });
    await s.until((x) => x.changes.some((e) => e.unit?.resolved === "RETRY_HOOK"));
    const failed = { current: "error", message: 'hook failed: "install"', hook: "install", relation: null, remoteUnit: null };
    const units = s.changes.filter((e) => e.kind === "UNIT");
    // A row of the agent carries the whole agent: status, resolved mode, lost mark.
    for (const e of units) expect(e.changed).toEqual(["name", "applicationName", "agentStatus", "resolved", "agentLostSince"]);
    expect(units.map((e) => e.unit)).toMatchObject([
      { applicationName: "wordpress", agentStatus: failed, resolved: null, agentLostSince: null },
      { applicationName: "wordpress", agentStatus: failed, resolved: "RETRY_HOOK", agentLostSince: null },
    ]);
  });

  it("a unitLife stream opened once the resolution's run has begun does not bring the resolution back: the begin took it", async () => {
    const { model, begin, commit } = await scene();
    await commit("wordpress/0", await begin("wordpress/0", "install"), "FAILED");
    await live.ok(RESOLVE, { model, unit: "wordpress/0" });
    await begin("wordpress/0", "install", "RETRY_HOOK");
    const s = subscribe(
      live.url,
      `subscription ($model: String!, $unit: String!) { unitLife(model: $model, unit: $unit) { ${EVENT_FIELDS} } }`,
      { model, unit: "wordpress/0" },
    );
    await s.synced();
    expect(s.events.find((e) => e.type === "STATE" && e.kind === "UNIT")!.unit).toMatchObject({
      agentStatus: { current: "executing" },
      resolved: null,
    });
  });
});
