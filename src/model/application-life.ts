// `juju remove-application` (seed 000).
import { and, eq, sql } from "drizzle-orm";
import { applications } from "../db/schema.js";
import { getApplication, type ApplicationRow } from "./applications.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import type { ModelRow } from "./models.js";
import { removeApplicationRow } from "./references.js";
import { destroyRelation, forceRemoveRelation, relationsOf, type Outcome } from "./relation-life.js";
import type { Tx } from "./tx.js";
import type { DestroyOptions } from "./unit-life.js";
import { advance } from "./life.js";

/**
 * Seed 000, as one transaction: not Alive → no-op; each Alive relation is
 * destroyed without touching this application's count; if units remain or a
 * relation survives, the application becomes Dying (its units follow through
 * the cleanup queue, in batches); otherwise it is removed now. With force,
 * its relations are removed now whatever their scopes hold, and its units'
 * forced removal is queued.
 */
export async function destroyApplication(tx: Tx, model: ModelRow, target: ApplicationRow, options: DestroyOptions = {}): Promise<Outcome> {
  // Read afresh: earlier work in this transaction (another application's destruction) may have changed its counts.
  const app = await getApplication(tx, model, target.name);
  if (app.life !== "alive") {
    if (options.force) {
      // Its relations drop their hold as they go; the last one may remove the application.
      for (const relation of await relationsOf(tx, model, app.name)) await forceRemoveRelation(tx, model, relation);
      if (app.unitCount > 0)
        await queueCleanup(tx, model, CleanupKinds.dyingUnits, app.name, { force: true, forceAt: options.forceAt?.toISOString() });
    }
    return "unchanged";
  }
  let removedRelations = 0;
  for (const relation of await relationsOf(tx, model, app.name)) {
    // With force every relation goes now, members and all; without, Dying ones are left to their units.
    const outcome = options.force ? await forceRemoveRelation(tx, model, relation, app.name) : await destroyRelation(tx, model, relation, app.name);
    if (outcome === "removed") removedRelations++;
  }
  if (app.unitCount > 0 || removedRelations < app.relationCount) {
    await tx.db
      .update(applications)
      .set({ life: advance(`application ${app.name}`, app.life, "dying"), relationCount: sql`${applications.relationCount} - ${removedRelations}` })
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
