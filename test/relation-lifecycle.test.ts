// Seed 000 "juju remove-relation", seed 001 "Relations", seed 002 (scopes)
// and seed 003 (container scope and subordinates).
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { units } from "../src/db/schema.js";
import { modelNamed } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { deploy, integrate, snapshot } from "./support/fixtures.js";
import { ENTER_SCOPE, lifecycle, REMOVE_RELATION } from "./support/lifecycle.js";

const api = useApi();

async function wordpressAndMysql(units = 1) {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: units });
  await deploy(api, model, { charm: "mysql", numUnits: units });
  const relation = await integrate(api, model, "wordpress", "mysql");
  return { model, relation, l: lifecycle(api, model) };
}

const settingsOf = (model: string, relation: number, unit: string) =>
  api
    .ok(
      `query ($model: String!, $id: Int!, $unit: String!) { model(name: $model) { relation(id: $id) { settings(unit: $unit) { version values { key value } } } } }`,
      {
        model,
        id: relation,
        unit,
      },
    )
    .then((d) => d.model.relation?.settings);

describe("entering and leaving scope", () => {
  it("entering writes the unit's private-address (and ingress-address) in the same transaction that records membership", async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0", "10.1.2.3");
    expect(await settingsOf(model, relation.id, "wordpress/0")).toEqual({
      version: 1,
      values: [
        { key: "ingress-address", value: "10.1.2.3" },
        { key: "private-address", value: "10.1.2.3" },
      ],
    });
    expect((await l.status()).relations[relation.key]).toMatchObject({ unitCount: 1, members: [{ unitName: "wordpress/0" }] });
  });

  it("entering again is a no-op", async () => {
    const { relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0");
    await l.enter(relation.id, "wordpress/0");
    expect((await l.status()).relations[relation.key].unitCount).toBe(1);
  });

  it("only Alive units enter only Alive relations", async () => {
    const { model, relation, l } = await wordpressAndMysql(2);
    await l.removeUnit(["wordpress/0"]);
    await api.refused("NOT_ALIVE", ENTER_SCOPE, {
      input: { model, relation: relation.id, unit: "wordpress/0", privateAddress: "10.0.0.1" },
    });
    await l.enter(relation.id, "mysql/0");
    await l.removeRelation([String(relation.id)]);
    await api.refused("NOT_ALIVE", ENTER_SCOPE, {
      input: { model, relation: relation.id, unit: "wordpress/1", privateAddress: "10.0.0.1" },
    });
  });

  it("a unit of an application outside the relation cannot enter it", async () => {
    const { model, relation } = await wordpressAndMysql();
    await deploy(api, model, { charm: "memcached" });
    await api.refused("INVALID_RELATION", ENTER_SCOPE, {
      input: { model, relation: relation.id, unit: "memcached/0", privateAddress: "10.0.0.1" },
    });
  });

  it("a unit's settings outlive its departure from scope", async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0", "10.9.9.9");
    await l.leave(relation.id, "wordpress/0");
    expect((await settingsOf(model, relation.id, "wordpress/0")).values).toContainEqual({ key: "private-address", value: "10.9.9.9" });
  });

  it("leaving a scope the unit is not in is a no-op: the relation's count stays", async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "mysql/0");
    const before = await snapshot(api, model);
    expect(await l.leave(relation.id, "wordpress/0")).toEqual({ relationRemoved: false });
    expect(await snapshot(api, model)).toEqual(before);
    expect((await l.status()).relations[relation.key].unitCount).toBe(1);
  });
});

