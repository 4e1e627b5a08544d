// The store bench:agents runs its server on, and what the benchmark reads of it beside the
// API. PostgreSQL by default: a database of its own on the machine's server, which the
// benchmark also reads directly (the model's write transactions, what a removal left in
// the tables) and whose single-row insert is the yardstick. BENCH_STORE=pglite: npm
// start's own default, an embedded PGlite data directory, fresh, in the server's process.
// The server alone holds it then, so the benchmark reads only what the API shows, and
// the yardstick is a single-row insert into a PGlite of the benchmark's own on the same
// disk, measured in the same run.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { PGLITE_OPTIONS } from "../src/db/connect.js";
import { MAX_UNITS_PER_REQUEST, MAX_UNITS_PER_REQUEST_IN_PROCESS } from "../src/model/index.js";
import { createBenchDatabase } from "./database.js";
import { describeCleanups } from "./leftovers.js";
import { localPostmaster } from "./machine-cpu.js";
import { measureRawInserts } from "./raw-postgres.js";

/** The runs each unit name keeps (LIFELINE_HOOK_HISTORY_PER_UNIT, as the server reads it). */
const HOOK_HISTORY_PER_UNIT = Number(process.env.LIFELINE_HOOK_HISTORY_PER_UNIT || 100);
const RAW_CONNECTIONS = 4;

export interface StoreUnderTest {
  /** "PostgreSQL" or "PGlite", as the report names it. */
  name: string;
  /** The server's environment for this store. */
  serverEnv: Record<string, string>;
  /** The most units an addUnit call takes here (MAX_UNITS_PER_REQUEST, or its in-process bound); removeMachine goes alike. */
  batch: number;
  /** PostgreSQL's postmaster pid when the server is local (its CPU is reported apart), else null. */
  postmaster: number | null;
  /** The yardstick: single-row inserts a second, and how they were made. */
  measureRawInsert(seconds: number): Promise<{ rate: number; how: string }>;
  /** Counts the model's write transactions (distinct xmin) and change rows from now until `end`; null where not read. */
  countWrites(model: string): Promise<{ end(): Promise<{ transactions: number; rows: number } | null> }>;
  /** What a removed application left in the tables after a while, or why that is not read here. */
  leftBehind(model: string, application: string, relationId: number): Promise<string>;
  /** The model's cleanups queued, for a deadline's report. */
  cleanups(model: string): Promise<string[]>;
  close(): Promise<void>;
}

export function openStoreUnderTest(dir: string): Promise<StoreUnderTest> {
  const which = process.env.BENCH_STORE ?? "postgres";
  if (which === "postgres") return onPostgres();
  if (which === "pglite") return Promise.resolve(onPglite(dir));
  throw new Error(`BENCH_STORE is postgres (the default) or pglite, not ${which}`);
}

async function onPostgres(): Promise<StoreUnderTest> {
  const database = await createBenchDatabase("agents");
  const url = database.url.toString();
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  const revisionOf = async (model: string) => {
    const [row] = await sql<{ revision: string }[]>`select revision::text from models where name = ${model}`;
    return Number(row!.revision);
  };
  const writesBetween = async (model: string, from: number, to: number) => {
    const [row] = await sql<{ transactions: number; rows: number }[]>`
      select count(distinct c.xmin::text)::int as transactions, count(*)::int as rows
      from changes c join models m on m.id = c.model_id
      where m.name = ${model} and c.revision > ${from} and c.revision <= ${to}`;
    return row!;
  };
  return {
    name: "PostgreSQL",
    serverEnv: { DATABASE_URL: url },
    batch: MAX_UNITS_PER_REQUEST,
    postmaster: await localPostmaster(sql),
    async measureRawInsert(seconds) {
      const raw = await measureRawInserts(url, RAW_CONNECTIONS, seconds);
      return { rate: raw.insertRate, how: `with ${RAW_CONNECTIONS} connections` };
    },
    async countWrites(model) {
      const from = await revisionOf(model);
      return { end: async () => writesBetween(model, from, await revisionOf(model)) };
    },
    // The stream has shown everything gone, but a cleanup queued by the last removal may still be finishing (it
    // deletes its row as it commits): looks again until nothing is left or 30 s have passed.
    async leftBehind(model, application, relationId) {
      const deadline = performance.now() + 30_000;
      for (;;) {
        const left = await leftInDatabase(sql, model, application, relationId);
        if (left === "nothing" || performance.now() > deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    cleanups: (model) => describeCleanups(sql, model),
    async close() {
      await sql.end({ timeout: 5 });
      await database.drop();
    },
  };
}

/**
 * What a removed application left in the database, beside what the stream shows: settings, scopes, agent states, hook
 * runs not retired with their unit, units whose hook history is past its bound (issue 35: removed units' runs are kept,
 * bounded), cleanups.
 */
async function leftInDatabase(sql: postgres.Sql, model: string, application: string, relationId: number): Promise<string> {
  const [row] = await sql<{ settings: number; scopes: number; states: number; runs: number; overlong: number; cleanups: number }[]>`
    select
      (select count(*)::int from relation_settings s where s.model_id = m.id and s.relation_id = ${relationId}) as settings,
      (select count(*)::int from relation_scopes s where s.model_id = m.id and s.relation_id = ${relationId}) as scopes,
      (select count(*)::int from unit_agent_states s where s.model_id = m.id and s.unit like ${`${application}/%`}) as states,
      (select count(*)::int from hook_runs h
        where h.model_id = m.id and h.unit like ${`${application}/%`} and h.unit_removed_at is null) as runs,
      (select count(*)::int from (select 1 from hook_runs h where h.model_id = m.id and h.unit like ${`${application}/%`}
        group by h.unit having count(*) > ${HOOK_HISTORY_PER_UNIT}) past) as overlong,
      (select count(*)::int from cleanups c where c.model_id = m.id) as cleanups
    from models m where m.name = ${model}`;
  const left = Object.entries(row!).filter(([, n]) => n > 0);
  return left.length ? left.map(([what, n]) => `${n} ${what}`).join(", ") : "nothing";
}

function onPglite(dir: string): StoreUnderTest {
  const unread = "not read (PGlite: the server holds the store)";
  return {
    name: "PGlite",
    serverEnv: { LIFELINE_DATA_DIR: join(dir, "pgdata") },
    batch: MAX_UNITS_PER_REQUEST_IN_PROCESS,
    postmaster: null,
    async measureRawInsert(seconds) {
      return { rate: await measureRawPgliteInserts(join(dir, "raw-pglite"), seconds), how: "into a PGlite of its own, one session" };
    },
    countWrites: async () => ({ end: async () => null }),
    leftBehind: async () => unread,
    cleanups: async () => [unread],
    close: async () => {},
  };
}

/** Sequential single-row autocommit inserts a second into a fresh PGlite data directory at `dir`, set up as the store's. */
async function measureRawPgliteInserts(dir: string, seconds: number): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, PGLITE_OPTIONS);
  try {
    await client.exec("create table bench_raw (id bigserial primary key, payload text not null, at timestamptz not null default now())");
    for (let i = 0; i < 300; i++) await client.query("insert into bench_raw (payload) values ($1)", [`warm ${i}`]);
    let count = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    while (performance.now() < deadline) {
      await client.query("insert into bench_raw (payload) values ($1)", [`rate ${count}`]);
      count++;
    }
    return count / ((performance.now() - started) / 1000);
  } finally {
    await client.close();
  }
}
