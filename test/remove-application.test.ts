// Seed 000 "juju remove-application" and seed 001 "Applications".
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { DEPLOY, deploy, integrate, snapshot } from "./support/fixtures.js";
import { lifecycle, REMOVE_APPLICATION } from "./support/lifecycle.js";

const api = useApi();

async function setup() {
  const model = await api.newModel();
  return { model, l: lifecycle(api, model) };
}

describe("remove-application", () => {
  it('"If a removed application has no units, and all its relations are eligible for immediate removal, then the application will also be removed immediately"', async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    await integrate(api, model, "wordpress", "mysql");
    expect(await l.removeApplication(["wordpress"])).toEqual([{ id: "wordpress", outcome: "REMOVED" }]);
    const status = await l.status();
    expect(status.applications.wordpress).toBeUndefined();
    expect(status.relations["wordpress:db mysql:db"]).toBeUndefined();
    // The counterpart's relation count was decremented: mysql keeps only its peer relation.
    expect(status.applications.mysql).toMatchObject({ life: "ALIVE", relationCount: 1 });
  });

  it("an application whose only relation is its own peer relation is removed at once, peer relation and all", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    expect(await l.removeApplication(["mysql"])).toEqual([{ id: "mysql", outcome: "REMOVED" }]);
    expect((await l.status()).relations).toEqual({});
  });

  it('"If the application is not alive, abort without error"', async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await l.removeApplication(["wordpress"]);
    const before = await snapshot(api, model);
    expect(await l.removeApplication(["wordpress"])).toEqual([{ id: "wordpress", outcome: "UNCHANGED" }]);
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("with units, the application becomes Dying; the cleanup makes all its units Dying", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress", numUnits: 3 });
    expect(await l.removeApplication(["wordpress"])).toEqual([{ id: "wordpress", outcome: "DYING" }]);
    expect(Object.values((await l.status()).units).map((u: any) => u.life)).toEqual(["ALIVE", "ALIVE", "ALIVE"]);
    await l.runCleanups();
    expect(Object.values((await l.status()).units).map((u: any) => u.life)).toEqual(["DYING", "DYING", "DYING"]);
  });

  it("an Alive relation with units in scope becomes Dying; one without is removed and counted off", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql" });
    await deploy(api, model, { charm: "memcached" });
    const db = await integrate(api, model, "wordpress", "mysql");
    await integrate(api, model, "wordpress", "memcached");
    await l.enter(db.id, "wordpress/0");
    await l.removeApplication(["wordpress"]);
    const status = await l.status();
    expect(status.relations["wordpress:db mysql:db"].life).toBe("DYING");
    expect(status.relations["wordpress:cache memcached:cache"]).toBeUndefined();
    // "decrement its relation count by the value of the removal counter"
    expect(status.applications.wordpress).toMatchObject({ life: "DYING", relationCount: 1 });
    expect(status.applications.memcached.relationCount).toBe(0);
    expect(status.applications.mysql.relationCount).toBe(2);
  });

  it("the name stays taken while Dying and is free once the application is removed", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await l.removeApplication(["wordpress"]);
    await api.refused("ALREADY_EXISTS", DEPLOY, { input: { model, charm: "wordpress" } });
    await l.runCleanups();
    await l.setUnitDead("wordpress/0");
    await l.removeDeadUnit("wordpress/0");
    const again = await deploy(api, model, { charm: "wordpress" });
    // Unit numbers are never reused, even for a new application of the same name.
    expect(again.units.edges.map((e: any) => e.node.name)).toEqual(["wordpress/1"]);
  });

  it("removing a subordinate application makes its units Dying through the cleanup", async () => {
    const { model, l } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "logging" });
    const rel = await integrate(api, model, "logging", "wordpress");
    await l.enter(rel.id, "wordpress/0");
    await l.enter(rel.id, "logging/0");
    await l.removeApplication(["logging"]);
    await l.runCleanups();
    const status = await l.status();
    expect(status.units["logging/0"].life).toBe("DYING");
    expect(status.relations["logging:info wordpress:juju-info"].life).toBe("DYING");
    expect(status.units["wordpress/0"].life).toBe("ALIVE");
  });

  it("unknown application names are refused and nothing changes", async () => {
    const { model } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    const before = await snapshot(api, model);
    await api.refused("NOT_FOUND", REMOVE_APPLICATION, { input: { model, applications: ["wordpress", "nosuch"] } });
    expect(await snapshot(api, model)).toEqual(before);
  });
});
