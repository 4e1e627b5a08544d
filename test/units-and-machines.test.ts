// Units (seed 001 "Units", seed 003 "Unit management") and machines (seed 001
// "Machines", seed 004 "Series"): creation and assignment.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, ADD_UNIT, deploy, markDying } from "./support/fixtures.js";

const api = useApi();

const addUnit = (model: string, input: Record<string, unknown>) => api.ok(ADD_UNIT, { input: { model, ...input } }).then((d) => d.addUnit);
const addMachine = (model: string, input: Record<string, unknown> = {}) =>
  api.ok(ADD_MACHINE, { input: { model, ...input } }).then((d) => d.addMachine);

describe("addUnit", () => {
  it("adds units numbered after the application's earlier ones, each on a new machine", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const units = await addUnit(model, { application: "wordpress", count: 2 });
    expect(units.map((u: any) => [u.name, u.machine.id])).toEqual([
      ["wordpress/1", "2"],
      ["wordpress/2", "3"],
    ]);
  });

  it("places a unit on an existing machine of the same series", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const machine = await addMachine(model, { series: "jammy" });
    const [unit] = await addUnit(model, { application: "wordpress", placement: [machine.id] });
    expect(unit.machine).toEqual({ id: machine.id, series: "jammy", containerType: null });
  });

  it("places a unit on the controller machine 0, which also hosts units", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const [unit] = await addUnit(model, { application: "wordpress", placement: ["0"] });
    expect(unit.machine.id).toBe("0");
  });

  it("places a unit in a new container on an existing machine", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const machine = await addMachine(model);
    const units = await addUnit(model, { application: "wordpress", count: 2, placement: [`lxd:${machine.id}`, `lxd:${machine.id}`] });
    expect(units.map((u: any) => u.machine)).toEqual([
      { id: "1/lxd/0", series: "jammy", containerType: "LXD" },
      { id: "1/lxd/1", series: "jammy", containerType: "LXD" },
    ]);
  });

  it("places a unit in a new container on a new machine", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const [unit] = await addUnit(model, { application: "wordpress", placement: ["kvm"] });
    expect(unit.machine).toEqual({ id: "1/kvm/0", series: "jammy", containerType: "KVM" });
  });

  it("units beyond the placement list get new machines", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const units = await addUnit(model, { application: "wordpress", count: 3, placement: ["0"] });
    expect(units.map((u: any) => u.machine.id)).toEqual(["0", "1", "2"]);
  });

  it('"units ... can only be assigned to machines with matching series"', async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const machine = await addMachine(model, { series: "focal" });
    const error = await api.refused("SERIES_MISMATCH", ADD_UNIT, { input: { model, application: "wordpress", placement: [machine.id] } });
    expect(error.message).toBe("cannot assign unit wordpress/0 (series jammy) to machine 1 (series focal)");
  });

  it("a container made for a unit takes the unit's series, whatever its host's", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0, series: "focal" });
    const host = await addMachine(model, { series: "jammy" });
    const [unit] = await addUnit(model, { application: "wordpress", placement: [`lxd:${host.id}`] });
    expect(unit).toMatchObject({ series: "focal", machine: { id: "1/lxd/0", series: "focal" } });
  });

  it("addUnit on a subordinate is refused with an error that says why", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "logging" });
    const error = await api.refused("SUBORDINATE_NOT_ALLOWED", ADD_UNIT, { input: { model, application: "logging" } });
    expect(error.message).toMatch(/cannot add units to subordinate application "logging": its units are created by its principals/);
  });

  it("units are only added to Alive applications", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await markDying(api, model, "applications", "wordpress");
    const error = await api.refused("NOT_ALIVE", ADD_UNIT, { input: { model, application: "wordpress" } });
    expect(error.message).toBe('application "wordpress" is dying: nothing can be added to it');
  });

  it("assignments are only made to Alive machines", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const machine = await addMachine(model);
    await markDying(api, model, "machines", machine.id);
    await api.refused("NOT_ALIVE", ADD_UNIT, { input: { model, application: "wordpress", placement: [machine.id] } });
    await api.refused("NOT_ALIVE", ADD_UNIT, { input: { model, application: "wordpress", placement: [`lxd:${machine.id}`] } });
  });

  it("units are not assigned to machines without JobHostUnits", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const manager = await addMachine(model, { jobs: ["MANAGE_MODEL"] });
    const error = await api.refused("INVALID_PLACEMENT", ADD_UNIT, { input: { model, application: "wordpress", placement: [manager.id] } });
    expect(error.message).toMatch(/cannot host units/);
  });

  it("a count below one is refused", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await api.refused("INVALID_ARGUMENT", ADD_UNIT, { input: { model, application: "wordpress", count: 0 } });
  });

  it("unit numbers are never reused within a model", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 2 });
    // A refused request consumes nothing: the next unit is still wordpress/2.
    await api.refused("INVALID_PLACEMENT", ADD_UNIT, { input: { model, application: "wordpress", placement: ["nowhere"] } });
    const [unit] = await addUnit(model, { application: "wordpress" });
    expect(unit.name).toBe("wordpress/2");
  });
});

describe("addMachine", () => {
  it("adds a top-level machine with the model's default series and JobHostUnits", async () => {
    const model = await api.newModel({ defaultSeries: "noble" });
    expect(await addMachine(model)).toEqual({
      id: "1",
      series: "noble",
      jobs: ["HOST_UNITS"],
      containerType: null,
      parent: null,
      constraints: { text: "" },
    });
  });

  it("adds a container on a parent machine", async () => {
    const model = await api.newModel();
    await addMachine(model);
    const container = await addMachine(model, { parent: "1", containerType: "LXD" });
    expect(container).toMatchObject({ id: "1/lxd/0", containerType: "LXD", parent: { id: "1" } });
    const nested = await addMachine(model, { parent: "1/lxd/0", containerType: "LXD" });
    expect(nested.id).toBe("1/lxd/0/lxd/0");
  });

  it("a container needs both a parent and a type", async () => {
    const model = await api.newModel();
    await api.refused("INVALID_ARGUMENT", ADD_MACHINE, { input: { model, parent: "0" } });
    await api.refused("INVALID_ARGUMENT", ADD_MACHINE, { input: { model, containerType: "LXD" } });
  });

  it("containers are only added to Alive machines", async () => {
    const model = await api.newModel();
    await addMachine(model);
    await markDying(api, model, "machines", "1");
    await api.refused("NOT_ALIVE", ADD_MACHINE, { input: { model, parent: "1", containerType: "LXD" } });
  });

  it("a machine's own constraints are validated", async () => {
    const model = await api.newModel();
    await api.refused("INVALID_CONSTRAINTS", ADD_MACHINE, { input: { model, constraints: "cores=many" } });
  });

  it("machine ids are never reused within a model", async () => {
    const model = await api.newModel();
    await addMachine(model);
    await api.store.db.execute(
      (await import("drizzle-orm")).sql`delete from machines where id = '1' and model_id = (select id from models where name = ${model})`,
    );
    expect((await addMachine(model)).id).toBe("2");
  });
});
