// Seed 000 "juju remove-machine" and seed 001 "Machines".
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, snapshot } from "./support/fixtures.js";
import { lifecycle, REMOVE_DEAD_MACHINE, REMOVE_MACHINE, SET_MACHINE_DEAD } from "./support/lifecycle.js";

const api = useApi();

const SET_STATUS = `mutation ($input: MachineStatusInput!) { setMachineStatus(input: $input) { id } }`;
const SET_MACHINE_DEAD_STATUS = `mutation ($input: MachineTargetInput!) { setMachineDead(input: $input) { life status { current message } } }`;

async function setup() {
  const model = await api.newModel();
  return {
    model,
    l: lifecycle(api, model),
    addMachine: (input: Record<string, unknown> = {}) => api.ok(ADD_MACHINE, { input: { model, ...input } }).then((d) => d.addMachine.id),
  };
}

describe("remove-machine", () => {
  it('"Set the machine to Dying" when no units are assigned', async () => {
    const { l, addMachine } = await setup();
    const id = await addMachine();
    expect(await l.removeMachine([id])).toEqual([{ id, outcome: "DYING" }]);
    expect((await l.status()).machines[id].life).toBe("DYING");
  });

  it('"If the machine is not Alive, abort without error"', async () => {
    const { model, l, addMachine } = await setup();
    const id = await addMachine();
    await l.removeMachine([id]);
    const before = await snapshot(api, model);
    expect(await l.removeMachine([id])).toEqual([{ id, outcome: "UNCHANGED" }]);
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("the machine that holds JobManageModel can never be removed, not even with force", async () => {
    const { model } = await setup();
    for (const force of [false, true]) {
      const error = await api.refused("MACHINE_MANAGES_MODEL", REMOVE_MACHINE, { input: { model, machines: ["0"], force } });
      expect(error.message).toBe("machine 0 holds JobManageModel and can never be removed");
    }
  });

  it('"While principal units are assigned to a machine, its lifecycle cannot change and remove-machine will fail"', async () => {
    const { model } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    const before = await snapshot(api, model);
    const error = await api.refused("HAS_UNITS", REMOVE_MACHINE, { input: { model, machines: ["1"] } });
    expect(error.message).toBe("cannot remove machine 1: units wordpress/0 are assigned to it; remove them first");
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("a Dying unit still assigned keeps its machine from being removed", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await l.removeUnit(["wordpress/0"]);
    await api.refused("HAS_UNITS", REMOVE_MACHINE, { input: { model, machines: ["1"] } });
  });

  it('"When a machine has containers, remove-machine will fail, unless force is used"', async () => {
    const { model, l, addMachine } = await setup();
    const id = await addMachine();
    await addMachine({ parent: id, containerType: "LXD" });
    const error = await api.refused("HAS_CONTAINERS", REMOVE_MACHINE, { input: { model, machines: [id] } });
    expect(error.extensions?.containers).toEqual([`${id}/lxd/0`]);
    expect(await l.removeMachine([id], { force: true, maxWait: 3600 })).toEqual([{ id, outcome: "DYING" }]);
  });

  it("a container can be removed on its own", async () => {
    const { l, addMachine } = await setup();
    const id = await addMachine();
    const container = await addMachine({ parent: id, containerType: "LXD" });
    expect(await l.removeMachine([container])).toEqual([{ id: container, outcome: "DYING" }]);
  });
});

describe("a Dying machine's agent and the provisioner", () => {
  it("the machine agent sets a Dying machine Dead", async () => {
    const { l, addMachine } = await setup();
    const id = await addMachine();
    await l.removeMachine([id]);
    expect(await l.setMachineDead(id)).toEqual({ id, life: "DEAD" });
  });

  it("a started machine is stopped as it goes Dead: its agent stops with it, in the same call", async () => {
    const { model, l, addMachine } = await setup();
    const id = await addMachine();
    await api.ok(SET_STATUS, { input: { model, machine: id, status: "STARTED" } });
    await l.removeMachine([id]);
    expect((await api.ok(SET_MACHINE_DEAD_STATUS, { input: { model, machine: id } })).setMachineDead).toEqual({
      life: "DEAD",
      status: { current: "stopped", message: "" },
    });
  });

  it("a machine whose agent never reported keeps its status as it goes Dead", async () => {
    const { model, l, addMachine } = await setup();
    const id = await addMachine();
    await l.removeMachine([id]);
    expect((await api.ok(SET_MACHINE_DEAD_STATUS, { input: { model, machine: id } })).setMachineDead.status.current).toBe("pending");
  });

  it("refused (HAS_UNITS), a started machine stays started: nothing changes", async () => {
    const { model } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await api.ok(SET_STATUS, { input: { model, machine: "1", status: "STARTED" } });
    await api.refused("HAS_UNITS", SET_MACHINE_DEAD, { input: { model, machine: "1" } });
    const machine = (
      await api.ok(`query ($model: String!) { model(name: $model) { machine(id: "1") { life status { current } } } }`, { model })
    ).model.machine;
    expect(machine).toEqual({ life: "ALIVE", status: { current: "started" } });
  });

  it('"A dying machine cannot transition to dead if there are containers"', async () => {
    const { model, addMachine } = await setup();
    const id = await addMachine();
    await addMachine({ parent: id, containerType: "LXD" });
    await api.refused("HAS_CONTAINERS", SET_MACHINE_DEAD, { input: { model, machine: id } });
  });

  it("a machine with principals assigned cannot become Dead", async () => {
    const { model } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await api.refused("HAS_UNITS", SET_MACHINE_DEAD, { input: { model, machine: "1" } });
  });

  it("a machine with JobManageModel cannot become Dead", async () => {
    const { model } = await setup();
    await api.refused("MACHINE_MANAGES_MODEL", SET_MACHINE_DEAD, { input: { model, machine: "0" } });
  });

  it('the provisioner removes a Dead machine; "If the machine is not Dead, abort with an appropriate error"', async () => {
    const { model, l, addMachine } = await setup();
    const id = await addMachine();
    await l.removeMachine([id]);
    const error = await api.refused("NOT_DEAD", REMOVE_DEAD_MACHINE, { input: { model, machine: id } });
    expect(error.message).toBe(`machine ${id} is dying: only a Dead machine can be removed`);
    await l.setMachineDead(id);
    await l.removeDeadMachine(id);
    expect((await l.status()).machines[id]).toBeUndefined();
  });

  it("once its units are removed, a machine can be removed", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await l.removeUnit(["wordpress/0"]);
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    expect(await l.removeMachine(["1"])).toEqual([{ id: "1", outcome: "DYING" }]);
  });
});
