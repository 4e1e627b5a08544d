// Does autovacuum's work where the server's autovacuum is off (as on this project's
// machines: `show autovacuum`), by autovacuum's own rules, checking every `intervalMs`.
//
// ANALYZE. Lifeline's statements are prepared on their connections and run with
// PostgreSQL's cached generic plans, made once and kept until a table's statistics
// change: planning each run again cost PostgreSQL as much CPU as running the statements
// (README, "Writes: benchmark"). A generic plan is only as good as the statistics it was
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

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const workDue = async () => {
    const due = await sql.unsafe<Due[]>(DUE);
    for (const { table, vacuum, analyze } of due) {
      if (stopped) return;
      // VACUUM cannot run in a transaction: each is a statement of its own, on a pooled connection.
      if (vacuum && analyze) await sql`vacuum (analyze) ${sql(table)}`;
      else if (vacuum) await sql`vacuum ${sql(table)}`;
      else await sql`analyze ${sql(table)}`;
    }
  };
  const tick = () => {
    // A failure (the database dropped or shutting down, a table dropped since it was listed)
    // leaves the next check to try again: upkeep is an optimisation, never a reason to stop.
    running = workDue()
      .catch(() => {})
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
