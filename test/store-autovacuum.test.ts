// Where the server's autovacuum is off, the store does its work (src/db/autovacuum.ts): it
// analyzes a table once autovacuum would have, so cached generic plans are made from real
// statistics, and vacuums it once autovacuum would have, so a churned table's dead rows are
// reclaimed. These specs watch it on tables of a schema of their own, which no other store's
// autovacuum sees.
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Autovacuum, runAutovacuum } from "../src/db/autovacuum.js";
import { onPostgres } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const DEADLINE_MS = scaled(20_000);

describe.skipIf(!onPostgres)("autovacuum where the server's is off (PostgreSQL only)", () => {
  const schema = `stats_${process.pid}_${Date.now().toString(36)}`;
  let admin: postgres.Sql;
  let sql: postgres.Sql;
  let autovacuum: Autovacuum | undefined;

  beforeAll(async () => {
    admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create schema ${schema}`);
    sql = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { search_path: schema } });
  });
  afterEach(async () => {
    await autovacuum?.stop();
    autovacuum = undefined;
  });
  afterAll(async () => {
    await sql.end();
    await admin.unsafe(`drop schema ${schema} cascade`);
    await admin.end();
  });

  const tableCounts = async (table: string) => {
    // A backend reports its table counts up to a second after its transaction ends; a fresh snapshot each time.
    await admin`select pg_stat_clear_snapshot()`;
    const [row] = await admin<{ analyzed: Date | null; vacuumed: Date | null; dead: number }[]>`
      select last_analyze as analyzed, last_vacuum as vacuumed, n_dead_tup::int as dead
      from pg_stat_user_tables where schemaname = ${schema} and relname = ${table}`;
    return row;
  };
  const lastAnalyzed = async (table: string) => (await tableCounts(table))?.analyzed ?? null;
  type Counts = NonNullable<Awaited<ReturnType<typeof tableCounts>>>;
  /** Polls the table's counts until `holds` (said as `what` at the deadline). */
  const waitForCounts = async (table: string, what: string, holds: (counts: Counts) => boolean) => {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const counts = await tableCounts(table);
      if (counts && holds(counts)) return;
      if (Date.now() > deadline) throw new Error(`${table} was not ${what} within ${DEADLINE_MS} ms: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const waitUntil = (table: string, what: "analyzed" | "vacuumed") => waitForCounts(table, what, (counts) => counts[what] !== null);
  const pages = async (table: string) => {
    const [row] = await admin<{ pages: number }[]>`select (pg_relation_size(${`${schema}.${table}`}::regclass) / 8192)::int as pages`;
    return row!.pages;
  };

  it("a plan cached while the table was nearly empty is made again once the table has grown past autovacuum's threshold", async () => {
    // The shape of the fault it fixes: units keyed by (model, name), with a second index led by the model,
    // and rows as wide as a unit's (the wider the row, the fewer rows a never-analyzed table is guessed to hold).
    await sql.unsafe(`create table units (
      model_id uuid not null, name text not null, seq bigserial not null, application text, number int, principal text,
      machine_id text, series text, constraints jsonb, status text, message text, data jsonb, primary key (model_id, name))`);
    await sql.unsafe(`create index units_seq_idx on units (model_id, seq)`);
    await sql.unsafe(`create table few (id int primary key)`);
    const model = "00000000-0000-4000-8000-000000000001";
    const session = await sql.reserve();
    try {
      await session.unsafe("set plan_cache_mode = force_generic_plan");
      await session.unsafe("prepare unit_named(uuid, text) as update units set seq = seq where model_id = $1 and name = $2");
      const plan = async () =>
        (await session.unsafe<{ "QUERY PLAN": string }[]>(`explain execute unit_named('${model}', 'app/1')`))
          .map((row) => row["QUERY PLAN"])
          .join("\n");
      // With no statistics every condition is estimated to match one row: the model's whole seq index looks as cheap as the key.
      expect(await plan()).toContain("units_seq_idx");

      await sql`insert into units (model_id, name) select ${model}, 'app/' || n from generate_series(1, 2000) as n`;
      await sql`insert into few (id) select n from generate_series(1, 10) as n`;
      autovacuum = await runAutovacuum(sql, { intervalMs: 20, always: true });
      await waitUntil("units", "analyzed");

      expect(await plan()).toContain("units_pkey");
      // Ten changed rows are under autovacuum's threshold (50 + 10% of the table): left alone in the same pass.
      expect(await lastAnalyzed("few")).toBeNull();
    } finally {
      session.release();
    }
  });

  it("a table whose dead rows pass autovacuum's threshold (50 + 20% of the table) is vacuumed, so their space is used again", async () => {
    await sql.unsafe("create table churned (id int primary key, payload text not null)");
    const fill = () => sql`insert into churned (id, payload) select n, repeat('x', 200) from generate_series(1, 1000) as n`;
    await fill();
    const filled = await pages("churned");
    await sql`delete from churned`;
    await sql`insert into few (id) values (11)`;
    await sql`delete from few where id = 11`;
    // The deleting backend reports its counts up to a second later: reported after the VACUUM, they would count the
    // rows it removed as dead again (seen once in CI: dead 1000 after the VACUUM). So the counts are in first.
    await waitForCounts("churned", "counted with its dead rows", (counts) => counts.dead >= 1000);

    autovacuum = await runAutovacuum(sql, { intervalMs: 20, always: true });
    await waitUntil("churned", "vacuumed");
    expect((await tableCounts("churned"))?.dead).toBe(0);
    await fill();
    // Without the vacuum the second thousand rows would have gone after the first's dead ones.
    expect(await pages("churned")).toBeLessThanOrEqual(filled);
    // One dead row is under the threshold: left alone in the same passes.
    expect((await tableCounts("few"))?.vacuumed).toBeNull();
  });
});
