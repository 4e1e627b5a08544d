// `destroy-model --dry-run`: the model's destruction rehearsed (write/rehearsal.ts: the same rules and refusals, rolled
// back), together with the cleaner's work that follows it at once: the destroy-model cleanup destroys the model's
// applications and machines, and the cleanups those queue (dying units, …) run in turn, as the cleaner would run them.
// The answer is a removal's (removal.ts): what would become Dying or Dead, be removed, or be queued, in order, and what
// would then still hold the model (its blockers: what waits on the agents). Forced fallbacks not yet due are listed,
// not run, as for the other removals.
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { cleanups, models } from "../db/schema.js";
import type { CleanupKind } from "./cleanup-queue.js";
import { cleanupHandlers } from "./cleanups.js";
import { type DestroyModelInput, modelBlockers, startModelDestruction } from "./model.js";
import { type RemovalEffect, type RemovalResult, watching } from "./removal.js";
import { modelOperation } from "./write/index.js";

/**
 * The most cleanup handler runs one dry run makes: each is what one of the cleaner's bounded transactions does, so a
 * model of thousands of applications is rehearsed in part (its blockers say what remains).
 */
export const REHEARSED_CLEANUP_RUNS = 200;

const destroyAndClean = modelOperation("any", async (tx, model, input: DestroyModelInput): Promise<RemovalResult> => {
  const effects: RemovalEffect[] = [];
  const watched = watching(tx, model, effects);
  const outcome = await startModelDestruction(watched, model, input);
  const settled = new Set<number>();
  let runs = 0;
  for (let progressed = true; progressed && runs < REHEARSED_CLEANUP_RUNS; ) {
    progressed = false;
    // Due now, in queue order, as the cleaner reads them. The clock's now, not the transaction's start (now()): the
    // cleanups this transaction queued are due from when they were queued.
    const due = await tx.db
      .select()
      .from(cleanups)
      .where(and(eq(cleanups.modelId, model.id), lte(cleanups.dueAt, sql`clock_timestamp()`)))
      .orderBy(asc(cleanups.id));
    for (const cleanup of due) {
      if (settled.has(cleanup.id) || runs >= REHEARSED_CLEANUP_RUNS) continue;
      runs++;
      // The model afresh each time: the handlers advance its life from what it is now.
      const [current] = await tx.db.select().from(models).where(eq(models.id, model.id));
      const progress = await cleanupHandlers[cleanup.kind as CleanupKind](watched, current!, cleanup);
      if (progress === "done") await tx.db.delete(cleanups).where(eq(cleanups.id, cleanup.id));
      if (progress !== "more") settled.add(cleanup.id);
      progressed = true;
    }
  }
  const [after] = await tx.db.select().from(models).where(eq(models.id, model.id));
  return { id: model.name, outcome, effects, blockers: await modelBlockers(tx.db, after!) };
});

/** What `destroyModel` would do, and what the cleaner would do right after it; nothing is kept. */
export async function rehearseDestroyModel(db: Database, input: DestroyModelInput): Promise<RemovalResult> {
  return (await destroyAndClean.rehearse(db, input)).value;
}
