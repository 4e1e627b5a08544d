// Force (end of seed 001): "forcibly sets an entity to Dead while maintaining
// consistency and sanity across all references".
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CLEANUP_BATCH, MAX_UNITS_PER_REQUEST_IN_PROCESS } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, integrate } from "./support/fixtures.js";
import { lifecycle, REMOVE_UNIT } from "./support/lifecycle.js";
import { onPostgres } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const api = useApi();

async function busyModel() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress" });
  await deploy(api, model, { charm: "mysql" });
  await deploy(api, model, { charm: "logging" });
  const db = await integrate(api, model, "wordpress", "mysql");
  const logs = await integrate(api, model, "logging", "wordpress");
  const l = lifecycle(api, model);
  await l.enter(db.id, "wordpress/0");
  await l.enter(db.id, "mysql/0");
  await l.enter(logs.id, "wordpress/0");
  await l.enter(logs.id, "logging/0");
  return { model, db, logs, l };
}

describe("remove-unit --force", () => {
  it("with no wait, the unit leaves its scopes, its subordinates go, and it is removed now", async () => {
    const { db, logs, l } = await busyModel();
    expect(await l.removeUnit(["wordpress/0"], { force: true })).toEqual([{ id: "wordpress/0", outcome: "DYING" }]);
    const status = await l.status();
    expect(status.units["wordpress/0"]).toBeUndefined();
    expect(status.units["logging/0"]).toBeUndefined();
    expect(status.relations[db.key]).toMatchObject({ life: "ALIVE", unitCount: 1, members: [{ unitName: "mysql/0" }] });
    expect(status.relations[logs.key]).toMatchObject({ life: "ALIVE", unitCount: 0, members: [] });
    expect(status.applications.wordpress).toMatchObject({ life: "ALIVE", unitCount: 0 });
    expect(status.machines["1"].blockers).toEqual([]);
  });

  it("a unit already stuck Dying can still be forced", async () => {
    const { l } = await busyModel();
    await l.removeUnit(["wordpress/0"]);
    expect(await l.removeUnit(["wordpress/0"], { force: true })).toEqual([{ id: "wordpress/0", outcome: "UNCHANGED" }]);
    expect((await l.status()).units["wordpress/0"]).toBeUndefined();
  });

  it("with a wait, the forced fallback is queued until then, shown as a blocker", async () => {
    const { l } = await busyModel();
    await l.removeUnit(["wordpress/0"], { force: true, maxWait: 600 });
    expect(await l.runCleanups()).toMatchObject({ remaining: 1 });
    const unit = (await l.status()).units["wordpress/0"];
    expect(unit.life).toBe("DYING");
    expect(unit.blockers.map((b: any) => b.kind)).toContain("PENDING_CLEANUP");
    expect(unit.blockers.find((b: any) => b.kind === "PENDING_CLEANUP").message).toMatch(/force-unit.*due/);
  });

  it("maxWait without force is refused", async () => {
    const { model } = await busyModel();
    await api.refused("INVALID_ARGUMENT", REMOVE_UNIT, { input: { model, units: ["wordpress/0"], maxWait: 10 } });
  });

  it("forcing the last unit of a Dying application out of a Dying relation removes the relation and the counterpart it held", async () => {
    const { db, l } = await busyModel();
    await l.removeApplication(["mysql"]);
    await l.runCleanups();
    await l.removeUnit(["wordpress/0"], { force: true });
    expect((await l.status()).relations[db.key]).toMatchObject({ life: "DYING", unitCount: 1 });
    await l.removeUnit(["mysql/0"], { force: true });
    const status = await l.status();
    expect(status.relations[db.key]).toBeUndefined();
    expect(status.applications.mysql).toBeUndefined();
  });
});

describe("remove-machine --force", () => {
  it("forces the units on it away, removes its containers, and sets it Dead for the provisioner", async () => {
    const { model, db, l } = await busyModel();
    await api.ok(ADD_MACHINE, { input: { model, parent: "1", containerType: "LXD" } });
    expect(await l.removeMachine(["1"], { force: true })).toEqual([{ id: "1", outcome: "DYING" }]);
    const status = await l.status();
    expect(status.machines["1"]).toMatchObject({ life: "DEAD" });
    expect(status.machines["1/lxd/0"]).toBeUndefined();
    expect(status.units["wordpress/0"]).toBeUndefined();
    expect(status.relations[db.key].unitCount).toBe(1);
    expect(status.machines["1"].blockers).toEqual([
      { kind: "AGENT", message: "Dead: waiting for the provisioner to release its instance and remove it", entities: [] },
    ]);
    await l.removeDeadMachine("1");
  });
});

