// What a unit agent's stream says (src/agents/uniter/remote-state.ts; Juju's
// remote-state watcher), over a real stream from a live server, with the unit's
// own credentials: its unit and its application, its application's relations,
// and in each relation whose scope it is in the counterpart units with their
// settings versions, in the resolver's terms (situation()).
import { afterEach, describe, expect, it } from "vitest";
import { AgentConnection } from "../src/agents/connection.js";
import { RemoteState } from "../src/agents/uniter/remote-state.js";
import { issueUnitCredentials } from "../src/model/index.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const DEADLINE = { timeout: scaled(15_000), interval: 50 };
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const mutate = (query: string, input: Record<string, unknown>) => live.ok(query, { input });
const deploy = (model: string, charm: string) =>
  mutate(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { model, charm });
const integrate = async (model: string, a: string, b: string) =>
  (await mutate(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, { model, endpoints: [a, b] })).integrate
    .id as number;
const enter = (model: string, relation: number, unit: string) =>
  mutate(`mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName } } }`, {
    model,
    relation,
    unit,
    privateAddress: "10.0.0.3",
  });
const removeRelation = (model: string, key: string, force = false) =>
  mutate(`mutation ($input: RemoveRelationInput!) { removeRelation(input: $input) { outcome } }`, { model, relations: [key], force });
const configVersion = async (model: string, application: string) =>
  (
    await live.ok(`query ($model: String!, $a: String!) { model(name: $model) { application(name: $a) { configVersion } } }`, {
      model,
      a: application,
    })
  ).model.application.configVersion as number;
const settingsVersion = async (model: string, relation: number, unit: string) =>
  (
    await live.ok(
      `query ($model: String!, $relation: Int!, $unit: String!) { model(name: $model) { relation(id: $relation) { settings(unit: $unit) { version } } } }`,
      { model, relation, unit },
    )
  ).model.relation.settings.version as number;

/** A unit's remote state, watching its stream with its own credentials, once it has sent its first state. */
async function remoteOf(model: string, unit: string) {
  const { token } = await issueUnitCredentials(live.store.db, { model, unit });
  const api = new AgentConnection(live.url);
  let changes = 0;
  const remote = new RemoteState(api, { model, unit, token }, () => changes++);
  const failures: Error[] = [];
  remote.watch((error) => failures.push(error));
  cleanup.push(
    () => api.close(),
    () => remote.stop(),
  );
  await expect.poll(() => remote.synced, DEADLINE).toBe(true);
  return { remote, changes: () => changes, failures };
}

/** wordpress and mysql, related by their db endpoints. */
async function scene() {
  const { name: model } = await live.newModel();
  await deploy(model, "wordpress");
  await deploy(model, "mysql");
  const db = await integrate(model, "wordpress", "mysql");
  return { model, db };
}

describe("a unit's remote state", { timeout: scaled(60_000) }, () => {
  it("its unit, and its application's relations and config version, once its stream has sent its state", async () => {
    const { model, db } = await scene();
    const { remote, failures } = await remoteOf(model, "wordpress/0");
    expect([remote.unit?.entity, remote.unit?.life, remote.principal()]).toEqual(["wordpress/0", "ALIVE", null]);
    expect(remote.applicationRelations.map((r) => [r.entity, r.life])).toEqual([[String(db), "ALIVE"]]);
    expect([...remote.endpointsOf(db)].sort((a, b) => a.applicationName.localeCompare(b.applicationName))).toEqual([
      { applicationName: "mysql", name: "db" },
      { applicationName: "wordpress", name: "db" },
    ]);
    // In no scope yet: the resolver sees no relation.
    expect(remote.situation("ALIVE")).toEqual({ unitLife: "ALIVE", configVersion: await configVersion(model, "wordpress"), relations: {} });
    await mutate(`mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`, {
      model,
      application: "wordpress",
      values: [{ key: "fail-hook", value: "start" }],
    });
    const moved = await configVersion(model, "wordpress");
    await expect.poll(() => remote.situation("ALIVE").configVersion, DEADLINE).toBe(moved);
    expect(failures).toEqual([]);
  });

  it("in each scope it is in: the counterpart units in scope with their settings versions, never itself; then the relation's life", async () => {
    const { model, db } = await scene();
    await enter(model, db, "wordpress/0");
    await enter(model, db, "mysql/0");
    const { remote, changes } = await remoteOf(model, "wordpress/0");
    remote.setInScope([String(db)]);
    const version = await settingsVersion(model, db, "mysql/0");
    // Read with the rest of the stream's first state: nothing more to wait for.
    expect(remote.situation("ALIVE").relations).toEqual({ [db]: { life: "ALIVE", peer: false, remote: { "mysql/0": version } } });
    const before = changes();
    await removeRelation(model, "wordpress:db mysql:db"); // units in scope: Dying
    await expect.poll(() => remote.situation("ALIVE").relations[db]?.life, DEADLINE).toBe("DYING");
    expect(changes()).toBeGreaterThan(before);
    remote.setInScope([]);
    expect(remote.situation("ALIVE").relations).toEqual({});
  });

  it("knows a relation's members before it enters the relation's scope, and those of a relation made after its stream opened", async () => {
    const { model, db } = await scene();
    await deploy(model, "logging");
    const { remote, changes } = await remoteOf(model, "wordpress/0");
    await enter(model, db, "mysql/0");
    const info = await integrate(model, "logging", "wordpress"); // container-scoped: logging/0 beside wordpress/0
    await enter(model, info, "wordpress/0");
    await enter(model, info, "logging/0");
    await expect.poll(() => changes(), DEADLINE).toBeGreaterThan(0);
    // Not in db's scope, and not told it is in info's: the resolver hears of neither yet.
    expect(remote.situation("ALIVE").relations).toEqual({});
    remote.setInScope([String(db), String(info)]);
    await expect
      .poll(() => remote.situation("ALIVE").relations, DEADLINE)
      .toEqual({
        [db]: { life: "ALIVE", peer: false, remote: { "mysql/0": await settingsVersion(model, db, "mysql/0") } },
        [info]: { life: "ALIVE", peer: false, remote: { "logging/0": await settingsVersion(model, info, "logging/0") } },
      });
  });

  it("a relation removed under it counts as gone: the resolver sees no relation", async () => {
    const { model, db } = await scene();
    await enter(model, db, "wordpress/0");
    const { remote } = await remoteOf(model, "wordpress/0");
    remote.setInScope([String(db)]);
    expect(remote.situation("ALIVE").relations).toEqual({ [db]: { life: "ALIVE", peer: false, remote: {} } });
    await removeRelation(model, "wordpress:db mysql:db", true);
    await expect.poll(() => remote.situation("ALIVE").relations, DEADLINE).toEqual({});
    expect(remote.relation(db)).toBeUndefined();
  });

  it("a subordinate's principal, from its unit's row", async () => {
    const { name: model } = await live.newModel();
    await deploy(model, "wordpress");
    await deploy(model, "logging");
    const info = await integrate(model, "logging", "wordpress");
    await enter(model, info, "wordpress/0"); // creates logging/0
    const { remote } = await remoteOf(model, "logging/0");
    expect(remote.principal()).toBe("wordpress/0");
  });
});
