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
const RESOLVE = `mutation ($model: String!, $unit: String!) { resolveUnit(input: { model: $model, unit: $unit }) { name } }`;

async function scene() {
  const { name: model } = await live.newModel();
  await live.ok(DEPLOY, { model });
  const begin = async (unit: string, hook: string, resolved?: string) =>
    (await live.ok(BEGIN, { input: { model, unit, hook, resolved } })).beginHook.id as string;
  const commit = (unit: string, run: string, result: string) => live.ok(COMMIT, { input: { model, unit, run, result } });
  return { model, begin, commit };
}

const brief = (e: StreamEvent) =>
  e.removed ? `${e.type} ${e.entity} removed` : `${e.type} ${e.entity} ${e.fields.hook} ${e.fields.result}`;

describe("the HOOK stream", () => {
  it("starts from each unit's latest run, then carries every begin and commit, and a unit's removal", async () => {
    const { model, begin, commit } = await scene();
    await commit("wordpress/0", await begin("wordpress/0", "install"), "SUCCEEDED");
    const start = await begin("wordpress/0", "start");
    await commit("wordpress/1", await begin("wordpress/1", "install"), "FAILED");

    const s = subscribe(live.url, CHANGES, { model, kinds: ["HOOK"] });
    await s.synced();
    const snapshot = s.events.filter((e) => e.type === "STATE");
    expect(snapshot.map(brief)).toEqual(["STATE wordpress/0 start running", "STATE wordpress/1 install failed"]);
    expect(snapshot[0]!.fields).toMatchObject({
      unit: "wordpress/0",
      application: "wordpress",
      run: start,
      hook: "start",
      relationId: null,
      remoteUnit: null,
      result: "running",
      message: "",
      endedAt: null,
    });
    expect(Date.parse(snapshot[0]!.fields.startedAt)).not.toBeNaN();

    await commit("wordpress/0", start, "SUCCEEDED");
    await commit("wordpress/0", await begin("wordpress/0", "config-changed"), "SUCCEEDED");
    await live.ok(REMOVE_UNIT, { model, unit: "wordpress/1" });
    await s.until((x) => x.changes.some((e) => e.removed));
    expect(s.changes.map(brief)).toEqual([
      "CHANGE wordpress/0 start succeeded",
      "CHANGE wordpress/0 config-changed running",
      "CHANGE wordpress/0 config-changed succeeded",
      "CHANGE wordpress/1 removed",
    ]);
    expect(s.changes[0]!.fields.run).toBe(start);
    expect(s.changes.at(-1)!.fields).toEqual({ unit: "wordpress/1", application: "wordpress" });
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
    expect(s.events.find((e) => e.type === "STATE" && e.kind === "UNIT")!.fields).toMatchObject({
      agentStatus: "executing",
      agentMessage: "running install hook",
      agentStatusData: { hook: "install" },
      resolved: null,
    });
    await commit("wordpress/0", run, "FAILED");
    await live.ok(RESOLVE, { model, unit: "wordpress/0" });
    await s.until((x) => x.changes.some((e) => e.fields.resolved === "retry-hook"));
    expect(s.changes.filter((e) => e.kind === "UNIT").map((e) => e.fields)).toEqual([
      {
        application: "wordpress",
        agentStatus: "error",
        agentMessage: 'hook failed: "install"',
        agentStatusData: { hook: "install" },
        resolved: null,
        agentLostSince: null,
      },
      {
        application: "wordpress",
        agentStatus: "error",
        agentMessage: 'hook failed: "install"',
        agentStatusData: { hook: "install" },
        resolved: "retry-hook",
        agentLostSince: null,
      },
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
    expect(s.events.find((e) => e.type === "STATE" && e.kind === "UNIT")!.fields).toMatchObject({
      agentStatus: "executing",
      resolved: null,
    });
  });
});
