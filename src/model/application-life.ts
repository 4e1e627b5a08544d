// `juju remove-application` (seed 000).
import { and, eq, sql } from "drizzle-orm";
import { applications } from "../db/schema.js";
import type { ApplicationRow } from "./applications.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import type { ModelRow } from "./models.js";
import { removeApplicationRow } from "./references.js";
import { destroyRelation, relationsOf, type Outcome } from "./relation-life.js";
import type { Tx } from "./tx.js";
import type { DestroyOptions } from "./unit-life.js";

/**
 * Seed 000, as one transaction: not Alive → no-op; each Alive relation is
 * destroyed without touching this application's count; if units remain or a
 * relation survives, the application becomes Dying (its units follow through
 * the cleanup queue, in batches); otherwise it is removed now.
 */
export async function destroyApplication(tx: Tx, model: ModelRow, app: ApplicationRow, options: DestroyOptions = {}): Promise<Outcome> {
  if (app.life !== "alive") {
    if (options.force) await queueCleanup(tx, model, CleanupKinds.dyingUnits, app.name, { force: true, forceAt: options.forceAt?.toISOString() });
    return "unchanged";
  }
  let removedRelations = 0;
  for (const relation of await relationsOf(tx, model, app.name)) {
    if ((await destroyRelation(tx, model, relation, app.name)) === "removed") removedRelations++;
  }
  if (app.unitCount > 0 || removedRelations < app.relationCount) {
    await tx.db
      .update(applications)
      .set({ life: "dying", relationCount: sql`${applications.relationCount} - ${removedRelations}` })
      .where(and(eq(applications.modelId, model.id), eq(applications.name, app.name)));
    tx.record({ modelId: model.id, kind: "application", entity: app.name, life: "dying" });
    // 100,000 units cannot be updated in one transaction (seed 001): fan out in batches.
    if (app.unitCount > 0)
      await queueCleanup(tx, model, CleanupKinds.dyingUnits, app.name, { force: !!options.force, forceAt: options.forceAt?.toISOString() });
    return "dying";
  }
  await removeApplicationRow(tx, model, app);
  return "removed";
}
