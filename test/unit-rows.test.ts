// A new unit's row is written without waiting for its answer (tx.defer): the operation
// knows every column of it beforehand (its number, its place in creation order and the
// transaction's time read together). These specs hold the answer to the row as stored.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { machines, units } from "../src/db/schema.js";
import { addMachine, addModel, addUnit, deploy, enterScope, integrate } from "../src/model/index.js";
import { openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

const stored = async (modelId: string, name: string) =>
  (
    await store.db
      .select()
      .from(units)
      .where(and(eq(units.modelId, modelId), eq(units.name, name)))
  )[0];

describe("a new unit's row", () => {
  it("addUnit answers with each unit as stored: every column, its creation order and its times included", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    await deploy(store.db, { model: model.name, charm: "wordpress", numUnits: 0 });
    const machine = await addMachine(store.db, { model: model.name });
    const added = await addUnit(store.db, { model: model.name, application: "wordpress", count: 3, placement: [machine.id] });
    for (const unit of added) expect(unit).toEqual(await stored(model.id, unit.name));
    expect(added.map((u) => u.seq)).toEqual([...added.map((u) => u.seq)].sort((a, b) => a - b));
  });

  it("addUnit on new machines: each unit's machine is stored, as its own, with the unit's constraints (seed 004)", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    await deploy(store.db, { model: model.name, charm: "wordpress", numUnits: 0 });
    const added = await addUnit(store.db, { model: model.name, application: "wordpress", count: 3 });
    const hosts = await store.db.select().from(machines).where(eq(machines.modelId, model.id));
    for (const unit of added) {
      const host = hosts.find((m) => m.id === unit.machineId);
      expect(host).toMatchObject({ life: "alive", status: "pending", instanceId: null, parentId: null });
      expect(host!.constraints).toEqual(unit.constraints);
    }
    expect(new Set(added.map((u) => u.machineId)).size).toBe(3);
  });

  it("addMachine answers with the machine as stored: every column, its creation order and its time included", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    const host = await addMachine(store.db, { model: model.name, constraints: "mem=4G" });
    const container = await addMachine(store.db, { model: model.name, parent: host.id, containerType: "lxd" });
    for (const machine of [host, container]) {
      const [row] = await store.db
        .select()
        .from(machines)
        .where(and(eq(machines.modelId, model.id), eq(machines.id, machine.id)));
      expect(machine).toEqual(row);
    }
    expect(container.id).toBe(`${host.id}/lxd/0`);
  });

  it("a subordinate created by its principal entering scope is answered as stored", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    await deploy(store.db, { model: model.name, charm: "wordpress", numUnits: 1 });
    await deploy(store.db, { model: model.name, charm: "logging", numUnits: 0 });
    const relation = await integrate(store.db, { model: model.name, endpoints: ["logging", "wordpress"] });
    const { subordinate } = await enterScope(store.db, {
      model: model.name,
      relation: relation.id,
      unit: "wordpress/0",
      privateAddress: "10.0.0.1",
    });
    expect(subordinate?.name).toBe("logging/0");
    expect(subordinate).toEqual(await stored(model.id, "logging/0"));
  });
});
