// Prepared statements run with PostgreSQL's cached generic plans, which are only as good as
// the statistics they were made from (src/db/statistics.ts). Where autovacuum is off, the
// keeper analyzes a table once autovacuum would have: these specs watch it do so on
// tables of a schema of their own, which no other store's keeper sees.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepStatistics, type StatisticsKeeper } from "../src/db/statistics.js";
import { onPostgres } from "./support/store.js";

const DEADLINE_MS = 20_000;

describe.skipIf(!onPostgres)("statistics for cached plans (PostgreSQL only; PGlite plans every statement as it runs)", () => {
  const schema = `stats_${process.pid}_${Date.now().toString(36)}`;
  let admin: postgres.Sql;
  let sql: postgres.Sql;
  let keeper: StatisticsKeeper | undefined;

  beforeAll(async () => {
    admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create schema ${schema}`);
    sql = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {}, connection: { search_path: schema } });
  });
  afterAll(async () => {
    await keeper?.stop();
    await sql.end();
    await admin.unsafe(`drop schema ${schema} cascade`);
    await admin.end();
  });

  const lastAnalyzed = async (table: string) => {
    const [row] = await admin<{ at: Date | null }[]>`
      select last_analyze as at from pg_stat_user_tables where schemaname = ${schema} and relname = ${table}`;
    return row?.at ?? null;
  };
  const waitUntilAnalyzed = async (table: string) => {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      // A backend reports its table counts up to a second after its transaction ends.
      if (await admin`select pg_stat_clear_snapshot()`.then(() => lastAnalyzed(table))) return;
      if (Date.now() > deadline) throw new Error(`${table} was not analyzed within ${DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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
      keeper = await keepStatistics(sql, { intervalMs: 20, always: true });
      await waitUntilAnalyzed("units");

      expect(await plan()).toContain("units_pkey");
      // Ten changed rows are under autovacuum's threshold (50 + 10% of the table): left alone in the same pass.
      expect(await lastAnalyzed("few")).toBeNull();
    } finally {
      session.release();
    }
  });
});
