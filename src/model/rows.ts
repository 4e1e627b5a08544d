// The store's rows as the model and its readers see them (types only; Drizzle
// derives them from the tables in src/db/schema.ts).

import type { DbTx } from "../changes/append.js";
import type { Database } from "../db/connect.js";
import type {
  applications,
  charms,
  cleanups,
  hookRuns,
  machines,
  models,
  relationEndpoints,
  relationScopes,
  relationSettings,
  relations,
  units,
} from "../db/schema.js";

/**
 * A model's row as writes see it. compacted_through is the change log's own (src/changes/retention.ts): no write reads
 * it, and the lock taken as last committed (write/model-lock.ts) leaves it out, so a compaction does not move the row
 * a write expects.
 */
export type ModelRow = Omit<typeof models.$inferSelect, "compactedThrough">;
export type MachineRow = typeof machines.$inferSelect;
export type CharmRow = typeof charms.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;
export type UnitRow = typeof units.$inferSelect;
export type RelationRow = typeof relations.$inferSelect;
export type RelationEndpointRow = typeof relationEndpoints.$inferSelect;
export type ScopeRow = typeof relationScopes.$inferSelect;
export type SettingsRow = typeof relationSettings.$inferSelect;
export type CleanupRow = typeof cleanups.$inferSelect;
export type HookRunRow = typeof hookRuns.$inferSelect;

/** What a check can read through: the store outside a transaction, or one transaction's connection. */
export type Queryable = Database | DbTx;
