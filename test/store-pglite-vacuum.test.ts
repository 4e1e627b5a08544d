// PGlite has no autovacuum and no table counts (pg_stat_user_tables stays at zero), so
// the store vacuums by size (src/db/autovacuum.ts): a table grown by a fifth, plus
// GROWTH_PAGES, since its last VACUUM is vacuumed and analyzed, and a table whose rows
// come and go then reuses their space instead of growing for as long as the process
// runs. PGlite is opened here whatever DATABASE_URL says: it is the default store.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GROWTH_PAGES, pgliteVacuum, runPgliteVacuum } from "../src/db/autovacuum.js";
import { scaled } from "./support/time-scale.js";

const DEADLINE_MS = scaled(20_000);
/** Rows of about 200 bytes: one batch is several times GROWTH_PAGES. */
const BATCH = 20_000;

describe("PGlite's vacuum by size", () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  beforeEach(async () => {
    await client.exec("drop table if exists churned; create table churned (id serial primary key, payload text not null)");
  });
  afterAll(async () => {
    await client.close();
  });

  const pages = async () =>
    (await client.query<{ pages: number }>("select (pg_total_relation_size('churned') / 8192)::int as pages")).rows[0]!.pages;
  /** One batch of rows comes and goes: every row it leaves is dead. */
  const churn = async () => {
    await client.exec(`insert into churned (payload) select repeat('x', 200) from generate_series(1, ${BATCH})`);
    await client.exec("delete from churned");
  };

  it("a table that has not grown past its threshold is left alone", async () => {
    const vacuum = pgliteVacuum(client);
    expect(await vacuum.round()).toEqual([]); // the first round only takes each table's size
    await client.exec("insert into churned (payload) select repeat('x', 200) from generate_series(1, 100)");
    expect(await pages()).toBeLessThan(GROWTH_PAGES);
    expect(await vacuum.round()).toEqual([]);
  });

  it("a churned table is vacuumed, and its rows' space is reused: it stops growing", async () => {
    const vacuum = pgliteVacuum(client);
    await vacuum.round();
    await churn();
    const oneBatch = await pages();
    expect(oneBatch).toBeGreaterThan(2 * GROWTH_PAGES);
    expect(await vacuum.round()).toEqual(["churned"]);
    for (let i = 0; i < 8; i++) {
      await churn();
      await vacuum.round();
    }
    // Without VACUUM each batch's dead rows keep their pages: nine batches would be about nine times one.
    expect(await pages()).toBeLessThanOrEqual(2 * oneBatch);
  });

  it("runs on its own timer", async () => {
    const keeper = runPgliteVacuum(client, { intervalMs: 20 });
    try {
      await churn();
      const grown = await pages();
      const deadline = Date.now() + DEADLINE_MS;
      // An emptied table's VACUUM truncates its heap: the size drops without another statement of ours.
      while ((await pages()) >= grown) {
        if (Date.now() > deadline) throw new Error(`not vacuumed within ${DEADLINE_MS} ms: ${grown} pages`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await keeper.stop();
    }
  });
});
