// The cleanup queue seed 000 says does not exist (its BUG): work that must
// follow a transaction is queued inside it and run later, in bounded batches,
// by `runCleanups` (the cleaner agent's operation). A closed list of kinds,
// each with one handler; handlers are idempotent, so two cleaners may race.
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { cleanups, models } from "../db/schema.js";
import type { ModelRow } from "./models.js";
import { transact, type Tx } from "./tx.js";

export const CleanupKinds = {
  /** Delete a removed relation's unit settings (target: relation id). */
  relationSettings: "relation-settings",
  /** Set the Alive units of a Dying application Dying, and with force schedule their forced removal (target: application). */
  dyingUnits: "dying-units",
  /** Set subordinates Dying once no Alive container-scoped relation joins them to their principals' application (target: relation id). */
  dyingSubordinates: "dying-subordinates",
  /** Force a unit Dead and remove it, keeping every reference consistent (target: unit). */
  forceUnit: "force-unit",
  /** Force a machine's units and containers away and the machine Dead (target: machine id). */
  forceMachine: "force-machine",
  /** Destroy everything in a Dying model and, once it is empty, finish it (target: model name). */
  destroyModel: "destroy-model",
} as const;
export type CleanupKind = (typeof CleanupKinds)[keyof typeof CleanupKinds];

export type CleanupRow = typeof cleanups.$inferSelect;

/** What a handler reports: finished; more to do right away; or waiting on something else (an agent) first. */
export type CleanupProgress = "done" | "more" | "waiting";

/** Rows a handler touches per transaction: never one giant transaction, never unbounded memory. */
export const CLEANUP_BATCH = 500;

export async function queueCleanup(
  tx: Tx,
  model: ModelRow,
  kind: CleanupKind,
  target: string,
  args: Record<string, unknown> = {},
  dueAt: Date = new Date(),
): Promise<void> {
  await tx.db.insert(cleanups).values({ modelId: model.id, kind, target, args, dueAt });
}

export type CleanupHandler = (tx: Tx, model: ModelRow, cleanup: CleanupRow) => Promise<CleanupProgress>;

export interface CleanupReport {
  /** Handler transactions run. */
  batches: number;
  /** Cleanups finished and deleted. */
  finished: number;
  /** Cleanups still queued for the model(s), due or not. */
  remaining: number;
}

/**
 * Runs due cleanups, oldest first, one bounded transaction per batch, until
 * each is done or waiting, or `maxBatches` is spent.
 */
export async function runCleanups(
  db: Database,
  handlers: Record<CleanupKind, CleanupHandler>,
  options: { modelId?: string; maxBatches?: number } = {},
): Promise<CleanupReport> {
  const maxBatches = options.maxBatches ?? 10_000;
  const scope = options.modelId ? eq(cleanups.modelId, options.modelId) : undefined;
  const report: CleanupReport = { batches: 0, finished: 0, remaining: 0 };
  // Cleanups queued by this run's own work (a model's destruction queues its applications') run in it too.
  for (let after = 0; report.batches < maxBatches; ) {
    const due = await db
      .select()
      .from(cleanups)
      .where(and(scope, gt(cleanups.id, after), lte(cleanups.dueAt, sql`now()`)))
      .orderBy(asc(cleanups.id))
      .limit(100);
    if (!due.length) break;
    after = due.at(-1)!.id;
    for (const queued of due) {
      for (let progress: CleanupProgress = "more"; progress === "more" && report.batches < maxBatches; ) {
        report.batches++;
        progress = await transact(db, async (tx) => {
          // The model first, as every writer does (tx.ts); then the queue row afresh: another cleaner
          // may have finished it, and its args carry progress.
          const [model] = await tx.db.select().from(models).where(eq(models.id, queued.modelId)).for("update");
          const [cleanup] = await tx.db.select().from(cleanups).where(eq(cleanups.id, queued.id));
          if (!cleanup || !model) return "done";
          const handler = handlers[cleanup.kind as CleanupKind];
          if (!handler) throw new Error(`cleanup ${cleanup.id}: unknown kind "${cleanup.kind}"`);
          const result = await handler(tx, model, cleanup);
          if (result === "done") await tx.db.delete(cleanups).where(eq(cleanups.id, cleanup.id));
          return result;
        });
        if (progress === "done") report.finished++;
      }
    }
  }
  const [left] = await db.select({ n: sql<number>`count(*)::int` }).from(cleanups).where(scope);
  report.remaining = left?.n ?? 0;
  return report;
}

/** Saves a handler's progress (a keyset cursor, say) on its queue row for the next batch. */
export async function saveCleanupProgress(tx: Tx, cleanup: CleanupRow, args: Record<string, unknown>): Promise<void> {
  await tx.db.update(cleanups).set({ args: { ...cleanup.args, ...args } }).where(eq(cleanups.id, cleanup.id));
}
