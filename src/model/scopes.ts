// Relation scopes (seed 002): a unit joins by writing its settings and
// recording its membership in one transaction; leaving the scope of a Dying
// relation as its last member removes the relation (seed 000).
import { and, eq, sql } from "drizzle-orm";
import { relationEndpoints, relations, relationScopes, relationSettings, units } from "../db/schema.js";
import { getApplication } from "./applications.js";
import { LifelineError, notAlive } from "./errors.js";
import { getAliveModel, getModel, type ModelRow } from "./models.js";
import { getRelation, removeRelation } from "./relation-life.js";
import type { Tx } from "./tx.js";
import { getUnit, insertUnit, type UnitRow } from "./units.js";
import { addUnitReferences } from "./references.js";

export type ScopeRow = typeof relationScopes.$inferSelect;

const memberWhere = (model: ModelRow, relationId: number, unit: string) =>
  and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relationId), eq(relationScopes.unit, unit));

export interface EnterScopeArgs {
  model: string;
  relation: number;
  unit: string;
  /** Written as the unit's `private-address` (and `ingress-address`, as Juju does). */
  privateAddress: string;
}

export interface EnteredScope {
  member: ScopeRow;
  /** The subordinate created for a principal entering a container-scoped relation, if any. */
  subordinate: UnitRow | null;
}

/**
 * Seed 001: "While a principal unit is Alive, it can enter the scopes of Alive
 * relations, which may cause the creation of subordinate units". Entering
 * again is a no-op.
 */
export async function enterScope(tx: Tx, args: EnterScopeArgs): Promise<EnteredScope> {
  const model = await getAliveModel(tx, args.model);
  const relation = await getRelation(tx, model, args.relation);
  const unit = await getUnit(tx, model, args.unit);
  const [already] = await tx.db.select().from(relationScopes).where(memberWhere(model, relation.id, unit.name));
  if (already) return { member: already, subordinate: null };
  if (relation.life !== "alive") throw notAlive("relation", relation.key, relation.life);
  if (unit.life !== "alive") throw notAlive("unit", unit.name, unit.life);
  if (!args.privateAddress) throw new LifelineError("INVALID_ARGUMENT", "privateAddress is required to enter a scope");

  const endpoints = await tx.db
    .select()
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relation.id)));
  const own = endpoints.find((e) => e.application === unit.application);
  if (!own) throw new LifelineError("INVALID_RELATION", `unit ${unit.name} is not of an application in relation "${relation.key}"`);
  const counterpart = endpoints.find((e) => e.application !== unit.application);

  let container: string | null = null;
  let subordinate: UnitRow | null = null;
  if (relation.scope === "container") {
    // A container-scoped relation has one scope per principal unit (seed 002).
    container = unit.principal ?? unit.name;
    if (unit.principal) {
      const principal = await getUnit(tx, model, unit.principal);
      if (principal.application !== counterpart?.application)
        throw new LifelineError("INVALID_RELATION", `subordinate ${unit.name}'s principal ${principal.name} is not of an application in relation "${relation.key}"`);
    } else if (counterpart) {
      subordinate = await ensureSubordinate(tx, model, unit, counterpart.application);
    }
  }

  const [member] = await tx.db
    .insert(relationScopes)
    .values({ modelId: model.id, relationId: relation.id, unit: unit.name, application: unit.application, role: own.role, container })
    .returning();
  const version = await writeSettings(tx, model, relation.id, unit.name, {
    "private-address": args.privateAddress,
    "ingress-address": args.privateAddress,
  });
  await tx.db.update(relations).set({ unitCount: sql`${relations.unitCount} + 1` }).where(and(eq(relations.modelId, model.id), eq(relations.id, relation.id)));
  tx.record({
    modelId: model.id,
    kind: "scope",
    entity: `${relation.id}:${unit.name}`,
    life: "alive",
    fields: { relationId: relation.id, unit: unit.name, application: unit.application, role: own.role, container },
  });
  tx.record({ modelId: model.id, kind: "settings", entity: `${relation.id}:${unit.name}`, fields: { relationId: relation.id, unit: unit.name, version } });
  return { member: member!, subordinate };
}

/** Merges `values` into the unit's settings for the relation; returns the new version. */
async function writeSettings(tx: Tx, model: ModelRow, relationId: number, unit: string, values: Record<string, string>): Promise<number> {
  const [row] = await tx.db
    .insert(relationSettings)
    .values({ modelId: model.id, relationId, unit, settings: values, version: 1 })
    .onConflictDoUpdate({
      target: [relationSettings.modelId, relationSettings.relationId, relationSettings.unit],
      set: {
        settings: sql`${relationSettings.settings} || excluded.settings`,
        version: sql`${relationSettings.version} + 1`,
      },
    })
    .returning({ version: relationSettings.version });
  return row!.version;
}

/** The principal's unit of subordinate application `appName`, created if it does not exist yet. */
async function ensureSubordinate(tx: Tx, model: ModelRow, principal: UnitRow, appName: string): Promise<UnitRow | null> {
  const [existing] = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.application, appName), eq(units.principal, principal.name)));
  if (existing) return null;
  const app = await getApplication(tx, model, appName);
  if (!app.subordinate || app.life !== "alive") return null;
  // Subordinates take no constraints and no machine of their own (seeds 003, 004).
  const created = await insertUnit(tx, model, app, { principal: principal.name, constraints: {} });
  await addUnitReferences(tx, model, app.name, 1);
  tx.record({
    modelId: model.id,
    kind: "unit",
    entity: created.name,
    life: "alive",
    fields: { application: app.name, series: app.series, machineId: null, principal: principal.name },
  });
  return created;
}

export interface LeaveScopeArgs {
  model: string;
  relation: number;
  unit: string;
}

/** Leaves a scope (a no-op when not in it); the last member of a Dying relation removes it. */
export async function leaveScope(tx: Tx, args: LeaveScopeArgs): Promise<{ left: boolean; relationRemoved: boolean }> {
  // Agents leave scopes in Dying models too: that is how a model empties.
  const model = await getModel(tx, args.model);
  const relation = await getRelation(tx, model, args.relation);
  const unit = await getUnit(tx, model, args.unit);
  return leaveScopeOf(tx, model, relation.id, unit.name);
}

export async function leaveScopeOf(tx: Tx, model: ModelRow, relationId: number, unit: string): Promise<{ left: boolean; relationRemoved: boolean }> {
  const [member] = await tx.db.delete(relationScopes).where(memberWhere(model, relationId, unit)).returning();
  if (!member) return { left: false, relationRemoved: false };
  const [relation] = await tx.db
    .update(relations)
    .set({ unitCount: sql`${relations.unitCount} - 1` })
    .where(and(eq(relations.modelId, model.id), eq(relations.id, relationId)))
    .returning();
  tx.record({
    modelId: model.id,
    kind: "scope",
    entity: `${relationId}:${unit}`,
    removed: true,
    fields: { relationId, unit, application: member.application, role: member.role, container: member.container },
  });
  // Seed 001: "When the last unit leaves the scope of a Dying relation, it must remove the relation from state."
  if (relation!.life !== "alive" && relation!.unitCount <= 0) {
    await removeRelation(tx, model, relation!);
    return { left: true, relationRemoved: true };
  }
  return { left: true, relationRemoved: false };
}

/** The relations a unit is in the scope of. */
export async function scopesOf(tx: Tx, model: ModelRow, unit: string): Promise<ScopeRow[]> {
  return tx.db.select().from(relationScopes).where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.unit, unit)));
}

