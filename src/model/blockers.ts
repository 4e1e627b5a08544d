// "Why is it still here?" For an entity that is not Alive, what still holds
// it, in words a person can act on. Juju's most common complaint is entities
// stuck Dying with no explanation (DESIGN.md).
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { applications, cleanups, machines, relationEndpoints, relations, relationScopes, units } from "../db/schema.js";
import type { ApplicationRow } from "./applications.js";
import type { MachineRow } from "./machines.js";
import type { ModelRow } from "./models.js";
import type { RelationRow } from "./relations.js";
import type { UnitRow } from "./units.js";

export type BlockerKind =
  | "in-scope"
  | "units-in-scope"
  | "subordinates"
  | "assigned-units"
  | "containers"
  | "units"
  | "relations"
  | "applications"
  | "machines"
  | "pending-cleanup"
  | "agent";

export interface Blocker {
  kind: BlockerKind;
  message: string;
  /** The ids of what holds it (the first 20, when there are more). */
  entities: string[];
}

const SHOWN = 20;
const list = (names: string[], total = names.length) => names.join(", ") + (total > names.length ? ` and ${total - names.length} more` : "");
const n = sql<number>`count(*)::int`;

async function pendingCleanups(db: Database, modelId: string, target: string): Promise<Blocker[]> {
  const rows = await db
    .select({ kind: cleanups.kind, dueAt: cleanups.dueAt })
    .from(cleanups)
    .where(and(eq(cleanups.modelId, modelId), eq(cleanups.target, target)));
  return rows.map((c) => ({
    kind: "pending-cleanup",
    message: `cleanup "${c.kind}" is queued${c.dueAt > new Date() ? ` (due ${c.dueAt.toISOString()})` : ""}: the cleaner runs it (runCleanups)`,
    entities: [],
  }));
}

export async function unitBlockers(db: Database, unit: UnitRow): Promise<Blocker[]> {
  if (unit.life === "alive") return [];
  const blockers: Blocker[] = [];
  if (unit.life === "dying") {
    const scopes = await db
      .select({ id: relations.id, key: relations.key })
      .from(relationScopes)
      .innerJoin(relations, and(eq(relations.modelId, relationScopes.modelId), eq(relations.id, relationScopes.relationId)))
      .where(and(eq(relationScopes.modelId, unit.modelId), eq(relationScopes.unit, unit.name)))
      .orderBy(asc(relations.id));
    if (scopes.length)
      blockers.push({
        kind: "in-scope",
        message: `in the scope of ${list(scopes.map((s) => `relation ${s.id} "${s.key}"`))}: its unit agent must leave them`,
        entities: scopes.map((s) => String(s.id)),
      });
    const subordinates = await db
      .select({ name: units.name })
      .from(units)
      .where(and(eq(units.modelId, unit.modelId), eq(units.principal, unit.name)))
      .orderBy(asc(units.seq));
    if (subordinates.length)
      blockers.push({
        kind: "subordinates",
        message: `subordinates ${list(subordinates.map((s) => s.name))} must be removed first`,
        entities: subordinates.map((s) => s.name),
      });
    blockers.push(...(await pendingCleanups(db, unit.modelId, unit.name)));
    if (!blockers.length)
      blockers.push({ kind: "agent", message: "waiting for its unit agent to set it Dead (or remove it with force)", entities: [unit.name] });
    return blockers;
  }
  const deployer = unit.principal ? `the unit agent of ${unit.principal}` : unit.machineId ? `the machine agent of machine ${unit.machineId}` : "its deployer";
  return [{ kind: "agent", message: `Dead: waiting for ${deployer} to remove it`, entities: [unit.principal ?? unit.machineId ?? unit.name] }];
}

