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
  db.delete(hookRuns).where(and(eq(hookRuns.modelId, p.modelId), eq(hookRuns.unit, p.unit))),
);

/**
 * Deletes the runs of a unit that has some (as read before, with the model's lock when it can), without waiting, and
 * records their going.
 */
export function forgetHookRuns(tx: Tx, model: ModelRow, unit: string): void {
  tx.defer(deleteHookRuns(tx.db, { modelId: model.id, unit }));
  tx.record(model.id, hookRunsRemoved(unit));
}