describe("remove-relation --force", () => {
  it("removes a relation even when its scope count is wrong", async () => {
    const { model, db, l } = await busyModel();
    await l.leave(db.id, "wordpress/0");
    await l.leave(db.id, "mysql/0");
    // A scope count that no longer matches reality: Juju's third most common complaint.
    await api.store.db.execute(
      sql`update relations set unit_count = 3 where id = ${db.id} and model_id = (select id from models where name = ${model})`,
    );
    expect(await l.removeRelation([String(db.id)])).toEqual([{ id: String(db.id), outcome: "DYING" }]);
    const stuck = (await l.status()).relations[db.key];
    expect(stuck.blockers[0].message).toMatch(/scope count says 3 unit\(s\) but none is in scope: remove it with force/);
    expect(await l.removeRelation([String(db.id)], { force: true })).toEqual([{ id: String(db.id), outcome: "REMOVED" }]);
    const status = await l.status();
    expect(status.relations[db.key]).toBeUndefined();
    expect([status.applications.wordpress.relationCount, status.applications.mysql.relationCount]).toEqual([1, 1]);
  });

  it("takes its members out of scope", async () => {
    const { logs, l } = await busyModel();
    await l.removeRelation([String(logs.id)], { force: true });
    await l.runCleanups();
    const status = await l.status();
    expect(status.relations[logs.key]).toBeUndefined();
    // The subordinate lost its last container-scoped relation to its principal's application.
    expect(status.units["logging/0"].life).toBe("DYING");
    expect(status.units["logging/0"].blockers.map((b: any) => b.kind)).toEqual(["AGENT"]);
  });
});

describe("a forced removal of a relation with more members than one cleanup batch (issue 11: bounded batches)", () => {
  it(
    "goes Dying; the cleaner takes its members out a batch at a time, and the last batch removes it",
    async () => {
      const model = await api.newModel();
      const members = CLEANUP_BATCH + 1;
      await deploy(api, model, { charm: "wordpress" });
      await deploy(api, model, { charm: "mysql", numUnits: 0 });
      const perCall = onPostgres ? members : MAX_UNITS_PER_REQUEST_IN_PROCESS; // PGlite takes fewer units a call
      for (let added = 0; added < members - 1; added += perCall)
        await api.ok(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
          input: { model, application: "mysql", count: Math.min(perCall, members - 1 - added) },
        });
      const db = await integrate(api, model, "wordpress", "mysql");
      const l = lifecycle(api, model);
      await l.enter(db.id, "wordpress/0");
      for (let i = 0; i < members - 1; i++) await l.enter(db.id, `mysql/${i}`);

      // DYING, not REMOVED: the members leave in the cleaner's batches (the forced removal runs the first of them
      // before it answers), and the last batch removes the relation.
      expect(await l.removeRelation([String(db.id)], { force: true })).toEqual([{ id: String(db.id), outcome: "DYING" }]);
      await l.runCleanups();
      const status = await l.status();
      expect(status.relations[db.key]).toBeUndefined();
      expect([status.applications.wordpress.relationCount, status.applications.mysql.relationCount]).toEqual([0, 1]);
      // Members were taken out of the relation, not removed: every unit is still Alive.
      expect(Object.values(status.units).filter((u: any) => u.life === "ALIVE")).toHaveLength(members);
      // Its 501 scopes are entered one call at a time: on PGlite, on a slow machine, past the default 30 s.
    },
    scaled(120_000),
  );
});

describe("remove-application --force", () => {
  it("forces every unit away; the application goes with the last of them", async () => {
    const { l } = await busyModel();
    await l.removeApplication(["wordpress"], { force: true });
    await l.runCleanups();
    const status = await l.status();
    expect(status.applications.wordpress).toBeUndefined();
    expect(status.units["logging/0"]).toBeUndefined();
    expect(Object.keys(status.relations)).toEqual(["mysql:cluster"]);
  });
});
