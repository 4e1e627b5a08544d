// Removals' dry runs (issue 35): the same operation, rolled back. A dry run answers what the real call then does (its
// outcomes, and the change rows it records), keeps nothing (revision, lives, rows, streams), and is refused as the
// real call is.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { CHANGES, subscribe, useLiveServer } from "./support/streams.js";

const live = useLiveServer();

const RESULT = "id outcome dryRun effects { kind entity life removed cleanup } blockers { kind message entities }";
const REMOVE = {
  unit: `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { ${RESULT} } }`,
  machine: `mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { ${RESULT} } }`,
  application: `mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { ${RESULT} } }`,
  relation: `mutation ($input: RemoveRelationInput!) { removeRelation(input: $input) { ${RESULT} } }`,
};
type Kind = keyof typeof REMOVE;
const TARGETS: Record<Kind, string> = { unit: "units", machine: "machines", application: "applications", relation: "relations" };

interface Effect {
  kind: string;
  entity: string;
  life: string | null;
  removed: boolean;
  cleanup: string | null;
}

/** A removal through the API: its results, or its error's code. */
async function remove(kind: Kind, model: string, targets: string[], options: Record<string, unknown> = {}) {
  const result = await live.post(REMOVE[kind], { input: { model, [TARGETS[kind]]: targets, ...options } });
  if (result.errors) return { code: result.errors[0].extensions?.code as string };
  return {
    results: Object.values(result.data!)[0] as {
      id: string;
      outcome: string;
      dryRun: boolean;
      effects: Effect[] | null;
      blockers: unknown[] | null;
    }[],
  };
}

const query = async <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(await live.store.db.execute(statement));
const modelId = (model: string) => sql`(select id from models where name = ${model})`;

/** Everything a removal could change: the model's revision and life, every entity's life, the queued cleanups, the change rows. */
async function state(model: string) {
  const id = modelId(model);
  return {
    model: await query(sql`select revision, life from models where id = ${id}`),
    lives: await query(sql`
      select 'machine' as kind, id as entity, life from machines where model_id = ${id}
      union all select 'application', name, life from applications where model_id = ${id}
      union all select 'unit', name, life from units where model_id = ${id}
      union all select 'relation', id::text, life from relations where model_id = ${id}
      order by 1, 2`),
    cleanups: await query(sql`select id, kind, target from cleanups where model_id = ${id} order by id`),
    changes: await query(sql`select count(*)::int as n from changes where model_id = ${id}`),
  };
}

const revisionOf = async (model: string) =>
  (await query<{ revision: string }>(sql`select revision::text from models where name = ${model}`))[0]!.revision;

/**
 * The change rows written after `revision`, as a dry run's effects name them. A cleanup's id is left out: the dry run
 * took one from the sequence, and the real call takes the next.
 */
async function rowsSince(model: string, revision: string): Promise<Effect[]> {
  const rows = await query<Effect>(sql`
    select kind, entity, life::text, removed, case when kind = 'cleanup' then (fields->>'kind') || ' ' || (fields->>'target') end as cleanup
    from changes where model_id = ${modelId(model)} and revision > ${Number(revision)} order by revision`);
  return comparable(rows.map((r) => ({ ...r, kind: r.kind.toUpperCase(), life: r.life?.toUpperCase() ?? null })));
}

const comparable = (effects: Effect[]) => effects.map((e) => (e.kind === "CLEANUP" ? { ...e, entity: "a cleanup's id" } : e));

/**
 * The specification of a dry run: it answers what the real call then does, and keeps nothing. Runs the dry run, checks
 * nothing changed, runs the real call, and checks its outcomes and change rows are the dry run's. Returns the dry run.
 */
