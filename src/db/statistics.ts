// Keeps the planner's statistics current where the server's autovacuum is off.
//
// Lifeline's statements are prepared on their connections and run with PostgreSQL's
// cached generic plans, made once and kept until a table's statistics change: planning
// each run again cost PostgreSQL as much CPU as running the statements (README, "Writes:
// benchmark"). A generic plan is only as good as the statistics it was made from. A
// table never analyzed estimates one row for any condition, so every index looks as good
// as any other: "update the unit named X in model M" was planned as a walk of the
// model's units in seq order, filtered by name, and with 22,000 units in the model each
// such update read them all. Autovacuum analyzes a table once
// `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × reltuples` of its
// rows have changed since it was last analyzed, and the plans are then made again. Where
// autovacuum is off (as on this project's machines: `show autovacuum`), the keeper applies
// that same rule to the database's tables itself, checking every `intervalMs`.
import type postgres from "postgres";

export interface StatisticsKeeper {
  /** Stops checking; resolves once an ANALYZE under way has finished. */
  stop(): Promise<void>;
}

export interface KeeperOptions {
  /** How often the tables' change counts are read, in ms. */
  intervalMs?: number;
  /** Keep them even where autovacuum is on (tests). */
  always?: boolean;
}

/** Tables of the current schema whose changes since their last ANALYZE pass autovacuum's threshold. */
const DUE = `
  select s.relname as table
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.schemaname = current_schema()
    and s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
      + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)`;

export async function keepStatistics(sql: postgres.Sql, options: KeeperOptions = {}): Promise<StatisticsKeeper> {
  const { intervalMs = 1000, always = false } = options;
  const [setting] = await sql.unsafe<{ autovacuum: string }[]>("select current_setting('autovacuum') as autovacuum");
  if (setting?.autovacuum === "on" && !always) return { stop: async () => {} };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const analyzeDue = async () => {
    const due = await sql.unsafe<{ table: string }[]>(DUE);
    for (const { table } of due) {
      if (stopped) return;
      await sql`analyze ${sql(table)}`;
    }
  };
  const tick = () => {
    // A failure (the database dropped or shutting down, a table dropped since it was listed)
    // leaves the next check to try again: statistics are an optimisation, never a reason to stop.
    running = analyzeDue()
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
