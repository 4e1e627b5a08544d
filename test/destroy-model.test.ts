// `juju destroy-model`: the model becomes Dying; the cleaner destroys what is
// in it; the model is Dead once only its manager machine was left.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, DEPLOY, deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();
const DESTROY = `mutation ($name: String!, $force: Boolean! = false) { destroyModel(name: $name, force: $force) }`;

describe("destroy-model", () => {
  it("an empty model is Dead after one cleanup run; its name is free again", async () => {
    const model = await api.newModel();
    expect((await api.ok(DESTROY, { name: model })).destroyModel).toBe("DYING");
    expect((await api.ok(DESTROY, { name: model })).destroyModel).toBe("UNCHANGED");
    await lifecycle(api, model).runCleanups();
    const status = await lifecycle(api, model).status();
    expect(status.life).toBe("DEAD");
    expect(status.machines).toEqual({});
    await api.ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name life } }`, { name: model });
  });

  it("nothing can be added to a Dying model", async () => {
    const model = await api.newModel();
    await api.ok(DESTROY, { name: model });
    await api.refused("NOT_ALIVE", DEPLOY, { input: { model, charm: "wordpress" } });
  });

  it("destroys applications and machines (even with containers), then waits for the agents, showing what it waits for", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    await integrate(api, model, "wordpress", "mysql");
    await api.ok(ADD_MACHINE, { input: { model } });
    await api.ok(ADD_MACHINE, { input: { model, parent: "2", containerType: "LXD" } });
    const l = lifecycle(api, model);
    await api.ok(DESTROY, { name: model });
    await l.runCleanups();
    let status = await l.status();
    expect(status.life).toBe("DYING");
    expect(status.applications.mysql).toBeUndefined();
    expect(status.applications.wordpress.life).toBe("DYING");
    expect(status.units["wordpress/0"].life).toBe("DYING");
    expect(status.machines["2"].life).toBe("DYING");
    expect(status.blockers.map((b: any) => b.kind)).toEqual(["APPLICATIONS", "MACHINES", "PENDING_CLEANUP"]);

    // The agents do their part.
    await l.retire("wordpress/0", []);
    for (const id of ["1", "2/lxd/0"]) {
      await l.removeMachine([id]);
      await l.setMachineDead(id);
      await l.removeDeadMachine(id);
    }
    await l.setMachineDead("2");
    await l.removeDeadMachine("2");
    await l.runCleanups();
    status = await l.status();
    expect(status.life).toBe("DEAD");
  });

  it("with force, units and machines are forced away too", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 2 });
    const l = lifecycle(api, model);
    await api.ok(DESTROY, { name: model, force: true });
    await l.runCleanups();
    await l.runCleanups();
    const status = await l.status();
    expect(status.units).toEqual({});
    expect(Object.values(status.machines).map((m: any) => [m.id, m.life])).toEqual([
      ["0", "ALIVE"],
      ["1", "DEAD"],
      ["2", "DEAD"],
    ]);
  });
});