async function rehearsedThenReal(kind: Kind, model: string, targets: string[], options: Record<string, unknown> = {}) {
  const before = await state(model);
  const dry = await remove(kind, model, targets, { ...options, dryRun: true });
  expect(dry.results, JSON.stringify(dry)).toBeDefined();
  expect(await state(model)).toEqual(before);
  const revision = await revisionOf(model);
  const real = await remove(kind, model, targets, options);
  expect(real.results!.map(({ id, outcome }) => ({ id, outcome }))).toEqual(dry.results!.map(({ id, outcome }) => ({ id, outcome })));
  for (const result of real.results!) expect(result).toMatchObject({ dryRun: false, effects: null, blockers: null });
  for (const result of dry.results!) expect(result.dryRun).toBe(true);
  expect(await rowsSince(model, revision)).toEqual(comparable(dry.results!.flatMap((r) => r.effects!)));
  return dry.results!;
}

const deploy = (model: string, charm: string, numUnits = 1) =>
  live.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { input: { model, charm, numUnits } });
const integrate = async (model: string, a: string, b: string) =>
  (await live.ok(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, { input: { model, endpoints: [a, b] } }))
    .integrate.id as number;
const enter = (model: string, relation: number, unit: string) =>
  live.ok(`mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName } } }`, {
    input: { model, relation, unit, privateAddress: "10.0.0.1" },
  });
const blockersOf = async (model: string, unit: string) =>
  (
    await live.ok(
      `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) { blockers { kind message entities } } } }`,
      { model, unit },
    )
  ).model.unit.blockers;

describe("a removal's dry run answers what the real call then does, and keeps nothing", () => {
  it("removeUnit: the unit Dying, and what would then hold it is what holds it", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress", 2);
    await deploy(model, "mysql");
    await enter(model, await integrate(model, "wordpress", "mysql"), "wordpress/0");
    const [dry] = await rehearsedThenReal("unit", model, ["wordpress/0"]);
    expect(dry).toMatchObject({ id: "wordpress/0", outcome: "DYING" });
    expect(dry!.effects).toContainEqual(expect.objectContaining({ kind: "UNIT", entity: "wordpress/0", life: "DYING", removed: false }));
    expect(dry!.blockers).toEqual(await blockersOf(model, "wordpress/0"));
    expect(dry!.blockers!.length).toBeGreaterThan(0);
  });

  it("removeApplication: its relations destroyed, the application Dying, and the cleanup it queues", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress", 2);
    await deploy(model, "mysql");
    await deploy(model, "memcached");
    await enter(model, await integrate(model, "wordpress", "mysql"), "wordpress/0");
    await integrate(model, "wordpress", "memcached");
    const [dry] = await rehearsedThenReal("application", model, ["wordpress"]);
    expect(dry).toMatchObject({ id: "wordpress", outcome: "DYING" });
    const effects = dry!.effects!;
    expect(effects).toContainEqual(expect.objectContaining({ kind: "APPLICATION", entity: "wordpress", life: "DYING", removed: false }));
    expect(effects.some((e) => e.kind === "RELATION" && e.removed)).toBe(true); // the one nobody is in the scope of
    expect(effects.some((e) => e.kind === "RELATION" && e.life === "DYING")).toBe(true);
    expect(effects.some((e) => e.kind === "CLEANUP" && !e.removed)).toBe(true);
  });

  it("removeApplication of an application nothing holds: removed at once, and no blockers", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress", 0);
    const [dry] = await rehearsedThenReal("application", model, ["wordpress"]);
    expect(dry).toMatchObject({ outcome: "REMOVED", blockers: [] });
    expect(dry!.effects).toContainEqual(expect.objectContaining({ kind: "APPLICATION", entity: "wordpress", removed: true }));
  });

  it("removeMachine: an empty machine goes Dying; several targets answer each", async () => {
    const model = (await live.newModel()).name;
    const add = () => live.ok(`mutation ($input: AddMachineInput!) { addMachine(input: $input) { id } }`, { input: { model } });
    const ids = [(await add()).addMachine.id, (await add()).addMachine.id];
    const dry = await rehearsedThenReal("machine", model, ids);
    expect(dry.map((r) => r.id)).toEqual(ids);
    for (const [i, result] of dry.entries())
      expect(result.effects).toContainEqual(expect.objectContaining({ kind: "MACHINE", entity: ids[i] }));
  });

  it("removeRelation: Dying while a unit is in its scope, removed at once when none is", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress");
    await deploy(model, "mysql");
    await deploy(model, "memcached");
    const db = await integrate(model, "wordpress", "mysql");
    const cache = await integrate(model, "wordpress", "memcached");
    await enter(model, db, "wordpress/0");
    const dry = await rehearsedThenReal("relation", model, [String(db), String(cache)]);
    expect(dry.map((r) => r.outcome)).toEqual(["DYING", "REMOVED"]);
    expect(dry[0]!.blockers!.map((b: any) => b.kind)).toContain("UNITS_IN_SCOPE");
  });

  it("with force, the forced effects: here a machine with a unit, whose forced cleanups are queued", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress");
    // maxWait leaves the forced fallbacks to the cleaner, so the real call's rows are its one transaction's.
    const [dry] = await rehearsedThenReal("machine", model, ["1"], { force: true, maxWait: 600 });
    expect(dry).toMatchObject({ id: "1", outcome: "DYING" });
    expect(dry!.effects!.some((e) => e.kind === "CLEANUP")).toBe(true);
  });

  it("with force and no wait, the removal's own transaction: the real call's first rows, before its cleanups run", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress");
    const before = await state(model);
    const dry = (await remove("machine", model, ["1"], { force: true, dryRun: true })).results!;
    expect(await state(model)).toEqual(before);
    const revision = await revisionOf(model);
    await remove("machine", model, ["1"], { force: true });
    const effects = comparable(dry.flatMap((r) => r.effects!));
    expect((await rowsSince(model, revision)).slice(0, effects.length)).toEqual(effects);
  });
});

