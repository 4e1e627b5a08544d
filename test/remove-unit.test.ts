// Seed 000 "juju remove-unit" and seed 001 "Units".
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { DEPLOY, deploy, integrate, provisionMachines, snapshot } from "./support/fixtures.js";
import { lifecycle, REMOVE_DEAD_UNIT, REMOVE_UNIT, SET_UNIT_DEAD } from "./support/lifecycle.js";

const api = useApi();

async function setup(numUnits = 1) {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits });
  return { model, l: lifecycle(api, model) };
}

describe("remove-unit", () => {
  it('"If the unit is not Alive, abort without error" — removing a Dying unit again is a no-op', async () => {
    const { model, l } = await setup();
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "DYING" }]);
    const before = await snapshot(api, model);
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "UNCHANGED" }]);
    expect(await snapshot(api, model)).toEqual(before);
  });

  it('"Set the unit to Dying"', async () => {
    const { l } = await setup();
    await l.removeUnit(["wordpress/0"]);
    expect((await l.status()).units["wordpress/0"].life).toBe("DYING");
  });

  it("takes several units in one transaction", async () => {
    const { l } = await setup(3);
    expect(await l.removeUnit(["wordpress/0", "wordpress/2"])).toEqual([
      { id: "wordpress/0", outcome: "DYING" },
      { id: "wordpress/2", outcome: "DYING" },
    ]);
    const units = (await l.status()).units;
    expect([units["wordpress/0"].life, units["wordpress/1"].life, units["wordpress/2"].life]).toEqual(["DYING", "ALIVE", "DYING"]);
  });

  it("one refused target refuses the whole request, and nothing changes", async () => {
    const { model } = await setup(2);
    const before = await snapshot(api, model);
    await api.refused("NOT_FOUND", REMOVE_UNIT, { input: { model, units: ["wordpress/0", "wordpress/9"] } });
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("removeUnit on a subordinate is refused (seed 003: its units follow its principals)", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "logging" });
    const rel = await integrate(api, model, "logging", "wordpress");
    await l.enter(rel.id, "wordpress/0");
    const error = await api.refused("SUBORDINATE_NOT_ALLOWED", REMOVE_UNIT, { input: { model, units: ["logging/0"] } });
    expect(error.message).toMatch(/logging\/0 is a subordinate/);
  });

  it("a subordinate becomes Dying when its principal becomes Dying via remove-unit", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "logging" });
    const rel = await integrate(api, model, "logging", "wordpress");
    await l.enter(rel.id, "wordpress/0");
    await l.removeUnit(["wordpress/0"]);
    expect((await l.status()).units["logging/0"].life).toBe("DYING");
  });

  it("malformed and unknown unit names are refused with INVALID_ID and NOT_FOUND", async () => {
    const { model } = await setup();
    await api.refused("INVALID_ID", REMOVE_UNIT, { input: { model, units: ["wordpress"] } });
    await api.refused("NOT_FOUND", REMOVE_UNIT, { input: { model, units: ["mysql/0"] } });
    await api.refused("INVALID_ARGUMENT", REMOVE_UNIT, { input: { model, units: [] } });
  });
});

