// A removed unit's hook runs go with it (unit.ts), apart from hook-runs.ts, which
// leaves scopes (scope.ts) and so must not be imported back by the unit's removal.
import { and, eq } from "drizzle-orm";
import { hookRunsRemoved } from "../changes/change.js";
import { hookRuns } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { ModelRow } from "./rows.js";
import type { Tx } from "./write/index.js";

/** The unit's row is being deleted: its runs go first, and streams of hook runs learn it is gone. */
const deleteHookRuns = statement(["modelId", "unit"], (db, p) =>
  db
    .delete(hookRuns)
    .where(and(eq(hookRuns.modelId, p.modelId), eq(hookRuns.unit, p.unit)))
    .returning({ id: hookRuns.id }),
);

/**
 * Sends the delete of the unit's runs, without waiting; the function it returns waits for the answer and records the
 * change when there were any. Between the two, the caller sends its own statements: one round trip for all of them.
 */
export function forgetHookRuns(
  tx: Tx,
  model: ModelRow,
  unit: string,
  /** Whether the unit has runs, read with the model's lock: then nothing waits for the delete's answer. */
  hasRuns?: boolean,
): () => Promise<void> {
  if (hasRuns === false) return async () => {};
  const removed = tx.defer(deleteHookRuns(tx.db, { modelId: model.id, unit }));
  if (hasRuns) return async () => void tx.record(model.id, hookRunsRemoved(unit));
  return async () => {
    if ((await removed).length) tx.record(model.id, hookRunsRemoved(unit));
  };
}
