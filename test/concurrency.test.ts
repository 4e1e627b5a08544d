// Concurrent creates end in one of the serial outcomes: SERIALIZABLE
// transactions, retried on serialization failure (docs/decisions.md, "Store and write path").
// On PostgreSQL these run on parallel connections; on PGlite they queue.
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { useApi } from "./support/api.js";
import { ADD_UNIT, DEPLOY, deploy, INTEGRATE } from "./support/fixtures.js";

const api = useApi();

describe("concurrent creates", () => {
  it("racing deploys of one name: exactly one wins, the rest get ALREADY_EXISTS", async () => {
    const model = await api.newModel();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.request(DEPLOY, { input: { model, charm: "mysql", application: "db", numUnits: 1 } })),
    );
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.flatMap((r) => r.errors ?? []).map((e) => e.extensions?.code)).toEqual(Array(7).fill("ALREADY_EXISTS"));
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { units { edges { node { name } } } machines { edges { node { id } } } } }`,
      {
        model,
      },
    );
    expect(data.model.units.edges.map((e: any) => e.node.name)).toEqual(["db/0"]);
    expect(data.model.machines.edges.map((e: any) => e.node.id)).toEqual(["0", "1"]);
  });

  it("racing addUnit calls number units and machines without gaps or repeats, and count them all", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api.request(ADD_UNIT, { input: { model, application: "wordpress", count: 2 } })),
    );
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
    const names = results
      .flatMap((r) => r.data.addUnit.map((u: any) => u.name))
      .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `wordpress/${i}`));
    const machines = results.flatMap((r) => r.data.addUnit.map((u: any) => Number(u.machine.id))).sort((a, b) => a - b);
    expect(machines).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const data = await api.ok(`query ($model: String!) { model(name: $model) { application(name: "wordpress") { unitCount } revision } }`, {
      model,
    });
    expect(data.model.application.unitCount).toBe(20);
  });

  it("racing integrate calls for one relation: one relation, counted once on each side", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.request(INTEGRATE, { input: { model, endpoints: i % 2 ? ["wordpress", "mysql"] : ["mysql", "wordpress"] } }),
      ),
    );
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.flatMap((r) => r.errors ?? []).map((e) => e.extensions?.code)).toEqual(Array(5).fill("ALREADY_EXISTS"));
    const data = await api.ok(
      `query ($model: String!) { model(name: $model) { applications { edges { node { name relationCount } } } } }`,
      { model },
    );
    expect(data.model.applications.edges.map((e: any) => e.node.relationCount)).toEqual([1, 2]);
  });

  it("the model's revision equals the number of change rows after concurrent writes", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await Promise.all(Array.from({ length: 8 }, () => api.request(ADD_UNIT, { input: { model, application: "wordpress" } })));
    const { sql } = await import("drizzle-orm");
    const rows = await api.store.db.execute(
      sql`select m.revision::int as revision, count(c.*)::int as count, max(c.revision)::int as max
          from models m join changes c on c.model_id = m.id where m.name = ${model} group by m.revision`,
    );
    const [row] = rowsOf<{ revision: number; count: number; max: number }>(rows);
    expect(row).toBeDefined();
    expect(row!.count).toBe(row!.revision);
    expect(row!.max).toBe(row!.revision);
  });
});
