// The change log's read side: pages of rows after a revision, and the window of
// revisions the log still holds. Readers never trust NOTIFY for content; this is
// where every event a stream emits comes from.
import { and, asc, eq, gt } from "drizzle-orm";
import { LifelineError } from "../core/errors.js";
import type { Database } from "../db/connect.js";
import { changes, models } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { changeEvent, type EntityEvent } from "./stream-event.js";

/** The revisions a model's log can replay: those after `compactedThrough`, up to `revision`. */
export interface LogWindow {
  revision: number;
  compactedThrough: number;
}

// Built once (src/db/statement.ts): every stream reads these on each wake-up.
const windowOf = statement(["modelId"], (db, p) =>
  db.select({ revision: models.revision, compactedThrough: models.compactedThrough }).from(models).where(eq(models.id, p.modelId)),
);
const rowsAfter = statement(["modelId", "after", "limit"], (db, p) =>
  db
    .select()
    .from(changes)
    .where(and(eq(changes.modelId, p.modelId), gt(changes.revision, p.after)))
    .orderBy(asc(changes.revision))
    .limit(p.limit),
);

export async function logWindow(db: Database, modelId: string): Promise<LogWindow> {
  const [row] = await windowOf(db, { modelId });
  // A model that is gone has nothing left to replay: any resume needs a resync.
  return row ?? { revision: 0, compactedThrough: Number.MAX_SAFE_INTEGER };
}

export const resyncRequired = (since: number, window: LogWindow) =>
  new LifelineError(
    "RESYNC_REQUIRED",
    `the change log no longer holds revision ${since + 1} (compacted through ${window.compactedThrough}): subscribe again without "since" for a fresh snapshot`,
    { since: String(since), compactedThrough: String(window.compactedThrough) },
  );

/** Fails unless the log can replay every change after `since`. */
export function checkResumable(since: number, window: LogWindow): void {
  if (since < window.compactedThrough) throw resyncRequired(since, window);
  if (since > window.revision)
    throw new LifelineError("INVALID_ARGUMENT", `"since" is ${since}, but the model is only at revision ${window.revision}`, {
      since: String(since),
      revision: String(window.revision),
    });
}

/**
 * Up to `limit` changes after revision `after`, in order and without gaps. Within a model
 * revisions commit in order (src/changes/log.ts), so a gap can only mean compaction
 * removed the rows: that is reported as RESYNC_REQUIRED rather than skipped.
 */
export async function readChanges(db: Database, modelId: string, after: number, limit: number): Promise<EntityEvent[]> {
  const rows = await readRows(db, modelId, after, limit);
  const first = rows[0];
  if (first ? first.revision !== after + 1 : false) {
    const window = await logWindow(db, modelId);
    if (after < window.compactedThrough) throw resyncRequired(after, window);
    throw new Error(`change log of model ${modelId} skips from ${after} to ${first!.revision} without compaction`);
  }
  if (!first) {
    // Nothing after `after`: fine, unless compaction has passed it (all rows gone).
    const window = await logWindow(db, modelId);
    if (after < window.compactedThrough) throw resyncRequired(after, window);
  }
  return rows;
}

/** Up to `limit` changes after revision `after`, in revision order, as they are. */
export async function readRows(db: Database, modelId: string, after: number, limit: number): Promise<EntityEvent[]> {
  const rows = await rowsAfter(db, { modelId, after, limit });
  return rows.map(changeEvent);
}