describe("remove-relation", () => {
  it('"When a relation is destroyed with no units in scope, it will immediately become Dead and be removed"; both relation counts drop', async () => {
    const { relation, l } = await wordpressAndMysql();
    expect(await l.removeRelation([String(relation.id)])).toEqual([{ id: String(relation.id), outcome: "REMOVED" }]);
    const status = await l.status();
    expect(status.relations[relation.key]).toBeUndefined();
    expect(status.applications.wordpress.relationCount).toBe(0);
    expect(status.applications.mysql.relationCount).toBe(1);
  });

  it('"If any unit is in scope, set the relation to Dying"', async () => {
    const { relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0");
    expect(await l.removeRelation([relation.key])).toEqual([{ id: relation.key, outcome: "DYING" }]);
    expect((await l.status()).relations[relation.key].life).toBe("DYING");
  });

  it('"If the relation is not Alive, abort without error"', async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0");
    await l.removeRelation(["wordpress mysql"]);
    const before = await snapshot(api, model);
    expect(await l.removeRelation(["wordpress mysql"])).toEqual([{ id: "wordpress mysql", outcome: "UNCHANGED" }]);
    expect(await snapshot(api, model)).toEqual(before);
  });

  it('"The Dying relation\'s document is finally removed in the same transaction in which the last unit leaves its scope"', async () => {
    const { relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0");
    await l.enter(relation.id, "mysql/0");
    await l.removeRelation([String(relation.id)]);
    expect(await l.leave(relation.id, "wordpress/0")).toEqual({ relationRemoved: false });
    expect(await l.leave(relation.id, "mysql/0")).toEqual({ relationRemoved: true });
    const status = await l.status();
    expect(status.relations[relation.key]).toBeUndefined();
    expect([status.applications.wordpress.relationCount, status.applications.mysql.relationCount]).toEqual([0, 1]);
  });

  it("the last unit leaving removes a Dying counterpart application that nothing else holds", async () => {
    const { relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "mysql/0");
    await l.removeApplication(["wordpress"]);
    await l.runCleanups();
    await l.retire("wordpress/0", []);
    expect((await l.status()).applications.wordpress).toMatchObject({ life: "DYING", unitCount: 0 });
    await l.leave(relation.id, "mysql/0");
    expect((await l.status()).applications.wordpress).toBeUndefined();
  });

  it("relations are named by id, key, or Juju's endpoints; an ambiguous name lists the candidates", async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await deploy(api, model, { charm: "memcached" });
    await integrate(api, model, "wordpress", "memcached");
    const error = await api.refused("AMBIGUOUS_RELATION", REMOVE_RELATION, { input: { model, relations: ["wordpress"] } });
    expect(error.extensions?.candidates).toEqual(["wordpress:db mysql:db", "wordpress:cache memcached:cache"]);
    await api.refused("NOT_FOUND", REMOVE_RELATION, { input: { model, relations: ["wordpress rsyslog"] } });
    expect(await l.removeRelation(["mysql:db wordpress"])).toEqual([{ id: "mysql:db wordpress", outcome: "REMOVED" }]);
    expect((await l.status()).relations[relation.key]).toBeUndefined();
  });
});

describe("peer relations", () => {
  // "juju deploy" gives mysql its peer relation "mysql:cluster"; both units are in its scope.
  async function mysqlPeers() {
    const model = await api.newModel();
    await deploy(api, model, { charm: "mysql", numUnits: 2 });
    const l = lifecycle(api, model);
    const peer = (await l.status()).relations["mysql:cluster"];
    await l.enter(peer.id, "mysql/0");
    await l.enter(peer.id, "mysql/1");
    return { model, peer, l };
  }

  it.each([
    ["by id", false],
    ["by id", true],
    ["by key", false],
    ["by key", true],
  ])(
    'removeRelation refuses a peer relation named %s (force: %s): it goes only with its application (Juju: "is a peer relation"); nothing changes',
    async (naming, force) => {
      const { model, peer } = await mysqlPeers();
      const before = await snapshot(api, model);
      const target = naming === "by id" ? String(peer.id) : peer.key;
      const error = await api.refused("PEER_RELATION", REMOVE_RELATION, { input: { model, relations: [target], force } });
      expect(error.message).toContain(`"mysql:cluster" is a peer relation`);
      expect(error.message).toContain(`remove application "mysql"`);
      expect(error.extensions).toMatchObject({ id: peer.id, key: "mysql:cluster", application: "mysql" });
      expect(await snapshot(api, model)).toEqual(before);
    },
  );

  it("removeApplication still takes its peer relation: Dying while its units are in scope, removed as the last one leaves", async () => {
    const { peer, l } = await mysqlPeers();
    expect(await l.removeApplication(["mysql"])).toEqual([{ id: "mysql", outcome: "DYING" }]);
    expect((await l.status()).relations["mysql:cluster"].life).toBe("DYING");
    await l.runCleanups();
    await l.retire("mysql/0", [peer.id]);
    await l.retire("mysql/1", [peer.id]);
    const status = await l.status();
    expect(status.relations["mysql:cluster"]).toBeUndefined();
    expect(status.applications.mysql).toBeUndefined();
  });

  it("removeApplication with force removes its peer relation at once, members and all", async () => {
    const { l } = await mysqlPeers();
    await l.removeApplication(["mysql"], { force: true });
    expect((await l.status()).relations["mysql:cluster"]).toBeUndefined();
  });
});