export async function machineBlockers(db: Database, machine: MachineRow): Promise<Blocker[]> {
  if (machine.life === "alive") return [];
  if (machine.life === "dead")
    return [{ kind: "agent", message: "Dead: waiting for the provisioner to release its instance and remove it", entities: [] }];
  const blockers: Blocker[] = [];
  const assigned = await db
    .select({ name: units.name })
    .from(units)
    .where(and(eq(units.modelId, machine.modelId), eq(units.machineId, machine.id)))
    .orderBy(asc(units.seq));
  if (assigned.length)
    blockers.push({ kind: "assigned-units", message: `units ${list(assigned.map((u) => u.name))} are assigned to it`, entities: assigned.map((u) => u.name) });
  const containers = await db
    .select({ id: machines.id })
    .from(machines)
    .where(and(eq(machines.modelId, machine.modelId), eq(machines.parentId, machine.id)))
    .orderBy(asc(machines.seq));
  if (containers.length)
    blockers.push({ kind: "containers", message: `containers ${list(containers.map((c) => c.id))} must be removed first`, entities: containers.map((c) => c.id) });
  blockers.push(...(await pendingCleanups(db, machine.modelId, machine.id)));
  if (!blockers.length)
    blockers.push({ kind: "agent", message: "waiting for its machine agent to set it Dead (or remove it with force)", entities: [machine.id] });
  return blockers;
}

export async function applicationBlockers(db: Database, app: ApplicationRow): Promise<Blocker[]> {
  if (app.life === "alive") return [];
  const blockers: Blocker[] = [];
  const remaining = await db
    .select({ name: units.name })
    .from(units)
    .where(and(eq(units.modelId, app.modelId), eq(units.application, app.name)))
    .orderBy(asc(units.seq))
    .limit(SHOWN);
  if (remaining.length)
    blockers.push({
      kind: "units",
      message: `${app.unitCount} unit(s) remain: ${list(remaining.map((u) => u.name), app.unitCount)}; each goes when its agent sets it Dead and its deployer removes it`,
      entities: remaining.map((u) => u.name),
    });
  const held = await db
    .select({ id: relations.id, key: relations.key, unitCount: relations.unitCount })
    .from(relationEndpoints)
    .innerJoin(relations, and(eq(relations.modelId, relationEndpoints.modelId), eq(relations.id, relationEndpoints.relationId)))
    .where(and(eq(relationEndpoints.modelId, app.modelId), eq(relationEndpoints.application, app.name)))
    .orderBy(asc(relations.id))
    .limit(SHOWN);
  if (held.length)
    blockers.push({
      kind: "relations",
      message: `relations ${list(held.map((r) => `${r.id} "${r.key}" (${r.unitCount} unit(s) in scope)`), app.relationCount)} remain; each goes when its last unit leaves scope`,
      entities: held.map((r) => String(r.id)),
    });
  blockers.push(...(await pendingCleanups(db, app.modelId, app.name)));
  return blockers;
}

export async function relationBlockers(db: Database, relation: RelationRow): Promise<Blocker[]> {
  if (relation.life === "alive") return [];
  const members = await db
    .select({ unit: relationScopes.unit })
    .from(relationScopes)
    .where(and(eq(relationScopes.modelId, relation.modelId), eq(relationScopes.relationId, relation.id)))
    .orderBy(asc(relationScopes.unit))
    .limit(SHOWN);
  const blockers: Blocker[] = [];
  if (members.length)
    blockers.push({
      kind: "units-in-scope",
      message: `units ${list(members.map((m) => m.unit), relation.unitCount)} are in its scope; it is removed when the last one leaves`,
      entities: members.map((m) => m.unit),
    });
  else if (relation.unitCount > 0)
    blockers.push({
      kind: "units-in-scope",
      message: `its scope count says ${relation.unitCount} unit(s) but none is in scope: remove it with force`,
      entities: [],
    });
  blockers.push(...(await pendingCleanups(db, relation.modelId, String(relation.id))));
  return blockers;
}

export async function modelBlockers(db: Database, model: ModelRow): Promise<Blocker[]> {
  if (model.life !== "dying") return [];
  const [apps] = await db.select({ n }).from(applications).where(eq(applications.modelId, model.id));
  const [hosts] = await db
    .select({ n })
    .from(machines)
    .where(and(eq(machines.modelId, model.id), sql`not ('JobManageModel' = any(${machines.jobs}))`));
  const [queued] = await db.select({ n }).from(cleanups).where(eq(cleanups.modelId, model.id));
  const blockers: Blocker[] = [];
  if (apps?.n) blockers.push({ kind: "applications", message: `${apps.n} application(s) remain`, entities: [] });
  if (hosts?.n) blockers.push({ kind: "machines", message: `${hosts.n} machine(s) remain`, entities: [] });
  if (queued?.n) blockers.push({ kind: "pending-cleanup", message: `${queued.n} cleanup(s) queued: the cleaner runs them (runCleanups)`, entities: [] });
  return blockers;
}
