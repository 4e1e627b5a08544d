// A removed unit's hook runs outlive it (issue 35: after a removal, what ran and
// why it failed), apart from hook-runs.ts, which leaves scopes (scope.ts) and so
// must not be imported back by the unit's removal.
import { and, eq, isNull, sql } from "drizzle-orm";
import { hookRunsRemoved } from "../changes/change.js";
import { HookResult } from "../core/hooks.js";
import { hookRuns } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { ModelRow } from "./rows.js";
import type { Tx } from "./write/index.js";

const UNIT_GONE_MESSAGE = "interrupted: its unit was removed before its agent committed it";

/**
 * The unit's row is being deleted: its runs are marked with the time, so a unit of the same name later starts a history
 * of its own, and a run its agent never committed ends `interrupted`. The history bounds (hook-history.ts) prune them.
 */
const retireRuns = statement(["modelId", "units"], (db, p) =>
  db
    .update(hookRuns)
    .set({
      unitRemovedAt: sql`now()`,
      result: sql`case when ${hookRuns.result} = ${HookResult.Running} then ${HookResult.Interrupted} else ${hookRuns.result} end`,
      message: sql`case when ${hookRuns.result} = ${HookResult.Running} then ${UNIT_GONE_MESSAGE} else ${hookRuns.message} end`,
      endedAt: sql`coalesce(${hookRuns.endedAt}, now())`,
    })
    .where(and(eq(hookRuns.modelId, p.modelId), sql`${hookRuns.unit} = any(${p.units}::text[])`, isNull(hookRuns.unitRemovedAt))),
);

/**
 * Retires the runs of units that have some (as read before, with the model's lock when it can), in one statement
 * without waiting, and records that each unit's latest run is gone from the streams (its history stays:
 * Model.hookHistory).
 */
export function retireHookRuns(tx: Tx, model: ModelRow, units: readonly string[]): void {
  if (!units.length) return;
  tx.defer(retireRuns(tx.db, { modelId: model.id, units }));
  for (const unit of units) tx.record(model.id, hookRunsRemoved(unit));
}