describe("container scope and subordinates", () => {
  async function loggingOnWordpress(units = 1) {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: units });
    await deploy(api, model, { charm: "logging" });
    const relation = await integrate(api, model, "logging", "wordpress");
    return { model, relation, l: lifecycle(api, model) };
  }

  it("a principal entering a container-scoped relation creates its subordinate unit, sharing its container", async () => {
    const { model, relation, l } = await loggingOnWordpress(2);
    expect(await l.enter(relation.id, "wordpress/1")).toEqual({
      member: { unitName: "wordpress/1", role: "PROVIDER", container: "wordpress/1" },
      subordinateCreated: { name: "logging/0" },
    });
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { unit(name: "logging/0") { subordinate series principal { name } } } }`,
      { model },
    );
    expect(data.model.unit).toEqual({ subordinate: true, series: "jammy", principal: { name: "wordpress/1" } });
    expect(await l.enter(relation.id, "logging/0")).toMatchObject({ member: { container: "wordpress/1" } });
    expect((await l.status()).applications.logging.unitCount).toBe(1);
  });

  it("a subordinate answers its principal's machine, as juju status shows it there, though its own row names none", async () => {
    const { model, relation, l } = await loggingOnWordpress(2);
    await l.enter(relation.id, "wordpress/1");
    const unit = (name: string) => `${name.replace("/", "_")}: unit(name: "${name}") { machine { id } }`;
    const data = await api.ok(`query ($model: String!) { model(name: $model) { ${unit("wordpress/1")} ${unit("logging/0")} } }`, { model });
    expect(data.model.logging_0.machine).toEqual(data.model.wordpress_1.machine);
    expect(data.model.logging_0.machine).not.toBeNull();
    // "we don't assign the subordinate unit a machine id" (seed 003): the model's rules read the row, which keeps none.
    const [row] = await api.store.db
      .select({ machineId: units.machineId })
      .from(units)
      .where(and(eq(units.modelId, (await modelNamed(api.store.db, model)).id), eq(units.name, "logging/0")));
    expect(row).toEqual({ machineId: null });
  });

  it("one subordinate per principal, however often the principal enters", async () => {
    const { relation, l } = await loggingOnWordpress();
    await l.enter(relation.id, "wordpress/0");
    await l.leave(relation.id, "wordpress/0");
    expect((await l.enter(relation.id, "wordpress/0")).subordinateCreated).toBeNull();
  });

  it("a subordinate becomes Dying when the last Alive container-scoped relation between its application and its principal's goes", async () => {
    const { relation, l } = await loggingOnWordpress();
    await l.enter(relation.id, "wordpress/0");
    await l.enter(relation.id, "logging/0");
    await l.removeRelation([String(relation.id)]);
    await l.runCleanups();
    expect((await l.status()).units["logging/0"].life).toBe("DYING");
  });

  it("destroying a global relation destroys nothing else", async () => {
    const { model, relation, l } = await loggingOnWordpress();
    await deploy(api, model, { charm: "rsyslog" });
    const logs = await integrate(api, model, "logging", "rsyslog");
    await l.enter(relation.id, "wordpress/0");
    await l.removeRelation([String(logs.id)]);
    await l.runCleanups();
    expect((await l.status()).units["logging/0"].life).toBe("ALIVE");
  });

  it("a Dying relation's members leave scope; the subordinate dies and its principal's agent removes it", async () => {
    const { relation, l } = await loggingOnWordpress();
    await l.enter(relation.id, "wordpress/0");
    await l.enter(relation.id, "logging/0");
    await l.removeRelation([String(relation.id)]);
    await l.runCleanups();
    await l.leave(relation.id, "logging/0");
    await l.setUnitDead("logging/0");
    await l.removeDeadUnit("logging/0");
    expect(await l.leave(relation.id, "wordpress/0")).toEqual({ relationRemoved: true });
    const status = await l.status();
    expect(status.units["logging/0"]).toBeUndefined();
    expect(status.applications.logging).toMatchObject({ life: "ALIVE", unitCount: 0, relationCount: 0 });
  });

  describe("a principal waits for its previous subordinate (Juju's ErrCannotEnterScopeYet)", () => {
    // logging/0 goes Dying with the container-scoped relation; the relation is removed, then made again.
    async function reintegratedBesideDyingSubordinate() {
      const { model, relation, l } = await loggingOnWordpress();
      await l.enter(relation.id, "wordpress/0");
      await l.enter(relation.id, "logging/0");
      await l.removeRelation([String(relation.id)]);
      await l.runCleanups();
      await l.leave(relation.id, "logging/0");
      await l.leave(relation.id, "wordpress/0");
      const again = await integrate(api, model, "logging", "wordpress");
      return { model, again, l };
    }
    const enterAgain = (model: string, relation: number) =>
      api.refused("CANNOT_ENTER_SCOPE_YET", ENTER_SCOPE, { input: { model, relation, unit: "wordpress/0", privateAddress: "10.0.0.1" } });

    it("a principal cannot enter a container-scoped relation while its subordinate of that application is Dying; nothing changes", async () => {
      const { model, again, l } = await reintegratedBesideDyingSubordinate();
      expect((await l.status()).units["logging/0"].life).toBe("DYING");
      const before = await snapshot(api, model);
      const error = await enterAgain(model, again.id);
      expect(error.message).toContain("its subordinate logging/0 is dying");
      expect(error.extensions).toMatchObject({ unit: "wordpress/0", subordinate: "logging/0", life: "dying" });
      expect(await snapshot(api, model)).toEqual(before);
      expect((await l.status()).relations[again.key]).toMatchObject({ unitCount: 0, members: [] });
    });

    it("nor while that subordinate is Dead", async () => {
      const { model, again, l } = await reintegratedBesideDyingSubordinate();
      await l.setUnitDead("logging/0");
      const before = await snapshot(api, model);
      expect((await enterAgain(model, again.id)).extensions).toMatchObject({ subordinate: "logging/0", life: "dead" });
      expect(await snapshot(api, model)).toEqual(before);
    });

    it("once that subordinate is removed, the principal enters and gets a fresh subordinate, the next unit number", async () => {
      const { again, l } = await reintegratedBesideDyingSubordinate();
      await l.setUnitDead("logging/0");
      await l.removeDeadUnit("logging/0");
      expect(await l.enter(again.id, "wordpress/0")).toEqual({
        member: { unitName: "wordpress/0", role: "PROVIDER", container: "wordpress/0" },
        subordinateCreated: { name: "logging/1" },
      });
      expect((await l.status()).units["logging/1"].life).toBe("ALIVE");
    });
  });

  it("a subordinate cannot enter the scope of a container relation through a principal of another application", async () => {
    const { model, relation, l } = await loggingOnWordpress();
    await deploy(api, model, { charm: "mysql" });
    const other = await integrate(api, model, "logging", "mysql");
    await l.enter(relation.id, "wordpress/0");
    await api.refused("INVALID_RELATION", ENTER_SCOPE, {
      input: { model, relation: other.id, unit: "logging/0", privateAddress: "10.0.0.1" },
    });
  });
});

describe("relation keys while Dying", () => {
  it("a relation identical to a Dying one cannot be created until it is removed", async () => {
    const { model, relation, l } = await wordpressAndMysql();
    await l.enter(relation.id, "wordpress/0");
    await l.removeRelation([String(relation.id)]);
    const integrateAgain = `mutation ($input: IntegrateInput!) { integrate(input: $input) { key } }`;
    await api.refused("ALREADY_EXISTS", integrateAgain, { input: { model, endpoints: ["wordpress", "mysql"] } });
    await l.leave(relation.id, "wordpress/0");
    expect((await api.ok(integrateAgain, { input: { model, endpoints: ["wordpress", "mysql"] } })).integrate.key).toBe(relation.key);
  });
});
