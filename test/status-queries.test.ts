// Reading a model the way `juju status` does: paginated connections and
// batch loading, so a page of units costs a handful of queries, not one per row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/db/connect.js";
import { addModel, addUnit, deploy, ensureAdminToken, enterScope, integrate, leaveScope } from "../src/model/index.js";
import { createYogaApp } from "../src/server/app.js";
import { memoryStore } from "./support/pglite-template.js";
import { ADMIN_TOKEN, adminHeaders, onPostgres, uniqueName } from "./support/store.js";

let store: Store;
let queries = 0;
const statements: string[] = [];
let yoga: ReturnType<typeof createYogaApp>;
const model = uniqueName();

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const response = await yoga.fetch("http://lifeline.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders },
    body: JSON.stringify({ query, variables }),
  });
  const result = (await response.json()) as { data?: any; errors?: unknown[] };
  expect(result.errors).toBeUndefined();
  return result.data;
}

beforeAll(async () => {
  store = await openStore({
    ...(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 4 } : await memoryStore()),
    // A token's use, written at most once a minute off the request's path (src/model/sessions.ts noteUse), is no page's cost.
    onQuery: (query) => {
      if (query.startsWith('update "credentials"')) return;
      queries++;
      statements.push(query);
    },
  });
  yoga = createYogaApp(store);
  await ensureAdminToken(store.db, ADMIN_TOKEN);
  await addModel(store.db, { name: model });
  // 30 and 20 units in calls of 10: PGlite takes 10 a call (MAX_UNITS_PER_REQUEST_IN_PROCESS).
  await deploy(store.db, { model, charm: "wordpress", numUnits: 10 });
  for (let i = 0; i < 2; i++) await addUnit(store.db, { model, application: "wordpress", count: 10 });
  await deploy(store.db, { model, charm: "mysql", numUnits: 10 });
  await addUnit(store.db, { model, application: "mysql", count: 10 });
  await deploy(store.db, { model, charm: "logging" });
  await integrate(store.db, { model, endpoints: ["wordpress", "mysql"] });
  await integrate(store.db, { model, endpoints: ["logging", "wordpress"] });
});
afterAll(() => store?.close());

