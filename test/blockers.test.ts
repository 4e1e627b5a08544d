// "Why is it still here?" Every entity that is Dying says what still holds it.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

describe("blockers", () => {
  it("Alive entities have none", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const status = await lifecycle(api, model).status();
    expect([status.units["wordpress/0"].blockers, status.machines["1"].blockers, status.applications.wordpress.blockers]).toEqual([
      [],
      [],
      [],
    ]);
  });

  it("a Dying unit names the relations whose scope it is in and its subordinates", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "logging" });
    const rel = await integrate(api, model, "logging", "wordpress");
    const l = lifecycle(api, model);
    await l.enter(rel.id, "wordpress/0");
    await l.removeUnit(["wordpress/0"]);
    expect((await l.status()).units["wordpress/0"].blockers).toEqual([
      {
        kind: "IN_SCOPE",
        message: `in the scope of relation ${rel.id} "${rel.key}": its unit agent must leave them`,
        entities: [String(rel.id)],
      },
      { kind: "SUBORDINATES", message: "subordinates logging/0 must be removed first", entities: ["logging/0"] },
    ]);
  });

  it("a Dying unit nothing holds is waiting for its agent; a Dead one for its deployer", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const l = lifecycle(api, model);
    await l.removeUnit(["wordpress/0"]);
    expect((await l.status()).units["wordpress/0"].blockers).toEqual([
      { kind: "AGENT", message: "waiting for its unit agent to set it Dead (or remove it with force)", entities: ["wordpress/0"] },
    ]);
    await l.setUnitDead("wordpress/0");
    expect((await l.status()).units["wordpress/0"].blockers).toEqual([
      { kind: "AGENT", message: "Dead: waiting for the machine agent of machine 1 to remove it", entities: ["1"] },
    ]);
  });

  it("a Dying machine names its assigned principals and its containers", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await api.ok(ADD_MACHINE, { input: { model, parent: "1", containerType: "LXD" } });
    const l = lifecycle(api, model);
    await l.removeMachine(["1"], { force: true, maxWait: 3600 });
    const blockers = (await l.status()).machines["1"].blockers;
    expect(blockers.map((b: any) => [b.kind, b.entities])).toEqual([
      ["ASSIGNED_UNITS", ["wordpress/0"]],
      ["CONTAINERS", ["1/lxd/0"]],
      ["PENDING_CLEANUP", []],
    ]);
  });

  it("a Dying application names its remaining units and relations, and its pending cleanup", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 2 });
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    const l = lifecycle(api, model);
    await l.enter(rel.id, "mysql/0");
    await l.removeApplication(["wordpress"]);
    const blockers = (await l.status()).applications.wordpress.blockers;
    expect(blockers.map((b: any) => [b.kind, b.entities])).toEqual([
      ["UNITS", ["wordpress/0", "wordpress/1"]],
      ["RELATIONS", [String(rel.id)]],
      ["PENDING_CLEANUP", []],
    ]);
    expect(blockers[1].message).toContain(`${rel.id} "${rel.key}" (1 unit(s) in scope)`);
  });

  it("a queued cleanup shows only on the entity of the kind it targets: machine 1 never shows relation 1's, nor relation 1 machine 1's", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "mysql" }); // machine 1; relation 0, mysql's peer relation
    await deploy(api, model, { charm: "haproxy" }); // machine 2; relation 1, haproxy's peer relation
    const l = lifecycle(api, model);
    const peer = (await l.status()).relations["haproxy:peer"];
    expect(peer.id).toBe(1);
    await l.removeMachine(["1"], { force: true, maxWait: 3600 }); // queues force-machine "1"
    await l.enter(1, "haproxy/0");
    await l.removeApplication(["haproxy"]); // a peer relation goes only with its application
    const status = await l.status();
    expect(status.relations["haproxy:peer"].blockers.map((b: any) => b.kind)).toEqual(["UNITS_IN_SCOPE"]);
    expect(status.machines["1"].blockers.map((b: any) => [b.kind, b.message])).toEqual([
      ["ASSIGNED_UNITS", expect.any(String)],
      ["PENDING_CLEANUP", expect.stringContaining('"force-machine"')],
    ]);
  });

  it("a queued cleanup shows only on the entity of the kind it targets: an application never shows its namesake model's", async () => {
    const letters = Math.random()
      .toString(36)
      .replace(/[^a-z]/g, "")
      .padEnd(8, "x")
      .slice(0, 8);
    const model = `same-${letters}`;
    await api.ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
    await deploy(api, model, { charm: "wordpress", application: model });
    const l = lifecycle(api, model);
    await l.removeApplication([model]);
    await l.runCleanups(); // its units become Dying
    await api.ok(`mutation ($name: String!) { destroyModel(name: $name) }`, { name: model }); // queues destroy-model "<model>"
    const status = await l.status();
    expect(status.blockers.map((b: any) => b.kind)).toContain("PENDING_CLEANUP");
    expect(status.applications[model].blockers.map((b: any) => b.kind)).toEqual(["UNITS"]);
  });

  it("a Dying relation names the units still in its scope", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    const l = lifecycle(api, model);
    await l.enter(rel.id, "wordpress/0");
    await l.enter(rel.id, "mysql/0");
    await l.removeRelation([String(rel.id)]);
    expect((await l.status()).relations[rel.key].blockers).toEqual([
      {
        kind: "UNITS_IN_SCOPE",
        message: "units mysql/0, wordpress/0 are in its scope; it is removed when the last one leaves",
        entities: ["mysql/0", "wordpress/0"],
      },
    ]);
  });
});