describe("a Dying unit's agent and deployer", () => {
  it("a unit may not become Dead while it is in scope for any relation", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    await l.enter(rel.id, "wordpress/0");
    await l.removeUnit(["wordpress/0"]);
    const error = await api.refused("IN_SCOPE", SET_UNIT_DEAD, { input: { model, unit: "wordpress/0" } });
    expect(error.message).toContain(`relation(s) ${rel.id}`);
    await l.leave(rel.id, "wordpress/0");
    expect(await l.setUnitDead("wordpress/0")).toEqual({ name: "wordpress/0", life: "DEAD" });
  });

  it("a unit may not become Dead while any unit subordinate to it exists", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "logging" });
    const rel = await integrate(api, model, "logging", "wordpress");
    await l.enter(rel.id, "wordpress/0");
    await l.removeUnit(["wordpress/0"]);
    await l.leave(rel.id, "wordpress/0");
    const error = await api.refused("HAS_SUBORDINATES", SET_UNIT_DEAD, { input: { model, unit: "wordpress/0" } });
    expect(error.extensions?.subordinates).toEqual(["logging/0"]);
    // The subordinate's agent departs and dies; the principal's agent removes it.
    await l.setUnitDead("logging/0");
    await l.removeDeadUnit("logging/0");
    await l.setUnitDead("wordpress/0");
  });

  it("only a Dead unit can be removed by its deployer", async () => {
    const { model, l } = await setup();
    await l.removeUnit(["wordpress/0"]);
    await api.refused("NOT_DEAD", REMOVE_DEAD_UNIT, { input: { model, unit: "wordpress/0" } });
  });

  it("removing a Dead principal unassigns it from its machine and decrements its Alive application's unit count", async () => {
    const { l } = await setup(2);
    await l.removeUnit(["wordpress/0"]);
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    const status = await l.status();
    expect(status.units["wordpress/0"]).toBeUndefined();
    expect(status.applications.wordpress).toMatchObject({ life: "ALIVE", unitCount: 1 });
    expect(status.machines["1"].blockers).toEqual([]);
  });

  it("removing the last unit of a Dying application that is in no relation removes the application", async () => {
    const { l } = await setup();
    expect(await l.removeApplication(["wordpress"])).toEqual([{ id: "wordpress", outcome: "DYING" }]);
    await l.runCleanups();
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    expect((await l.status()).applications.wordpress).toBeUndefined();
  });

  it("a Dying application with two units survives its first unit's removal", async () => {
    const { l } = await setup(2);
    await l.removeApplication(["wordpress"]);
    await l.runCleanups();
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    expect((await l.status()).applications.wordpress).toMatchObject({ life: "DYING", unitCount: 1 });
  });

  it("a Dying application still in a relation survives its last unit's removal", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    await l.enter(rel.id, "mysql/0");
    await l.removeApplication(["wordpress"]);
    await l.runCleanups();
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    expect((await l.status()).applications.wordpress).toMatchObject({ life: "DYING", unitCount: 0, relationCount: 1 });
    // "the responsibility for removing the application falls to the last UA to leave scope" (seed 001)
    expect(await l.leave(rel.id, "mysql/0")).toEqual({ relationRemoved: true });
    expect((await l.status()).applications.wordpress).toBeUndefined();
  });
});

describe("seed 004: a unit on a machine that was never provisioned", () => {
  /** Deploys without provisioning: no instance, so no machine agent will ever run these units. */
  async function unprovisioned(charm: string, numUnits: number, placement?: string[]) {
    const model = await api.newModel();
    await api.ok(DEPLOY, { input: { model, charm, numUnits, ...(placement ? { placement } : {}) } });
    return { model, l: lifecycle(api, model) };
  }

  it('"a unit assigned to a machine that has not been provisioned can be removed directly"', async () => {
    const { l } = await unprovisioned("wordpress", 2);
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "REMOVED" }]);
    const status = await l.status();
    expect(status.units["wordpress/0"]).toBeUndefined();
    expect(status.applications.wordpress).toMatchObject({ life: "ALIVE", unitCount: 1 });
    expect(status.machines["1"]).toMatchObject({ life: "ALIVE", blockers: [] }); // the machine stays; removing it is the user's call
  });

  it("so broken units do not keep their application from being removed: the cleaner removes them, then the application goes", async () => {
    const { l } = await unprovisioned("wordpress", 2);
    expect(await l.removeApplication(["wordpress"])).toEqual([{ id: "wordpress", outcome: "DYING" }]);
    await l.runCleanups();
    const status = await l.status();
    expect(status.units).toEqual({});
    expect(status.applications.wordpress).toBeUndefined();
  });

  it("a unit that holds something (entered into a scope by hand) still goes Dying and waits for its agent", async () => {
    const { model, l } = await unprovisioned("wordpress", 1);
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    await l.enter(rel.id, "wordpress/0");
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "DYING" }]);
  });

  it("a unit on the manager machine 0 goes Dying: that machine was provisioned at bootstrap", async () => {
    const { l } = await unprovisioned("wordpress", 1, ["0"]);
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "DYING" }]);
  });

  it("once its machine is provisioned, removing a unit makes it Dying", async () => {
    const { model, l } = await unprovisioned("wordpress", 1);
    await provisionMachines(api, model);
    expect(await l.removeUnit(["wordpress/0"])).toEqual([{ id: "wordpress/0", outcome: "DYING" }]);
  });
});