const STATUS = `query ($model: String!, $first: Int, $after: String) {
  model(name: $model) {
    units(first: $first, after: $after) {
      edges { cursor node { name life application { name series charm { url } relations { key } } machine { id series units { name } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

describe("status queries", () => {
  it("a page of 50 units with their applications, charms, relations and machines costs a bounded number of queries", async () => {
    queries = 0;
    const data = await gql(STATUS, { model, first: 50 });
    expect(data.model.units.edges).toHaveLength(50);
    // model, units page, applications, charms, relations, machines, units per machine: one batch each.
    expect(queries, `${queries} queries`).toBeLessThanOrEqual(8);
  });

  it("pages through units with cursors, in creation order, without gaps or repeats", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const data: any = await gql(STATUS, { model, first: 7, after });
      seen.push(...data.model.units.edges.map((e: any) => e.node.name));
      if (!data.model.units.pageInfo.hasNextPage) break;
      after = data.model.units.pageInfo.endCursor;
    }
    const expected = [...Array.from({ length: 30 }, (_, i) => `wordpress/${i}`), ...Array.from({ length: 20 }, (_, i) => `mysql/${i}`)];
    expect(seen).toEqual(expected);
  });

  it("pages backwards with last/before", async () => {
    const data = await gql(
      `query ($model: String!) { model(name: $model) { units(last: 3) { edges { node { name } } pageInfo { hasPreviousPage } } } }`,
      {
        model,
      },
    );
    expect(data.model.units.edges.map((e: any) => e.node.name)).toEqual(["mysql/17", "mysql/18", "mysql/19"]);
    expect(data.model.units.pageInfo.hasPreviousPage).toBe(true);
  });

  it("filters units by application", async () => {
    const data = await gql(
      `query ($model: String!) { model(name: $model) { units(application: "mysql", first: 100) { edges { node { name } } } } }`,
      {
        model,
      },
    );
    expect(data.model.units.edges).toHaveLength(20);
  });

  it("answers the questions juju status does: machines, applications with endpoints and counts, relations", async () => {
    const data = await gql(
      `query ($model: String!) { model(name: $model) {
        machines(first: 2) { edges { node { id life series jobs status { current } units { name } } } }
        applications { edges { node { name life subordinate unitCount relationCount endpoints { name role interface scope } } } }
        relations { edges { node { id key scope life unitCount endpoints { applicationName role } } } }
      } }`,
      { model },
    );
    expect(data.model.machines.edges.map((e: any) => e.node)).toEqual([
      { id: "0", life: "ALIVE", series: "jammy", jobs: ["MANAGE_MODEL", "HOST_UNITS"], status: { current: "pending" }, units: [] },
      { id: "1", life: "ALIVE", series: "jammy", jobs: ["HOST_UNITS"], status: { current: "pending" }, units: [{ name: "wordpress/0" }] },
    ]);
    expect(data.model.applications.edges.map((e: any) => [e.node.name, e.node.unitCount, e.node.relationCount])).toEqual([
      ["wordpress", 30, 2],
      ["mysql", 20, 2],
      ["logging", 0, 1],
    ]);
    expect(data.model.relations.edges.map((e: any) => e.node.key)).toEqual([
      "mysql:cluster",
      "wordpress:db mysql:db",
      "logging:info wordpress:juju-info",
    ]);
  });
});

describe("subordinates in a status page", () => {
  it("show on their principals' machines, read for the whole page at once: as many queries for 20 subordinates as for 1", async () => {
    const status = (name: string) =>
      gql(
        `query ($model: String!) { model(name: $model) { units(first: 100) { edges { node { name principal { name machine { id } } machine { id } } } } } }`,
        { model: name },
      );
    const withSubordinates = async (count: number) => {
      const name = uniqueName();
      await addModel(store.db, { name });
      await deploy(store.db, { model: name, charm: "wordpress", numUnits: Math.min(count, 10) });
      if (count > 10) await addUnit(store.db, { model: name, application: "wordpress", count: count - 10 });
      await deploy(store.db, { model: name, charm: "logging" });
      const relation = await integrate(store.db, { model: name, endpoints: ["logging", "wordpress"] });
      for (let i = 0; i < count; i++)
        await enterScope(store.db, { model: name, relation: relation.id, unit: `wordpress/${i}`, privateAddress: "10.0.0.1" });
      statements.length = 0;
      const data = await status(name);
      // The credentials' check is remembered for a second, so it comes or not whatever the page holds.
      return {
        units: data.model.units.edges.map((e: any) => e.node),
        queries: statements.filter((q) => !q.includes('"credentials"')).length,
      };
    };
    const one = await withSubordinates(1);
    const twenty = await withSubordinates(20);
    const subordinates = twenty.units.filter((u: any) => u.principal !== null);
    expect(subordinates).toHaveLength(20);
    for (const u of subordinates) {
      expect(u.machine).not.toBeNull();
      expect(u.machine).toEqual(u.principal.machine);
    }
    expect(twenty.queries, `${one.queries} queries for one subordinate, ${twenty.queries} for twenty`).toBe(one.queries);
  });
});

describe("a unit's agent state", () => {
  it("relationsInScope lists the relations whose scope the unit is in, and only those (what its agent must still depart)", async () => {
    const inScope = async () =>
      (await gql(`query ($model: String!) { model(name: $model) { unit(name: "mysql/3") { relationsInScope { id key } } } }`, { model }))
        .model.unit.relationsInScope;
    const ids = Object.fromEntries(
      (
        await gql(`query ($model: String!) { model(name: $model) { relations { edges { node { id key } } } } }`, { model })
      ).model.relations.edges.map((e: any) => [e.node.key, e.node.id]),
    );
    expect(await inScope()).toEqual([]);
    await enterScope(store.db, { model, relation: ids["wordpress:db mysql:db"], unit: "mysql/3", privateAddress: "10.0.0.3" });
    await enterScope(store.db, { model, relation: ids["mysql:cluster"], unit: "mysql/3", privateAddress: "10.0.0.3" });
    await enterScope(store.db, { model, relation: ids["wordpress:db mysql:db"], unit: "wordpress/3", privateAddress: "10.0.0.4" });
    expect(await inScope()).toEqual([
      { id: ids["mysql:cluster"], key: "mysql:cluster" },
      { id: ids["wordpress:db mysql:db"], key: "wordpress:db mysql:db" },
    ]);
    await leaveScope(store.db, { model, relation: ids["mysql:cluster"], unit: "mysql/3" });
    expect(await inScope()).toEqual([{ id: ids["wordpress:db mysql:db"], key: "wordpress:db mysql:db" }]);
  });
});
