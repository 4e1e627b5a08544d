// Retention: the change log is compacted past a window, per model. A row is removed
// only when it is both more than `keepRevisions` behind the model's revision and older
// than `minAgeMs`, so a client that resumes within either bound finds every row it
// needs. The deletion and the raised `compacted_through` commit together: a reader
// either still sees the rows, or sees the floor that tells it to resync.
import { and, eq, gt, lt, lte, max, sql } from "drizzle-orm";
import { loggerFor } from "../core/log.js";
import type { Database } from "../db/connect.js";
import { changes, models } from "../db/schema.js";

export interface RetentionOptions {
  /** Revisions of each model's log that are always kept. */
  keepRevisions: number;
  /** Rows younger than this are always kept, however busy the model. */
  minAgeMs: number;
  /** The most rows one compaction transaction deletes, so it never holds the model's row lock for long. */
  batch: number;
}

export const defaultRetention: RetentionOptions = { keepRevisions: 100_000, minAgeMs: 3_600_000, batch: 10_000 };

/** Compacts one model's log by at most one batch; returns the new floor (its `compacted_through`). */
export async function compactModel(db: Database, modelId: string, options: RetentionOptions): Promise<number> {
  return db.transaction(async (tx) => {
    // The model row lock orders this against writers, which bump the revision on the same row.
    const [model] = await tx
      .select({ revision: models.revision, compactedThrough: models.compactedThrough })
      .from(models)
      .where(eq(models.id, modelId))
      .for("no key update");
    if (!model) return 0;
    const byRevision = Math.min(model.revision - options.keepRevisions, model.compactedThrough + options.batch);
    if (byRevision <= model.compactedThrough) return model.compactedThrough;
    const [old] = await tx
      .select({ revision: max(changes.revision) })
      .from(changes)
      .where(
        and(
          eq(changes.modelId, modelId),
          gt(changes.revision, model.compactedThrough),
          lte(changes.revision, byRevision),
          lt(changes.committedAt, sql`now() - make_interval(secs => ${options.minAgeMs / 1000})`),
        ),
      );
    const floor = old?.revision ?? null;
    if (floor === null || floor <= model.compactedThrough) return model.compactedThrough;
    await tx.delete(changes).where(and(eq(changes.modelId, modelId), lte(changes.revision, floor)));
    await tx.update(models).set({ compactedThrough: floor }).where(eq(models.id, modelId));
    return floor;
  });
}

/** Compacts every model whose log holds more than the window; one batch each per call. */
export async function compactAll(db: Database, options: RetentionOptions): Promise<void> {
  const due = await db
    .select({ id: models.id })
    .from(models)
    .where(gt(sql`${models.revision} - ${models.compactedThrough}`, options.keepRevisions));
  for (const { id } of due) await compactModel(db, id, options);
}

/** Runs compaction on a timer until stopped. Several processes may run it: the row lock keeps them apart. */
export function startCompactor(db: Database, options: RetentionOptions, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => compactAll(db, options))
      .catch((error) => loggerFor("compactor").error({ err: error }, "change-log compaction failed (will retry)"));
  }, intervalMs).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
