// The age bound of hook history (issue 35): runs outlive their unit (retire-hook-runs.ts), and each unit name keeps
// its latest HOOK_RUNS_KEPT as new ones begin (hook-runs.ts); what is older than the configured days goes too, pruned
// on a timer in bounded batches, as the change log is compacted (src/changes/retention.ts).
import { sql } from "drizzle-orm";
import { loggerFor } from "../core/log.js";
import type { Database } from "../db/connect.js";
import { hookRuns } from "../db/schema.js";

export interface HookHistoryOptions {
  /** Ended runs that began longer ago than this go (their juju-log lines with them). */
  days: number;
  /** The most runs one statement deletes, so none holds its locks for long. */
  batch: number;
}

/** LIFELINE_HOOK_HISTORY_DAYS sets `days` (src/server/config.ts). */
export const defaultHookHistory: HookHistoryOptions = { days: 7, batch: 1000 };

/**
 * One batch of runs older than the bound: never one still running, nor a living unit's latest (what the HOOK snapshot
 * shows, so a stream and a fresh snapshot agree). Returns how many went.
 */
async function pruneBatch(db: Database, options: HookHistoryOptions): Promise<number> {
  const gone = await db
    .delete(hookRuns)
    .where(
      sql`${hookRuns.id} in (
        select old.id from ${hookRuns} old
        where old.started_at < now() - make_interval(days => ${options.days})
          and old.result <> 'running'
          and (old.unit_removed_at is not null or exists (
            select 1 from ${hookRuns} newer where newer.model_id = old.model_id and newer.unit = old.unit and newer.id > old.id))
        order by old.started_at
        limit ${options.batch})`,
    )
    .returning({ id: hookRuns.id });
  return gone.length;
}

/** Prunes hook history older than the bound, batch by batch, until none is left; returns how many runs went. */
export async function pruneHookHistory(db: Database, options: HookHistoryOptions = defaultHookHistory): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await pruneBatch(db, options);
    total += gone;
    if (gone < options.batch) return total;
  }
}

/** Prunes on a timer until stopped. Several processes may: a run deleted twice is deleted once. */
export function startHookHistoryPruner(db: Database, options: HookHistoryOptions, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => pruneHookHistory(db, options))
      .catch((error) => loggerFor("hook-history").error({ err: error }, "pruning failed (will retry)"));
  }, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
