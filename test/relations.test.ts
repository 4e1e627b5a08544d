// Relations (seed 001 "Relations"; seed 003 and 004 for container scope):
// `integrate` with Juju's endpoint inference.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_CHARM, deploy, INTEGRATE, integrate, markDying } from "./support/fixtures.js";

const api = useApi();

async function modelWith(...charms: (string | Record<string, unknown>)[]) {
  const model = await api.newModel();
  for (const charm of charms) await deploy(api, model, typeof charm === "string" ? { charm, numUnits: 0 } : { numUnits: 0, ...charm });
  return model;
}

describe("integrate", () => {
  it("infers the endpoints when exactly one pair matches, keyed requirer first", async () => {
    const model = await modelWith("wordpress", "mysql");
    const relation = await integrate(api, model, "wordpress", "mysql");
    expect(relation).toMatchObject({ key: "wordpress:db mysql:db", scope: "GLOBAL", interface: "mysql", life: "ALIVE" });
    expect(relation.endpoints).toEqual(
      expect.arrayContaining([
        { applicationName: "wordpress", name: "db", role: "REQUIRER", scope: "GLOBAL" },
        { applicationName: "mysql", name: "db", role: "PROVIDER", scope: "GLOBAL" },
      ]),
    );
  });

  it("gives the same canonical key whichever side is named first", async () => {
    const model = await modelWith("wordpress", "mysql");
    expect((await integrate(api, model, "mysql:db", "wordpress")).key).toBe("wordpress:db mysql:db");
  });

  it("no two relations with the same canonical key can exist", async () => {
    const model = await modelWith("wordpress", "mysql");
    await integrate(api, model, "wordpress", "mysql");
    const error = await api.refused("ALREADY_EXISTS", INTEGRATE, { input: { model, endpoints: ["mysql", "wordpress:db"] } });
    expect(error.message).toContain('relation "wordpress:db mysql:db" already exists');
  });

  it("the key stays taken while the relation is Dying", async () => {
    const model = await modelWith("wordpress", "mysql");
    const relation = await integrate(api, model, "wordpress", "mysql");
    await markDying(api, model, "relations", String(relation.id));
    const error = await api.refused("ALREADY_EXISTS", INTEGRATE, { input: { model, endpoints: ["wordpress", "mysql"] } });
    expect(error.message).toContain("dying until removed");
  });

  it("lists the candidates when several pairs match", async () => {
    const model = await api.newModel();
    await api.ok(ADD_CHARM, {
      input: { model, metadata: "name: twodb\nseries: [jammy]\nrequires:\n  primary: mysql\n  replica: mysql\n" },
    });
    await deploy(api, model, { charm: "twodb", numUnits: 0 });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    const error = await api.refused("AMBIGUOUS_RELATION", INTEGRATE, { input: { model, endpoints: ["twodb", "mysql"] } });
    expect(error.message).toContain('"twodb:primary mysql:db", "twodb:replica mysql:db"');
    expect(error.extensions?.candidates).toEqual(["twodb:primary mysql:db", "twodb:replica mysql:db"]);
    expect((await integrate(api, model, "twodb:replica", "mysql")).key).toBe("twodb:replica mysql:db");
  });

  it("refuses when no pair matches, listing both sides' endpoints", async () => {
    const model = await modelWith("wordpress", "rsyslog");
    const error = await api.refused("NO_MATCHING_RELATION", INTEGRATE, { input: { model, endpoints: ["wordpress", "rsyslog"] } });
    expect(error.message).toMatch(/wordpress:db \(requirer mysql\)/);
  });

  it("an application cannot be related to itself", async () => {
    const model = await modelWith("wordpress");
    await api.refused("NO_MATCHING_RELATION", INTEGRATE, { input: { model, endpoints: ["wordpress", "wordpress"] } });
  });

  it("a named endpoint the charm lacks is refused with the ones it has", async () => {
    const model = await modelWith("wordpress", "mysql");
    const error = await api.refused("NOT_FOUND", INTEGRATE, { input: { model, endpoints: ["wordpress:database", "mysql"] } });
    expect(error.message).toContain('application "wordpress" has no relation "database" (it has: website, db, cache, juju-info)');
  });

  it("the implicit juju-info endpoint counts only when nothing else matches", async () => {
    const model = await modelWith("logging", "rsyslog");
    expect((await integrate(api, model, "logging", "rsyslog")).key).toBe("logging:logs rsyslog:logs");
  });

  it("a subordinate's container-scoped requirer relates to a principal's juju-info; the relation is container-scoped", async () => {
    const model = await modelWith("wordpress", "logging");
    const relation = await integrate(api, model, "logging", "wordpress");
    expect(relation).toMatchObject({ key: "logging:info wordpress:juju-info", scope: "CONTAINER", interface: "juju-info" });
    expect(relation.endpoints.map((e: any) => e.scope)).toEqual(["CONTAINER", "CONTAINER"]);
  });

  it("container-scoped relations are only created between applications of the same series", async () => {
    const model = await modelWith({ charm: "wordpress", series: "focal" }, "logging");
    const error = await api.refused("SERIES_MISMATCH", INTEGRATE, { input: { model, endpoints: ["logging", "wordpress"] } });
    expect(error.message).toContain("their series must match");
  });

  it("global relations may join applications of different series", async () => {
    const model = await modelWith({ charm: "wordpress", series: "focal" }, "mysql");
    await integrate(api, model, "wordpress", "mysql");
  });

  it("a container-scoped relation needs a subordinate on one side", async () => {
    const model = await api.newModel();
    await api.ok(ADD_CHARM, {
      input: { model, metadata: "name: sidecar\nseries: [jammy]\nrequires:\n  host:\n    interface: juju-info\n    scope: container\n" },
    });
    await deploy(api, model, { charm: "sidecar", numUnits: 0 });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    await api.refused("INVALID_RELATION", INTEGRATE, { input: { model, endpoints: ["sidecar", "mysql"] } });
  });

  it("relations are only added to Alive applications", async () => {
    const model = await modelWith("wordpress", "mysql");
    await markDying(api, model, "applications", "mysql");
    const error = await api.refused("NOT_ALIVE", INTEGRATE, { input: { model, endpoints: ["wordpress", "mysql"] } });
    expect(error.message).toBe('application "mysql" is dying: nothing can be added to it');
  });

  it("counts the relation on both applications", async () => {
    const model = await modelWith("wordpress", "mysql");
    await integrate(api, model, "wordpress", "mysql");
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { applications { edges { node { name relationCount } } } } }`,
      {
        model,
      },
    );
    expect(data.model.applications.edges.map((e: any) => e.node)).toEqual([
      { name: "wordpress", relationCount: 1 },
      { name: "mysql", relationCount: 2 },
    ]);
  });

  it("takes exactly two endpoints, each app or app:relation", async () => {
    const model = await modelWith("wordpress", "mysql");
    await api.refused("INVALID_ARGUMENT", INTEGRATE, { input: { model, endpoints: ["wordpress"] } });
    await api.refused("INVALID_ARGUMENT", INTEGRATE, { input: { model, endpoints: ["wordpress", "mysql", "mysql"] } });
    await api.refused("INVALID_ID", INTEGRATE, { input: { model, endpoints: ["wordpress:db:x", "mysql"] } });
    await api.refused("INVALID_ID", INTEGRATE, { input: { model, endpoints: ["wordpress:", "mysql"] } });
  });

  it("is looked up by id or by key", async () => {
    const model = await modelWith("wordpress", "mysql");
    const { id, key } = await integrate(api, model, "wordpress", "mysql");
    const data = await api.ok(
      `query ($model: String!, $id: Int!, $key: String!) { model(name: $model) { byId: relation(id: $id) { key } byKey: relation(key: $key) { id } } }`,
      { model, id, key },
    );
    expect(data.model).toEqual({ byId: { key }, byKey: { id } });
  });
});
