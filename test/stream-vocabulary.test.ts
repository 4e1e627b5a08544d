// Issue 33: "every enum value and name a stream sends is the one the query types use,
// derived from the same source, so they cannot drift." Each stream event's `info` is a
// type per entity kind (MachineInfo, UnitInfo…); these specs hold every one of its
// fields to the query type's field of the same name, first in the schema (name, type,
// enum), then in the values a live stream and a query give for the same entities.
import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isObjectType,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../src/graphql/schema.js";
import { infoFields } from "../src/graphql/types/change-info.js";
import { type StreamEvent, subscribe, useLiveServer } from "./support/streams.js";

/** Each info type, and the query type whose fields it mirrors (null: the cleaner's queue has no query type). */
const mirrors: Record<string, string | null> = {
  ModelInfo: "Model",
  MachineInfo: "Machine",
  CharmInfo: "Charm",
  ApplicationInfo: "Application",
  UnitInfo: "Unit",
  RelationInfo: "Relation",
  RelationEndpointInfo: "RelationEndpoint",
  ScopeInfo: "ScopeMember",
  SettingsInfo: "RelationSettings",
  HookInfo: "HookRun",
  CleanupInfo: null,
};

/**
 * Fields only a stream needs: which relation a member's row is about, whose a hook run is (a query reaches them from their
 * parent), the juju-log lines a HOOK event brings (a query reads the run's all: HookRun.log).
 */
const streamOnly = new Set([
  "ScopeInfo.relationId",
  "ScopeInfo.applicationName",
  "SettingsInfo.relationId",
  "HookInfo.applicationName",
  "HookInfo.logged",
]);

const objectType = (name: string) => schema.getType(name) as GraphQLObjectType;

/** A field's type with nullability set aside: "[MachineJob]", "Status". */
function shape(field: GraphQLField<unknown, unknown>): string {
  const type = getNullableType(field.type);
  const named = getNamedType(type).name;
  return isListType(type) ? `[${named}]` : named;
}

describe("the stream's info types mirror the query types", () => {
  it("gives each entity kind's events their info type, in the field of the kind's name", () => {
    const kindEnum = schema.getType("EntityKind");
    const kinds = isEnumType(kindEnum) ? kindEnum.getValues().map((v) => v.name) : [];
    expect(kinds.length).toBeGreaterThan(0);
    const change = objectType("Change").getFields();
    const infos = kinds.map((kind) => getNamedType(change[kind.toLowerCase()]!.type).name);
    expect(new Set(infos)).toEqual(new Set(Object.keys(mirrors).filter((name) => name !== "RelationEndpointInfo")));
  });

  it("names every info field in `changed` when its row fields come: each is an identifying field or has sources", () => {
    for (const [kind, { always, from }] of Object.entries(infoFields)) {
      const info = `${kind[0]!.toUpperCase()}${kind.slice(1)}Info`;
      const named = new Set<string>([...always, ...Object.keys(from)]);
      expect(
        Object.keys(objectType(info).getFields()).filter((field) => !named.has(field)),
        info,
      ).toEqual([]);
    }
  });

  it("sends nothing else: an event is its envelope, `changed`, and its entity in one of the info types", () => {
    const fields = objectType("Change").getFields();
    const kinds = Object.keys(mirrors).filter((name) => name !== "RelationEndpointInfo").length;
    const envelope = ["type", "revision", "kind", "entity", "life", "removed", "committedAt", "changed"];
    const infos = Object.keys(fields).filter((name) => !envelope.includes(name));
    expect(
      Object.keys(fields)
        .filter((name) => envelope.includes(name))
        .sort(),
    ).toEqual([...envelope].sort());
    expect(infos.map((name) => getNamedType(fields[name]!.type).name).every((type) => type in mirrors)).toBe(true);
    expect(infos).toHaveLength(kinds);
  });

  for (const [info, query] of Object.entries(mirrors))
    it(`${info}: every field is ${query ?? "a value"}'s of the same name and type${query ? "" : " (no query type)"}`, () => {
      const fields = Object.values(objectType(info).getFields());
      expect(fields.length).toBeGreaterThan(0);
      if (!query) return;
      const queryFields = objectType(query).getFields();
      for (const field of fields) {
        const name = `${info}.${field.name}`;
        if (streamOnly.has(name)) {
          expect(queryFields[field.name], `${name} is declared stream-only`).toBeUndefined();
          continue;
        }
        const mirror = queryFields[field.name];
        expect(mirror, `${query} has no field "${field.name}"`).toBeDefined();
        // An info type's object field mirrors one of the query's with an info type of its own (endpoints).
        const expected = shape(mirror!).replace(/^(\[?)(\w+)(\]?)$/, (_, open, named: string, close) =>
          mirrors[`${named}Info`] !== undefined && shape(field).includes("Info")
            ? `${open}${named}Info${close}`
            : `${open}${named}${close}`,
        );
        expect(shape(field), name).toBe(expected);
      }
    });
});

