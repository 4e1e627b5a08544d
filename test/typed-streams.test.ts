// Issue 33: "Codegen'd client in a small script: every subscription's payload
// type-checks without casts." Each of the six streams, through the generated client
// (src/client, from schema/operations/changes.graphql) and the agents' connection: the
// events' entities are read by their typed fields, with no cast anywhere in this file,
// and `npm test`'s tsc checks it.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentConnection } from "../src/agents/connection.js";
import {
  ApplicationRelationsDocument,
  ChangesDocument,
  MachineLifeDocument,
  MachineUnitsDocument,
  RelationUnitsDocument,
  UnitLifeDocument,
} from "../src/client/graphql.js";
import { ADMIN_TOKEN } from "./support/store.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
let api: AgentConnection;
let model: string;
let relation: number;

beforeAll(async () => {
  model = (await live.newModel()).name;
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress" }) { name } }`, { model });
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model });
  relation = (
    await live.ok(`mutation ($model: String!) { integrate(input: { model: $model, endpoints: ["wordpress", "mysql"] }) { id } }`, { model })
  ).integrate.id;
  await live.ok(
    `mutation ($model: String!, $relation: Int!) { enterScope(input: { model: $model, relation: $relation, unit: "mysql/0", privateAddress: "10.0.0.2" }) { member { unitName } } }`,
    { model, relation },
  );
  api = new AgentConnection(live.url);
});

afterAll(() => api?.close());

/** The events of a stream up to the end of its snapshot (its first BOOKMARK), typed as the document says. */
function snapshotOf<R, V>(document: TypedDocumentNode<R, V>, variables: V, pick: (data: R) => { type: string }) {
  return new Promise<R[]>((resolve, reject) => {
    const events: R[] = [];
    const timer = setTimeout(() => reject(new Error(`no BOOKMARK within the deadline; got ${events.length} events`)), scaled(15_000));
    const stop = api.subscribe(document, variables, ADMIN_TOKEN, {
      next: (data) => {
        events.push(data);
        if (pick(data).type !== "BOOKMARK") return;
        clearTimeout(timer);
        stop();
        resolve(events);
      },
      failed: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
  });
}

describe("every stream's payload is typed by the generated client", () => {
  it("changes: each kind's entity in its own typed field", async () => {
    const events = await snapshotOf(ChangesDocument, { model, kinds: ["MACHINE", "UNIT", "RELATION"] }, (d) => d.changes);
    const machines = events.flatMap((d) => (d.changes.machine ? [d.changes.machine] : []));
    const units = events.flatMap((d) => (d.changes.unit ? [d.changes.unit] : []));
    const relations = events.flatMap((d) => (d.changes.relation ? [d.changes.relation] : []));
    expect(machines.find((m) => m.id === "0")?.jobs).toEqual(["MANAGE_MODEL", "HOST_UNITS"]);
    expect(units.map((u) => u.applicationName).sort()).toEqual(["mysql", "wordpress"]);
    const integrated = relations.find((r) => r.id === relation);
    expect(integrated?.scope).toBe("GLOBAL");
    expect(integrated?.endpoints?.map((e) => e.applicationName).sort()).toEqual(["mysql", "wordpress"]);
  });

  it("unitLife: the unit and its application", async () => {
    const events = await snapshotOf(UnitLifeDocument, { model, unit: "wordpress/0" }, (d) => d.unitLife);
    const unit = events.find((d) => d.unitLife.unit)?.unitLife.unit;
    const application = events.find((d) => d.unitLife.application)?.unitLife.application;
    expect(unit?.agentStatus?.current).toBe("allocating");
    expect(unit?.workloadStatus?.current).toEqual(expect.any(String));
    expect(application?.configVersion).toEqual(expect.any(Number));
  });

  it("machineLife and machineUnits: the machine and the units on it", async () => {
    const host = (await live.ok(`query ($model: String!) { model(name: $model) { unit(name: "wordpress/0") { machineId } } }`, { model }))
      .model.unit.machineId as string;
    const machine = (await snapshotOf(MachineLifeDocument, { model, machine: host }, (d) => d.machineLife)).find(
      (d) => d.machineLife.machine,
    )?.machineLife.machine;
    expect(machine?.status?.current).toBe("pending");
    const units = (await snapshotOf(MachineUnitsDocument, { model, machine: host }, (d) => d.machineUnits)).flatMap((d) =>
      d.machineUnits.unit ? [d.machineUnits.unit] : [],
    );
    expect(units.map((u) => u.name)).toEqual(["wordpress/0"]);
  });

  it("applicationRelations and relationUnits: relations, members and their settings versions", async () => {
    const relations = (
      await snapshotOf(ApplicationRelationsDocument, { model, application: "wordpress" }, (d) => d.applicationRelations)
    ).flatMap((d) => (d.applicationRelations.relation ? [d.applicationRelations.relation] : []));
    expect(relations.map((r) => r.key)).toEqual(["wordpress:db mysql:db"]);
    const members = await snapshotOf(RelationUnitsDocument, { model, relation, unit: "wordpress/0" }, (d) => d.relationUnits);
    const scopes = members.flatMap((d) => (d.relationUnits.scope ? [d.relationUnits.scope] : []));
    const settings = members.flatMap((d) => (d.relationUnits.settings ? [d.relationUnits.settings] : []));
    expect(scopes.map((s) => [s.unitName, s.role])).toEqual([["mysql/0", "PROVIDER"]]);
    expect(settings.map((s) => [s.unitName, typeof s.version])).toEqual([["mysql/0", "number"]]);
  });
});
