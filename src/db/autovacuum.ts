// Does autovacuum's work where the server's autovacuum is off (as on this project's
// machines: `show autovacuum`), by autovacuum's own rules, checking every `intervalMs`.
//
// ANALYZE. Lifeline's statements are prepared on their connections and run with
// PostgreSQL's cached generic plans, made once and kept until a table's statistics
// change: planning each run again cost PostgreSQL as much CPU as running the statements
// (docs/decisions.md, "Plans and dead rows"). A generic plan is only as good as the statistics it was
// made from. A table never analyzed estimates one row for any condition, so every index
// looks as good as any other: "update the unit named X in model M" was planned as a walk
// of the model's units in seq order, filtered by name, and with 22,000 units in the model
// each such update read them all. A table is analyzed once
// `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × reltuples` of its rows
// have changed since it was last analyzed.
//
// VACUUM. Units, scopes, hook runs and credentials come and go, and every update leaves
// the row's old version behind. Nothing reclaims those dead rows but VACUUM, so without
// it a table that holds a few live rows grows without end: in `bench:writes` a lookup of
// one unit by its key read 32 buffers and a unit's delete 108 (pg_stat_statements), where
// they read 3 and 22 with autovacuum on. A table is vacuumed once its dead rows pass
// `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × reltuples`, or its rows
// inserted since its last vacuum pass the insert threshold and scale factor (which keeps
// an append-only table's visibility map set, as autovacuum does since PostgreSQL 13).
//
// PGlite has neither autovacuum (it runs PostgreSQL in single-user mode) nor the counts
// these rules read: pg_stat_user_tables stays at zero there, however many rows churn. Its
// upkeep (runPgliteVacuum) goes by the one thing it can see, a table's size on disk,
// indexes included: a table that has grown by GROWTH_FACTOR (plus GROWTH_PAGES) since its
// last VACUUM is vacuumed and analyzed. VACUUM makes the dead rows' space reusable, so a
// table whose rows come and go stops growing at about twice its live size, where without
// it every deleted row's space was kept for good.
import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";

export interface Autovacuum {
  /** Stops checking; resolves once a VACUUM or ANALYZE under way has finished. */
  stop(): Promise<void>;
}

export interface AutovacuumOptions {
  /** How often the tables' counts are read, in ms. */
  intervalMs?: number;
  /** Run even where the server's autovacuum is on (tests). */
  always?: boolean;
}

interface Due {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/** Tables of the current schema past one of autovacuum's thresholds. */
const DUE = `
  select table_name as "table", "vacuum", "analyze" from (
    select s.relname as table_name,
      s.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
          + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0)
        or s.n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
          + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * greatest(c.reltuples, 0) as "vacuum",
      s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
        + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) as "analyze"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
  ) counts
  where "vacuum" or "analyze"`;

export async function runAutovacuum(sql: postgres.Sql, options: AutovacuumOptions = {}): Promise<Autovacuum> {
  const { intervalMs = 1000, always = false } = options;
  const [setting] = await sql.unsafe<{ autovacuum: string }[]>("select current_setting('autovacuum') as autovacuum");
  if (setting?.autovacuum === "on" && !always) return { stop: async () => {} };
  return everyInterval(intervalMs, async (stopped) => {
    const due = await sql.unsafe<Due[]>(DUE);
    for (const { table, vacuum, analyze } of due) {
      if (stopped()) return;
      // VACUUM cannot run in a transaction: each is a statement of its own, on a pooled connection.
      if (vacuum && analyze) await sql`vacuum (analyze) ${sql(table)}`;
      else if (vacuum) await sql`vacuum ${sql(table)}`;
      else await sql`analyze ${sql(table)}`;
    }
  });
}

/** A table is vacuumed once its size, indexes included, has grown by this fraction since its last VACUUM… */
export const GROWTH_FACTOR = 0.2;
/** …plus this many pages (1 MiB), so that small tables are left alone. */
export const GROWTH_PAGES = 128;

/** The current schema's tables and their sizes in pages, indexes and TOAST included. */
const SIZES = `
  select c.relname as "table", (pg_total_relation_size(c.oid) / current_setting('block_size')::int)::int as pages
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = current_schema() and c.relkind = 'r'`;

/**
 * PGlite's upkeep, every `intervalMs` (default 10 s): a round of pgliteVacuum. PGlite runs one statement at a time, and
 * queues a statement behind an open transaction, so a VACUUM waits for the transactions before it and holds up those
 * after it for as long as it takes (milliseconds for the tables an ordinary model churns).
 */
export function runPgliteVacuum(client: PGlite, options: { intervalMs?: number } = {}): Autovacuum {
  const vacuum = pgliteVacuum(client);
  return everyInterval(options.intervalMs ?? 10_000, (stopped) => vacuum.round(stopped));
}

/**
 * Rounds of PGlite's upkeep: each round vacuums and analyzes the tables grown past GROWTH_FACTOR and GROWTH_PAGES since
 * their last VACUUM here (or since the first round), and resolves with their names.
 */
export function pgliteVacuum(client: PGlite): { round(stopped?: () => boolean): Promise<string[]> } {
  /** Each table's pages after its last VACUUM here, or when first seen. */
  const baseline = new Map<string, number>();
  const sizes = async () => (await client.query<{ table: string; pages: number }>(SIZES)).rows;
  return {
    async round(stopped = () => false) {
      const vacuumed: string[] = [];
      for (const { table, pages } of await sizes()) {
        const since = baseline.get(table);
        if (since === undefined) baseline.set(table, pages);
        if (since === undefined || pages <= since * (1 + GROWTH_FACTOR) + GROWTH_PAGES) continue;
        if (stopped()) break;
        await client.exec(`vacuum (analyze) "${table.replaceAll('"', '""')}"`);
        vacuumed.push(table);
      }
      // What VACUUM truncated is gone, and what it freed is reused before the table grows again: its size now.
      if (vacuumed.length) for (const { table, pages } of await sizes()) if (vacuumed.includes(table)) baseline.set(table, pages);
      return vacuumed;
    },
  };
}

/**
 * Runs `work` now and then every `intervalMs` after it ends, until stopped. A failure (the database dropped or
 * shutting down, a table dropped since it was listed) leaves the next round to try again: upkeep is an optimisation,
 * never a reason to stop.
 */
function everyInterval(intervalMs: number, work: (stopped: () => boolean) => Promise<unknown>): Autovacuum {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = work(() => stopped)
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
