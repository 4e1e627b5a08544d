// A machine agent's stream opens with its machine and the containers nested in it (machineLife). Its snapshot must
// read those rows by their keys, however many machines the model has and whatever the table's statistics say: a model
// deployed at once is read before autovacuum has analyzed its rows, and the generic plan PostgreSQL keeps for a
// prepared statement then read every machine of the model for each agent's snapshot (10,000 agents: 10,000 times up
// to 10,000 rows). The rows read are the backend's own counts for the table, before and after, in one transaction.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { machineLife, machineUnits } from "../src/changes/watchers.js";
import { rowsOf, type Store } from "../src/db/connect.js";
import { machines, models, units } from "../src/db/schema.js";
import { addMachine, addModel, deploy } from "../src/model/index.js";
import { onPostgres, openPrivateTestStore, uniqueName } from "./support/store.js";

/** Enough machines (and units) that reading a table's pages costs the planner more than a lookup by key. */
const MACHINES = 5000;

/** The rows of `table` the transaction has read so far (by index or scan): the backend's counts, reported at its end. */
const rowsReadIn = async (tx: Pick<Store["db"], "execute">, table: string) =>
  rowsOf<{ n: number }>(
    await tx.execute(
      sql`select (pg_stat_get_xact_tuples_fetched(${table}::regclass) + pg_stat_get_xact_tuples_returned(${table}::regclass))::int as n`,
    ),
  )[0]!.n;

describe.skipIf(!onPostgres)("a machine agent's snapshot in a model its statistics do not know yet (PostgreSQL only)", () => {
  let store: Store;
  const model = uniqueName("snapshot-reads");
  let modelId: string;
  let parent: string;
  let nested: string[];

  beforeAll(async () => {
    store = await openPrivateTestStore();
    await addModel(store.db, { name: model });
    [{ id: modelId }] = (await store.db.select({ id: models.id }).from(models).where(eq(models.name, model))) as [{ id: string }];
    // Statistics made while only another model had machines: the planner takes this one for an empty model from then on.
    const other = uniqueName("other");
    await addModel(store.db, { name: other });
    for (let i = 0; i < 3; i++) await addMachine(store.db, { model: other });
    await store.db.execute(sql`analyze ${machines}`);
    parent = (await addMachine(store.db, { model })).id;
    const lxd = await addMachine(store.db, { model, parent, containerType: "lxd" });
    const inner = await addMachine(store.db, { model, parent: lxd.id, containerType: "lxd" });
    nested = [lxd.id, inner.id];
    // The rest of a big deployment's machines, as its first machine's row (their ids past any addMachine gives here).
    await store.db.execute(sql`
      insert into ${machines} (model_id, id, seq, series, jobs, constraints, status_since)
      select model_id, (1000 + n)::text, seq + 1000 + n, series, jobs, constraints, status_since
      from ${machines}, generate_series(1, ${MACHINES}) as n where model_id = ${modelId} and id = ${parent}`);
  });
  afterAll(() => store.close());

  /**
   * machineLife's snapshot of `machine`, and the machine rows it read from the table (by index or scan): the backend's
   * counts before and after it, in one transaction (they are not reported, and so not reset, until it ends).
   */
  const snapshotOf = (machine: string, plan: "custom" | "generic") =>
    store.db.transaction(async (tx) => {
      // A server's statements are prepared: past their fifth run PostgreSQL may plan them once for any values.
      await tx.execute(sql.raw(`set local plan_cache_mode = force_${plan}_plan`));
      const before = await rowsReadIn(tx, "machines");
      const events = await machineLife(machine).snapshot(tx, modelId, 1000, "snapshot", (reads) => reads);
      return { entities: events.map((e) => e.entity), rowsRead: (await rowsReadIn(tx, "machines")) - before };
    });

  for (const plan of ["custom", "generic"] as const) {
    it(`reads its machine and every container nested in it, and nothing of the model's other machines (${plan} plan)`, async () => {
      const { entities, rowsRead } = await snapshotOf(parent, plan);
      expect(entities).toEqual([parent, ...nested]);
      // Each row found by its key once: the machine, its container, the container in that (an index entry and a row each).
      expect(rowsRead).toBeLessThanOrEqual(2 * (1 + nested.length));
    });

    it(`reads a machine with no containers alone, however many machines its model has (${plan} plan)`, async () => {
      const { entities, rowsRead } = await snapshotOf("1001", plan);
      expect(entities).toEqual(["1001"]);
      expect(rowsRead).toBeLessThanOrEqual(2);
    });
  }
});

// The machine agent's other stream opens with the units on its machine and their subordinates (machineUnits). Asked as
// "the units whose principal is in (the units on this machine)", a plan made from statistics that did not know the
// model's units walked every unit of the model by its principal index and looked each one's principal up (on a PGlite
// store filling up: 18 ms a snapshot at 1,000 units).
describe.skipIf(!onPostgres)("a machine agent's units snapshot in a table never analyzed (PostgreSQL only)", () => {
  let store: Store;
  const model = uniqueName("units-reads");
  let modelId: string;
  let machine: string;
  let unit: string;

  beforeAll(async () => {
    store = await openPrivateTestStore();
    await addModel(store.db, { name: model });
    [{ id: modelId }] = (await store.db.select({ id: models.id }).from(models).where(eq(models.name, model))) as [{ id: string }];
    await deploy(store.db, { model, charm: "memcached", application: "cache", numUnits: 1 });
    [{ name: unit, machine }] = (await store.db
      .select({ name: units.name, machine: units.machineId })
      .from(units)
      .where(eq(units.modelId, modelId))) as [{ name: string; machine: string }];
    // The rest of a big deployment's units, not yet placed (their numbers past any deploy gives here).
    await store.db.execute(sql`
      insert into ${units} (model_id, name, seq, application, number, series, constraints)
      select model_id, 'cache/' || (1000 + n), seq + 1000 + n, application, 1000 + n, series, constraints
      from ${units}, generate_series(1, ${MACHINES}) as n where model_id = ${modelId} and name = ${unit}`);
    // As a store filling up finds the table before its first ANALYZE (a fresh PGlite's, every store's new model's
    // rows): no statistics, no row count. (The test database's owner is a superuser.)
    await store.db.execute(sql`delete from pg_statistic where starelid = ${"units"}::regclass`);
    await store.db.execute(sql`update pg_class set reltuples = -1, relpages = 0 where oid = ${"units"}::regclass`);
  });
  afterAll(() => store.close());

  const snapshotOf = (plan: "custom" | "generic") =>
    store.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local plan_cache_mode = force_${plan}_plan`));
      const before = await rowsReadIn(tx, "units");
      const events = await machineUnits(machine).snapshot(tx, modelId, 1000, "snapshot", (reads) => reads);
      return { entities: events.map((e) => e.entity), rowsRead: (await rowsReadIn(tx, "units")) - before };
    });

  for (const plan of ["custom", "generic"] as const)
    it(`reads the units on its machine, and nothing of the model's other units (${plan} plan)`, async () => {
      const { entities, rowsRead } = await snapshotOf(plan);
      expect(entities).toEqual([unit]);
      // The principal found by the machine's index, twice (its own read, and the subordinates' read's), an index entry
      // and a row each; no subordinate.
      expect(rowsRead).toBeLessThanOrEqual(4);
    });
});
