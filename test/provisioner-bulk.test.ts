// The provisioner's bulk calls (issue 11: "bulk forms of the agent mutations; Juju's
// agent API takes a list of entities in every call"): issueMachinesCredentials,
// setMachinesProvisioned and removeDeadMachines do for several machines, in one
// transaction, what their single forms do for one. All or nothing: the first refusal, in the order named,
// refuses the call and nothing changes.
import { describe, expect, it } from "vitest";
import { MAX_MACHINES_A_CALL } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { ADD_MACHINE } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const ISSUE = `mutation ($input: AgentMachinesInput!) { issueMachinesCredentials(input: $input) { tag token } }`;
const RECORD = `mutation ($input: MachinesProvisionedInput!) { setMachinesProvisioned(input: $input) { id instanceId } }`;
const REMOVE = `mutation ($input: MachineTargetsInput!) { removeDeadMachines(input: $input) }`;
const STATUS = `mutation ($input: MachineStatusInput!) { setMachineStatus(input: $input) { id } }`;
const MACHINES = `query ($model: String!) { model(name: $model) { revision machines(first: 100) { edges { node { id instanceId } } } } }`;

/** A model with machines 1 to `count`, none provisioned. */
async function scene(count = 3) {
  const model = await api.newModel();
  for (let i = 0; i < count; i++) await api.ok(ADD_MACHINE, { input: { model } });
  const state = async () => {
    const m = (await api.ok(MACHINES, { model })).model;
    return { revision: m.revision, instances: Object.fromEntries(m.machines.edges.map((e: any) => [e.node.id, e.node.instanceId])) };
  };
  return { model, state, l: lifecycle(api, model) };
}

describe("issueMachinesCredentials", () => {
  it("issues each machine's agent a fresh secret, in the order named; each works as its own machine's agent", async () => {
    const { model } = await scene();
    const issued = (await api.ok(ISSUE, { input: { model, machines: ["3", "1"] } })).issueMachinesCredentials;
    expect(issued.map((c: any) => c.tag)).toEqual(["machine-3", "machine-1"]);
    for (const [machine, { token }] of [
      ["3", issued[0]],
      ["1", issued[1]],
    ] as const) {
      const result = await api.requestAs(token, STATUS, { input: { model, machine, status: "STARTED" } });
      expect(result.errors).toBeUndefined();
      expect(result.data?.setMachineStatus).toEqual({ id: machine });
    }
  });

  it("refuses them all, changing nothing, when one is Dead (NOT_ALIVE): the others' secrets stay as they were", async () => {
    const { model, l } = await scene();
    const [before] = (await api.ok(ISSUE, { input: { model, machines: ["1"] } })).issueMachinesCredentials;
    await l.setMachineDead("2");
    expect((await api.refused("NOT_ALIVE", ISSUE, { input: { model, machines: ["1", "2"] } })).extensions).toMatchObject({ id: "2" });
    const still = await api.requestAs(before.token, STATUS, { input: { model, machine: "1", status: "STARTED" } });
    expect(still.errors).toBeUndefined();
  });
});

describe("setMachinesProvisioned", () => {
  it("records each machine's instance, in the order named", async () => {
    const { model, state } = await scene();
    const recorded = (
      await api.ok(RECORD, {
        input: {
          model,
          machines: [
            { machine: "2", instanceId: "i-2" },
            { machine: "1", instanceId: "i-1" },
          ],
        },
      })
    ).setMachinesProvisioned;
    expect(recorded).toEqual([
      { id: "2", instanceId: "i-2" },
      { id: "1", instanceId: "i-1" },
    ]);
    expect((await state()).instances).toEqual({ "0": null, "1": "i-1", "2": "i-2", "3": null });
  });

  it("refuses them all, changing nothing, when one has its instance already (ALREADY_PROVISIONED)", async () => {
    const { model, state } = await scene();
    await api.ok(RECORD, { input: { model, machines: [{ machine: "2", instanceId: "i-2" }] } });
    const before = await state();
    const machines = [
      { machine: "1", instanceId: "i-1" },
      { machine: "2", instanceId: "i-2b" },
      { machine: "3", instanceId: "i-3" },
    ];
    expect((await api.refused("ALREADY_PROVISIONED", RECORD, { input: { model, machines } })).extensions).toMatchObject({
      instanceId: "i-2",
    });
    expect(await state()).toEqual(before);
  });
});

describe("removeDeadMachines", () => {
  it("removes each Dead machine, in the order named: true for each", async () => {
    const { model, state, l } = await scene();
    await l.setMachineDead("3");
    await l.setMachineDead("1");
    expect((await api.ok(REMOVE, { input: { model, machines: ["3", "1"] } })).removeDeadMachines).toEqual([true, true]);
    expect(Object.keys((await state()).instances)).toEqual(["0", "2"]);
  });

  it("refuses them all, changing nothing, when one is not Dead (NOT_DEAD) or not there (NOT_FOUND)", async () => {
    const { model, state, l } = await scene();
    await l.setMachineDead("1");
    const before = await state();
    expect((await api.refused("NOT_DEAD", REMOVE, { input: { model, machines: ["1", "2"] } })).message).toMatch(/machine 2 is alive/);
    expect((await api.refused("NOT_FOUND", REMOVE, { input: { model, machines: ["1", "9"] } })).extensions).toMatchObject({ id: "9" });
    await api.refused("INVALID_ARGUMENT", REMOVE, { input: { model, machines: ["1", "1"] } });
    expect(await state()).toEqual(before);
  });
});

describe("refusals of the list itself, changing nothing", () => {
  it("no machine, more than the most a call takes, or one named twice: INVALID_ARGUMENT; the first missing machine named: NOT_FOUND", async () => {
    const { model, state } = await scene();
    const before = await state();
    const issue = (code: string, machines: string[]) => api.refused(code, ISSUE, { input: { model, machines } });
    await issue("INVALID_ARGUMENT", []);
    const many = Array.from({ length: MAX_MACHINES_A_CALL + 1 }, (_, i) => String(i + 1));
    expect((await issue("INVALID_ARGUMENT", many)).message).toMatch(`at most ${MAX_MACHINES_A_CALL} machines a call`);
    expect((await issue("INVALID_ARGUMENT", ["1", "2", "1"])).message).toMatch(/named twice/);
    expect((await issue("NOT_FOUND", ["1", "8", "9"])).extensions).toMatchObject({ id: "8" });
    const record = (machines: { machine: string; instanceId: string }[]) =>
      api.refused("INVALID_ARGUMENT", RECORD, { input: { model, machines } });
    await record([]);
    await record([{ machine: "1", instanceId: "not an id" }]);
    expect(await state()).toEqual(before);
  });
});