describe("a refused dry run is refused as the real call is, and keeps nothing", () => {
  it.each([
    ["a machine with units assigned", "machine", ["1"], {}, "HAS_UNITS"],
    ["the model's manager (machine 0), even forced", "machine", ["0"], { force: true }, "MACHINE_MANAGES_MODEL"],
    ["a unit that does not exist", "unit", ["wordpress/9"], {}, "NOT_FOUND"],
    ["maxWait without force", "unit", ["wordpress/0"], { maxWait: 10 }, "INVALID_ARGUMENT"],
  ] as const)("%s", async (_what, kind, targets, options, code) => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress");
    const before = await state(model);
    expect(await remove(kind, model, [...targets], { ...options, dryRun: true })).toEqual({ code });
    expect(await state(model)).toEqual(before);
    expect(await remove(kind, model, [...targets], options)).toEqual({ code });
  });
});

describe("streams see nothing of a dry run", () => {
  it("the first change after a dry run is the next real write's", async () => {
    const model = (await live.newModel()).name;
    await deploy(model, "wordpress", 2);
    const stream = subscribe(live.url, CHANGES, { model });
    await stream.synced();
    await remove("application", model, ["wordpress"], { dryRun: true });
    await remove("unit", model, ["wordpress/1"]);
    await stream.until((s) => s.changes.length >= 1);
    expect(stream.changes[0]).toMatchObject({ kind: "UNIT", entity: "wordpress/1" }); // not the application Dying
  });
});

describe("a dry run asks what the real call asks", () => {
  it("a read-only person, or the operator of another model, is refused it: FORBIDDEN", async () => {
    const model = (await live.newModel()).name;
    const other = (await live.newModel()).name;
    await deploy(model, "wordpress");
    const ISSUE = `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { token } }`;
    const token = async (input: Record<string, unknown>) =>
      (await live.ok(ISSUE, { input: { description: "dry run", ...input } })).issueToken.token as string;
    const asWhom = async (bearer: string) => {
      const response = await fetch(live.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ query: REMOVE.unit, variables: { input: { model, units: ["wordpress/0"], dryRun: true } } }),
      });
      return ((await response.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.map((e) => e.extensions?.code);
    };
    expect(await asWhom(await token({ role: "READ_ONLY" }))).toEqual(["FORBIDDEN"]);
    expect(await asWhom(await token({ role: "OPERATOR", models: [other] }))).toEqual(["FORBIDDEN"]);
    expect(await asWhom(await token({ role: "OPERATOR", models: [model] }))).toBeUndefined();
  });
});
