// Applications (seed 001) and series (seed 004) at deploy time.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { DEPLOY, deploy, markDying } from "./support/fixtures.js";

const api = useApi();

describe("deploy", () => {
  it("creates the application with one unit on a new machine by default", async () => {
    const model = await api.newModel();
    const app = await deploy(api, model, { charm: "wordpress" });
    expect(app).toMatchObject({ name: "wordpress", life: "ALIVE", series: "jammy", subordinate: false, unitCount: 1 });
    expect(app.units.edges.map((e: any) => e.node)).toEqual([
      { name: "wordpress/0", series: "jammy", machine: { id: "1", series: "jammy" } },
    ]);
  });

  it("deploys under a chosen application name with several units", async () => {
    const model = await api.newModel();
    const app = await deploy(api, model, { charm: "mysql", application: "db", numUnits: 3 });
    expect(app.units.edges.map((e: any) => e.node.name)).toEqual(["db/0", "db/1", "db/2"]);
  });

  it("creates one peer relation per peer endpoint of the charm, as Juju does", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { application(name: "mysql") { relations { key scope endpoints { role } } } } }`,
      {
        model,
      },
    );
    expect(data.model.application.relations).toEqual([{ key: "mysql:cluster", scope: "GLOBAL", endpoints: [{ role: "PEER" }] }]);
  });

  it("application names are unique in a model", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const error = await api.refused("ALREADY_EXISTS", DEPLOY, { input: { model, charm: "mysql", application: "wordpress" } });
    expect(error.message).toContain('application "wordpress" already exists');
  });

  it("an application name stays taken while the application of that name is Dying", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await markDying(api, model, "applications", "wordpress");
    const error = await api.refused("ALREADY_EXISTS", DEPLOY, { input: { model, charm: "wordpress" } });
    expect(error.message).toMatch(/is dying: the name is free once it is removed/);
  });

  it("the same name may be used in two models", async () => {
    const [a, b] = [await api.newModel(), await api.newModel()];
    await deploy(api, a, { charm: "wordpress" });
    await deploy(api, b, { charm: "wordpress" });
  });

  it("refuses names that break Juju's naming rules", async () => {
    const model = await api.newModel();
    for (const name of ["WordPress", "9lives", "db-1", "wp_1", "a--b", ""])
      await api.refused("INVALID_NAME", DEPLOY, { input: { model, charm: "wordpress", application: name } });
  });

  it("series is set at deploy: the charm's first series by default", async () => {
    const model = await api.newModel({ defaultSeries: "noble" });
    expect((await deploy(api, model, { charm: "wordpress" })).series).toBe("jammy");
  });

  it("series may be chosen among those the charm supports; units take their application's series", async () => {
    const model = await api.newModel();
    const app = await deploy(api, model, { charm: "wordpress", series: "focal", numUnits: 2 });
    expect(app.series).toBe("focal");
    expect(app.units.edges.map((e: any) => [e.node.series, e.node.machine.series])).toEqual([
      ["focal", "focal"],
      ["focal", "focal"],
    ]);
  });

  it('"charms for series X are only ever run on series X": an unsupported series is refused', async () => {
    const model = await api.newModel();
    const error = await api.refused("UNSUPPORTED_SERIES", DEPLOY, { input: { model, charm: "wordpress", series: "noble" } });
    expect(error.message).toContain("supported: jammy, focal");
  });

  it("a charm that names no series deploys on the model's default series", async () => {
    const model = await api.newModel({ defaultSeries: "noble" });
    await api.ok(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, {
      input: { model, metadata: "name: anyseries\nprovides:\n  web: http\n" },
    });
    expect((await deploy(api, model, { charm: "anyseries" })).series).toBe("noble");
  });

  it("series is immutable: the schema offers no way to change it", async () => {
    const data = await api.ok(`{ __type(name: "Mutation") { fields { name args { name type { name ofType { name } } } } } }`);
    const names = data.__type.fields.map((f: any) => f.name);
    expect(names.filter((n: string) => /series/i.test(n))).toEqual([]);
  });

  it("a subordinate application gets no units at deploy", async () => {
    const model = await api.newModel();
    const app = await deploy(api, model, { charm: "logging" });
    expect(app).toMatchObject({ name: "logging", subordinate: true, unitCount: 0, units: { edges: [] } });
  });

  it("a subordinate deployed with units is refused, saying why", async () => {
    const model = await api.newModel();
    const error = await api.refused("SUBORDINATE_NOT_ALLOWED", DEPLOY, { input: { model, charm: "logging", numUnits: 2 } });
    expect(error.message).toBe('subordinate application "logging" must be deployed without units');
  });

  it("deploys a charm added to the model by url", async () => {
    const model = await api.newModel();
    const added = await api.ok(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, {
      input: { model, metadata: "name: custom\nseries: [jammy]\nrequires:\n  db: mysql\n" },
    });
    expect(added.addCharm.url).toBe("local:custom-0");
    const app = await deploy(api, model, { charm: "local:custom-0", application: "mine" });
    expect(app.name).toBe("mine");
  });

  it("an unknown charm is refused with the list of bundled charms", async () => {
    const model = await api.newModel();
    const error = await api.refused("NOT_FOUND", DEPLOY, { input: { model, charm: "nosuch" } });
    expect(error.message).toMatch(/bundled charm \(.*wordpress.*\)/);
  });

  it("deploying into a model that is not Alive is refused", async () => {
    const model = await api.newModel();
    await api.store.db.execute((await import("drizzle-orm")).sql`update models set life = 'dying' where name = ${model}`);
    await api.refused("NOT_ALIVE", DEPLOY, { input: { model, charm: "wordpress" } });
  });
});
