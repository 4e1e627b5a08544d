// Seed 004, "What We Run, and Why": constraints are captured when a unit is
// created, and a machine made for a unit copies the unit's.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";

const api = useApi();

const machinesQuery = `query ($model: String!) {
  model(name: $model) { machines { edges { node { id jobs constraints { text mem } units { name } } } } }
}`;

async function unitMachines(model: string) {
  const data = await api.ok(machinesQuery, { model });
  return data.model.machines.edges
    .map((e: any) => e.node)
    .filter((m: any) => m.units.length > 0)
    .map((m: any) => ({ units: m.units.map((u: any) => u.name), constraints: m.constraints.text }));
}

describe("seed 004: constraints captured at unit creation", () => {
  it("deploy mem=2G, set-constraints mem=3G, add-unit -n 2: exactly one machine carries mem=2G and two carry mem=3G", async () => {
    const model = await api.newModel();
    await api.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", constraints: "mem=2G" }) { name } }`, {
      model,
    });
    await api.ok(
      `mutation ($model: String!) { setConstraints(input: { model: $model, application: "wordpress", constraints: "mem=3G" }) { text } }`,
      { model },
    );
    await api.ok(`mutation ($model: String!) { addUnit(input: { model: $model, application: "wordpress", count: 2 }) { name } }`, {
      model,
    });

    const machines = await unitMachines(model);
    expect(machines).toHaveLength(3);
    expect(machines.filter((m: any) => m.constraints === "mem=2G")).toEqual([{ units: ["wordpress/0"], constraints: "mem=2G" }]);
    expect(machines.filter((m: any) => m.constraints === "mem=3G").map((m: any) => m.units)).toEqual([["wordpress/1"], ["wordpress/2"]]);
  });

  it("every constraint not set on the application is taken from the model", async () => {
    const model = await api.newModel({ constraints: "cores=4 mem=1G" });
    await api.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql", constraints: "mem=8G" }) { name } }`, {
      model,
    });
    expect(await unitMachines(model)).toEqual([{ units: ["mysql/0"], constraints: "cores=4 mem=8G" }]);
  });

  it("an application's explicitly empty value overrides the model's", async () => {
    const model = await api.newModel({ constraints: "arch=arm64 mem=1G" });
    await api.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql", constraints: "arch=" }) { name } }`, {
      model,
    });
    expect(await unitMachines(model)).toEqual([{ units: ["mysql/0"], constraints: "arch= mem=1G" }]);
  });

  it("model constraints changed after a unit was created do not reach that unit's machine", async () => {
    const model = await api.newModel({ constraints: "mem=1G" });
    await api.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model });
    await api.ok(`mutation ($model: String!) { setConstraints(input: { model: $model, constraints: "mem=16G" }) { text } }`, { model });
    await api.ok(`mutation ($model: String!) { addUnit(input: { model: $model, application: "mysql" }) { name } }`, { model });
    expect(await unitMachines(model)).toEqual([
      { units: ["mysql/0"], constraints: "mem=1G" },
      { units: ["mysql/1"], constraints: "mem=16G" },
    ]);
  });

  it("a machine added without a unit copies the model's constraints, its own keys winning", async () => {
    const model = await api.newModel({ constraints: "cores=2 mem=4G" });
    const data = await api.ok(
      `mutation ($model: String!) { addMachine(input: { model: $model, constraints: "mem=8G" }) { id constraints { text } } }`,
      { model },
    );
    expect(data.addMachine).toEqual({ id: "1", constraints: { text: "cores=2 mem=8G" } });
  });

  it("the bootstrap machine 0 copies the model's constraints and holds JobManageModel", async () => {
    const model = await api.newModel({ constraints: "mem=4G" });
    const data = await api.ok(machinesQuery, { model });
    expect(data.model.machines.edges.map((e: any) => e.node)).toEqual([
      { id: "0", jobs: ["MANAGE_MODEL", "HOST_UNITS"], constraints: { text: "mem=4G", mem: 4096 }, units: [] },
    ]);
  });

  it("a container made for a unit takes the unit's constraints; its new host takes the model's", async () => {
    const model = await api.newModel({ constraints: "cores=1" });
    await api.ok(
      `mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql", constraints: "mem=2G", placement: ["lxd"] }) { name } }`,
      { model },
    );
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { machines { edges { node { id constraints { text } containers { id } } } } } }`,
      { model },
    );
    expect(data.model.machines.edges.map((e: any) => e.node)).toEqual([
      { id: "0", constraints: { text: "cores=1" }, containers: [] },
      { id: "1", constraints: { text: "cores=1" }, containers: [{ id: "1/lxd/0" }] },
      { id: "1/lxd/0", constraints: { text: "cores=1 mem=2G" }, containers: [] },
    ]);
  });

  it("subordinate applications cannot have constraints", async () => {
    const model = await api.newModel();
    const error = await api.refused(
      "SUBORDINATE_NOT_ALLOWED",
      `mutation ($model: String!) { deploy(input: { model: $model, charm: "logging", constraints: "mem=1G" }) { name } }`,
      { model },
    );
    expect(error.message).toMatch(/subordinate.*constraints/);
    await api.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "logging" }) { name } }`, { model });
    await api.refused(
      "SUBORDINATE_NOT_ALLOWED",
      `mutation ($model: String!) { setConstraints(input: { model: $model, application: "logging", constraints: "mem=1G" }) { text } }`,
      { model },
    );
  });
});