// ---- values: a live stream's STATE events beside a query of the same entities ----

const live = useLiveServer();
let model: string;

/** A selection of every field of a type: scalars and enums as they are, objects with their scalar fields. */
function selectionOf(type: GraphQLObjectType, only?: (name: string) => boolean): string {
  return Object.values(type.getFields())
    .filter((f) => !only || only(f.name))
    .map((f) => {
      const named: GraphQLNamedType = getNamedType(f.type);
      if (!isObjectType(named)) return f.name;
      const inner = Object.values(named.getFields())
        .filter((g) => !isObjectType(getNamedType(g.type)) && g.args.length === 0)
        .map((g) => g.name);
      return `${f.name} { ${inner.join(" ")} }`;
    })
    .join(" ");
}

const infoFieldsBesideQuery = (info: string) => (name: string) => !streamOnly.has(`${info}.${name}`);

/** The info of every STATE event of the given kind, by entity. */
async function streamed(kind: string, info: string): Promise<Map<string, Record<string, unknown>>> {
  const query = `subscription ($model: String!, $kinds: [EntityKind!]) {
    changes(model: $model, kinds: $kinds) { type kind entity changed ${kind.toLowerCase()} { ${selectionOf(objectType(info), infoFieldsBesideQuery(info))} } }
  }`;
  const s = subscribe(live.url, query, { model, kinds: [kind] });
  await s.synced();
  expect(s.errors).toBeNull();
  const states = (s.events as unknown as (StreamEvent & Record<string, unknown>)[]).filter((e) => e.type === "STATE");
  await s.close();
  return new Map(states.map((e) => [e.entity!, e[kind.toLowerCase()] as Record<string, unknown>]));
}

/** The same fields, read by a query. */
const queried = async (info: string, path: string, read: (data: any) => Record<string, unknown>) => {
  const query = objectType(mirrors[info]!);
  const only = (name: string) => infoFieldsBesideQuery(info)(name) && name in objectType(info).getFields() && name in query.getFields();
  const selection = selectionOf(query, only).replace(/endpoints \{[^}]*\}/, "endpoints { applicationName name }");
  return read(await live.ok(`query ($model: String!) { model(name: $model) { ${path.replace("$SELECTION", selection)} } }`, { model }));
};

/** The info, as the query's answer is compared with it. */
const comparable = (info: Record<string, unknown>) => info;

beforeAll(async () => {
  model = (await live.newModel()).name;
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", constraints: "mem=2G" }) { name } }`, {
    model,
  });
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model });
  await live.ok(`mutation ($model: String!) { integrate(input: { model: $model, endpoints: ["wordpress", "mysql"] }) { id } }`, { model });
  await live.ok(`mutation ($model: String!) { addMachine(input: { model: $model, containerType: LXD, parent: "0" }) { id } }`, { model });
  const run = await live.ok(
    `mutation ($model: String!) { beginHook(input: { model: $model, unit: "wordpress/0", hook: "install" }) { id } }`,
    {
      model,
    },
  );
  await live.ok(
    `mutation ($model: String!, $run: ID!) { commitHook(input: { model: $model, unit: "wordpress/0", run: $run, result: FAILED }) { id } }`,
    { model, run: run.beginHook.id },
  );
});

