// Units from Alive to removed (seed 000 "juju remove-unit", seed 001 "Units").
import { and, eq, inArray } from "drizzle-orm";
import { units } from "../db/schema.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import { LifelineError } from "./errors.js";
import type { ModelRow } from "./models.js";
import { releaseUnitReference } from "./references.js";
import type { Outcome } from "./relation-life.js";
import { leaveScopeOf, scopesOf } from "./scopes.js";
import type { Tx } from "./tx.js";
import { getUnit, type UnitRow } from "./units.js";
import { advance } from "./life.js";

const unitWhere = (model: ModelRow, name: string) => and(eq(units.modelId, model.id), eq(units.name, name));

export async function subordinatesOf(tx: Tx, model: ModelRow, principal: string): Promise<UnitRow[]> {
  return tx.db.select().from(units).where(and(eq(units.modelId, model.id), eq(units.principal, principal)));
}

/** Sets Alive units Dying; a principal's Alive subordinates follow it (seed 001). */
export async function setUnitsDying(tx: Tx, model: ModelRow, batch: UnitRow[]): Promise<void> {
  const alive = batch.filter((u) => u.life === "alive");
  if (!alive.length) return;
  await tx.db
    .update(units)
    .set({ life: "dying" })
    .where(and(eq(units.modelId, model.id), inArray(units.name, alive.map((u) => u.name)), eq(units.life, "alive")));
  for (const unit of alive) tx.record({ modelId: model.id, kind: "unit", entity: unit.name, life: "dying" });
  const principals = alive.filter((u) => u.principal === null).map((u) => u.name);
  if (!principals.length) return;
  const subordinates = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), inArray(units.principal, principals), eq(units.life, "alive")));
  await setUnitsDying(tx, model, subordinates);
}

export interface DestroyOptions {
  force?: boolean;
  /** With force: when the forced fallback may run; now when omitted. */
  forceAt?: Date;
}

/**
 * Seed 000 "juju remove-unit": a subordinate is refused (seed 003); a unit that
 * is not Alive is left as it is; otherwise it becomes Dying, and with force its
 * forced removal is queued for `forceAt`.
 */
export async function destroyUnit(tx: Tx, model: ModelRow, unit: UnitRow, options: DestroyOptions = {}): Promise<Outcome> {
  if (unit.principal !== null)
    throw new LifelineError(
      "SUBORDINATE_NOT_ALLOWED",
      `unit ${unit.name} is a subordinate: remove the relation to its principal, or its principal ${unit.principal}`,
    );
  let outcome: Outcome = "unchanged";
  if (unit.life === "alive") {
    await setUnitsDying(tx, model, [unit]);
    outcome = "dying";
  }
  if (options.force) await queueCleanup(tx, model, CleanupKinds.forceUnit, unit.name, {}, options.forceAt);
  return outcome;
}

/**
 * The unit agent's last act: "may not become Dead while any unit subordinate
 * to it exists, or while the unit is in scope for any relation" (seed 001).
 */
export async function setUnitDead(tx: Tx, model: ModelRow, name: string): Promise<UnitRow> {
  const unit = await getUnit(tx, model, name);
  if (unit.life === "dead") return unit;
  const scopes = await scopesOf(tx, model, unit.name);
  if (scopes.length)
    throw new LifelineError("IN_SCOPE", `unit ${unit.name} is still in the scope of relation(s) ${scopes.map((s) => s.relationId).join(", ")}: leave them first`, {
      relations: scopes.map((s) => s.relationId),
    });
  const subordinates = await subordinatesOf(tx, model, unit.name);
  if (subordinates.length)
    throw new LifelineError("HAS_SUBORDINATES", `unit ${unit.name} still has subordinates ${subordinates.map((s) => s.name).join(", ")}: remove them first`, {
      subordinates: subordinates.map((s) => s.name),
    });
  const [dead] = await tx.db.update(units).set({ life: advance(`unit ${unit.name}`, unit.life, "dead") }).where(unitWhere(model, unit.name)).returning();
  tx.record({ modelId: model.id, kind: "unit", entity: unit.name, life: "dead" });
  return dead!;
}

/**
 * The deployer's removal of a Dead unit (seed 000): unassign it from its
 * machine or principal, delete it, and release its application, which goes
 * too when it was the last reference to a Dying application.
 */
export async function removeDeadUnit(tx: Tx, model: ModelRow, name: string): Promise<void> {
  const unit = await getUnit(tx, model, name);
  if (unit.life !== "dead") throw new LifelineError("NOT_DEAD", `unit ${unit.name} is ${unit.life}: only a Dead unit can be removed`);
  await tx.db.delete(units).where(unitWhere(model, unit.name));
  tx.record({ modelId: model.id, kind: "unit", entity: unit.name, life: "dead", removed: true, fields: { machineId: unit.machineId, principal: unit.principal } });
  await releaseUnitReference(tx, model, unit.application);
}

/**
 * Force (seed 001's end): set a unit Dead "while maintaining consistency and
 * sanity across all references" — its subordinates go first, it leaves every
 * scope (removing Dying relations it was last in), then it is removed.
 */
export async function forceRemoveUnit(tx: Tx, model: ModelRow, name: string): Promise<void> {
  const [unit] = await tx.db.select().from(units).where(unitWhere(model, name));
  if (!unit) return;
  for (const subordinate of await subordinatesOf(tx, model, unit.name)) await forceRemoveUnit(tx, model, subordinate.name);
  for (const scope of await scopesOf(tx, model, unit.name)) await leaveScopeOf(tx, model, scope.relationId, unit.name);
  if (unit.life !== "dead") await setUnitDead(tx, model, unit.name);
  await removeDeadUnit(tx, model, unit.name);
}

