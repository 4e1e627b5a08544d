// `juju remove-relation` and the removal of a relation (seed 000), shared by
// every path that ends a relation: the user, application destruction, the
// last unit leaving a Dying relation's scope, and force.
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf } from "../db/connect.js";
import { relationEndpoints, relations, relationScopes } from "../db/schema.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import { LifelineError, notFound } from "./errors.js";
import type { ModelRow } from "./models.js";
import { releaseRelationReference } from "./references.js";
import type { RelationRow } from "./relations.js";
import type { Tx } from "./tx.js";
import { advance } from "./life.js";

export type Outcome = "unchanged" | "dying" | "dead" | "removed";

const relationWhere = (model: ModelRow, id: number) => and(eq(relations.modelId, model.id), eq(relations.id, id));

export async function getRelation(tx: Tx, model: ModelRow, id: number): Promise<RelationRow> {
  if (!Number.isInteger(id) || id < 0) throw new LifelineError("INVALID_ID", `invalid relation id ${id}: expected a non-negative integer`);
  const [relation] = await tx.db.select().from(relations).where(relationWhere(model, id));
  if (!relation) throw notFound("relation", String(id), model.name);
  return relation;
}

export async function endpointApplications(tx: Tx, model: ModelRow, relationId: number): Promise<string[]> {
  const rows = await tx.db
    .select({ application: relationEndpoints.application })
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relationId)));
  return rows.map((r) => r.application);
}

/**
 * Deletes a relation that has no units in scope, and drops its hold on its
 * applications, except `except` (an application being destroyed keeps its own
 * count, seed 000). Its settings are queued for deletion in batches.
 */
export async function removeRelation(tx: Tx, model: ModelRow, relation: RelationRow, except?: string): Promise<void> {
  const apps = await endpointApplications(tx, model, relation.id);
  await tx.db.delete(relationEndpoints).where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relation.id)));
  await tx.db.delete(relations).where(relationWhere(model, relation.id));
  tx.record({ modelId: model.id, kind: "relation", entity: String(relation.id), life: "dead", removed: true, fields: { key: relation.key } });
  await queueCleanup(tx, model, CleanupKinds.relationSettings, String(relation.id));
  if (relation.scope === "container") await queueSubordinateCascade(tx, model, relation, apps);
  for (const app of new Set(apps)) if (app !== except) await releaseRelationReference(tx, model, app);
}

/** Seed 001: a subordinate becomes Dying when the last Alive relation between its application and its principal's goes. */
async function queueSubordinateCascade(tx: Tx, model: ModelRow, relation: RelationRow, apps: string[]): Promise<void> {
  if (apps.length === 2) await queueCleanup(tx, model, CleanupKinds.dyingSubordinates, String(relation.id), { applications: apps });
}

/**
 * Seed 000 "juju remove-relation": not Alive → no-op; units in scope → Dying
 * (their agents leave scope; the last one removes it); otherwise removed now.
 */
export async function destroyRelation(tx: Tx, model: ModelRow, relation: RelationRow, byApplication?: string): Promise<Outcome> {
  if (relation.life !== "alive") return "unchanged";
  if (relation.unitCount > 0) {
    await tx.db.update(relations).set({ life: advance(`relation ${relation.id}`, relation.life, "dying") }).where(relationWhere(model, relation.id));
    tx.record({ modelId: model.id, kind: "relation", entity: String(relation.id), life: "dying" });
    if (relation.scope === "container") await queueSubordinateCascade(tx, model, relation, await endpointApplications(tx, model, relation.id));
    return "dying";
  }
  await removeRelation(tx, model, relation, byApplication);
  return "removed";
}

/**
 * `remove-relation --force`: removes the relation now, whatever its scope
 * count says. Its members are taken out of scope (their settings stay until
 * the settings cleanup), so no reference to it survives.
 */
export async function forceRemoveRelation(tx: Tx, model: ModelRow, relation: RelationRow, except?: string): Promise<Outcome> {
  const members = await tx.db
    .delete(relationScopes)
    .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relation.id)))
    .returning();
  for (const m of members)
    tx.record({
      modelId: model.id,
      kind: "scope",
      entity: `${relation.id}:${m.unit}`,
      removed: true,
      fields: { relationId: relation.id, unit: m.unit, application: m.application, role: m.role, container: m.container },
    });
  await removeRelation(tx, model, relation, except);
  return "removed";
}

/** The relations an application takes part in, oldest first. */
export async function relationsOf(tx: Tx, model: ModelRow, application: string): Promise<RelationRow[]> {
  const ids = await tx.db
    .select({ id: relationEndpoints.relationId })
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.application, application)));
  if (!ids.length) return [];
  return tx.db
    .select()
    .from(relations)
    .where(and(eq(relations.modelId, model.id), inArray(relations.id, ids.map((r) => r.id))))
    .orderBy(relations.id);
}

/** Is an Alive container-scoped relation still joining these two applications? */
export async function aliveContainerRelationBetween(tx: Tx, model: ModelRow, a: string, b: string): Promise<boolean> {
  const rows = await tx.db.execute<{ id: number }>(sql`
    select r.id from relations r
    join relation_endpoints ea on ea.model_id = r.model_id and ea.relation_id = r.id and ea.application = ${a}
    join relation_endpoints eb on eb.model_id = r.model_id and eb.relation_id = r.id and eb.application = ${b}
    where r.model_id = ${model.id} and r.scope = 'container' and r.life = 'alive' limit 1`);
  return rowsOf(rows).length > 0;
}