describe("a stream and a query say the same of the same entity", () => {
  it("machines: jobs, container types and status in the query's spelling", async () => {
    const stream = await streamed("MACHINE", "MachineInfo");
    const query = await queried("MachineInfo", "machines { edges { node { $SELECTION } } }", (d) =>
      d.model.machines.edges.map((e: any) => e.node),
    );
    const machines = query as unknown as Record<string, unknown>[];
    expect(stream.size).toBe(machines.length);
    for (const machine of machines) expect(comparable(stream.get(machine.id as string)!)).toEqual(machine);
    expect(stream.get("0")).toMatchObject({ jobs: ["MANAGE_MODEL", "HOST_UNITS"], status: { current: "pending" } });
    expect(stream.get("0/lxd/0")).toMatchObject({ containerType: "LXD", parentId: "0" });
  });

  it("units: application, machine, workload and agent status, as the query reads them", async () => {
    const stream = await streamed("UNIT", "UnitInfo");
    const query = await queried("UnitInfo", "units { edges { node { $SELECTION } } }", (d) => d.model.units.edges.map((e: any) => e.node));
    expect(stream.size).toBe(2);
    for (const unit of query as unknown as Record<string, unknown>[]) expect(comparable(stream.get(unit.name as string)!)).toEqual(unit);
    expect(stream.get("wordpress/0")).toMatchObject({ agentStatus: { current: "error", hook: "install" } });
  });

  it("applications, charms, relations and the model", async () => {
    const applications = await streamed("APPLICATION", "ApplicationInfo");
    for (const name of ["wordpress", "mysql"]) {
      const app = await queried("ApplicationInfo", `application(name: "${name}") { $SELECTION }`, (d) => d.model.application);
      expect(comparable(applications.get(name)!)).toEqual(app);
    }
    expect(applications.get("wordpress")).toMatchObject({ constraints: { mem: 2048 } });

    const relations = await streamed("RELATION", "RelationInfo");
    const relation = await queried("RelationInfo", "relations { edges { node { $SELECTION } } }", (d) => d.model.relations.edges[0].node);
    expect(comparable(relations.get(String(relation.id))!)).toEqual(relation);
    expect(relation).toMatchObject({ scope: "GLOBAL" });

    const models = await streamed("MODEL", "ModelInfo");
    expect(comparable(models.get(model)!)).toEqual(await queried("ModelInfo", "$SELECTION", (d) => d.model));

    const charms = await streamed("CHARM", "CharmInfo");
    const url = (await live.ok(`query ($model: String!) { model(name: $model) { application(name: "mysql") { charmUrl } } }`, { model }))
      .model.application.charmUrl;
    expect(comparable(charms.get(url)!)).toEqual(await queried("CharmInfo", `charm(url: "${url}") { $SELECTION }`, (d) => d.model.charm));
  });

  it("hook runs: the result in HookRun.result's spelling", async () => {
    const hooks = await streamed("HOOK", "HookInfo");
    const run = await queried(
      "HookInfo",
      `unit(name: "wordpress/0") { hookRuns(first: 1) { edges { node { $SELECTION } } } }`,
      (d) => d.model.unit.hookRuns.edges[0].node,
    );
    expect(comparable(hooks.get("wordpress/0")!)).toEqual(run);
    expect(run).toMatchObject({ result: "FAILED", hook: "install" });
  });
});

describe("a subordinate runs on its principal's machine", () => {
  const ENTER = `mutation ($model: String!, $relation: Int!, $unit: String!) {
    enterScope(input: { model: $model, relation: $relation, unit: $unit, privateAddress: "10.0.0.1" }) { member { unitName } }
  }`;
  const UNIT_EVENTS = `subscription ($model: String!) { changes(model: $model, kinds: [UNIT]) { type entity unit { name machineId principalName } } }`;

  it("says so in its creation's CHANGE and in a snapshot, as its principal's machineId", async () => {
    const { name: m } = await live.newModel();
    await live.ok(`mutation ($m: String!) { deploy(input: { model: $m, charm: "wordpress" }) { name } }`, { m });
    await live.ok(`mutation ($m: String!) { deploy(input: { model: $m, charm: "logging" }) { name } }`, { m });
    const relation = (
      await live.ok(`mutation ($m: String!) { integrate(input: { model: $m, endpoints: ["logging", "wordpress"] }) { id } }`, { m })
    ).integrate.id;
    const host = (await live.ok(`query ($m: String!) { model(name: $m) { unit(name: "wordpress/0") { machineId } } }`, { m })).model.unit
      .machineId;
    expect(host).toEqual(expect.any(String));

    const watching = subscribe(live.url, UNIT_EVENTS, { model: m });
    await watching.synced();
    await live.ok(ENTER, { model: m, relation, unit: "wordpress/0" });
    await watching.until((s) => s.events.some((e) => e.type === "CHANGE" && e.entity === "logging/0"));
    const created = watching.events.find((e) => e.type === "CHANGE" && e.entity === "logging/0") as unknown as Record<string, any>;
    expect(created.unit).toEqual({ name: "logging/0", machineId: host, principalName: "wordpress/0" });

    const fresh = subscribe(live.url, UNIT_EVENTS, { model: m });
    await fresh.synced();
    const state = fresh.events.find((e) => e.type === "STATE" && e.entity === "logging/0") as unknown as Record<string, any>;
    expect(state.unit).toEqual({ name: "logging/0", machineId: host, principalName: "wordpress/0" });

    const queried = await live.ok(`query ($m: String!) { model(name: $m) { unit(name: "logging/0") { machineId machine { id } } } }`, {
      m,
    });
    expect(queried.model.unit).toEqual({ machineId: host, machine: { id: host } });
  });
});
