// A machine agent's stream opens with its machine and the containers nested in it (machineLife). Its snapshot must
// read those rows by their keys, however many machines the model has and whatever the table's statistics say: a model
// deployed at once is read before autovacuum has analyzed its rows, and the generic plan PostgreSQL keeps for a
// prepared statement then read every machine of the model for each agent's snapshot (10,000 agents: 10,000 times up
// to 10,000 rows). The rows read are the backend's own counts for the table, before and after, in one transaction.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { machineLife } from "../src/changes/watchers.js";
import type { Store } from "../src/db/connect.js";
import { machines, models } from "../src/db/schema.js";
import { addMachine, addModel } from "../src/model/index.js";
import { onPostgres, openPrivateTestStore, uniqueName } from "./support/store.js";

/** Enough machines that reading a table's pages costs the planner more than a lookup by key. */
const MACHINES = 5000;

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
      const rowsRead = async () =>
        (
          (await tx.execute(
            sql`select (pg_stat_get_xact_tuples_fetched(${"machines"}::regclass) + pg_stat_get_xact_tuples_returned(${"machines"}::regclass))::int as n`,
          )) as unknown as [{ n: number }]
        )[0].n;
      const before = await rowsRead();
      const events = await machineLife(machine).snapshot(tx, modelId, 1000, "snapshot", (reads) => reads);
      return { entities: events.map((e) => e.entity), rowsRead: (await rowsRead()) - before };
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
