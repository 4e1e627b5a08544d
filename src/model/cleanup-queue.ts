// The cleanup queue seed 000 says does not exist (its BUG): work that must
// follow a transaction is queued inside it and run later, in bounded batches,
// by the cleaner (cleanups.ts). A closed list of kinds, each with one handler.
import { and, asc, eq, inArray } from "drizzle-orm";
import { cleanupQueued } from "../changes/change.js";
import { cleanups } from "../db/schema.js";
import type { Blocker } from "./blocker.js";
import type { CleanupRow, ModelRow, Queryable } from "./rows.js";
import type { Tx } from "./write/index.js";

export const CleanupKinds = {
  /** Delete a removed relation's unit settings (target: relation id). */
  relationSettings: "relation-settings",
  /** Set the Alive units of a Dying application Dying, and with force schedule their forced removal (target: application). */
  dyingUnits: "dying-units",
  /** Set subordinates Dying once no Alive container-scoped relation joins them to their principals' application (target: relation id). */
  dyingSubordinates: "dying-subordinates",
  /** Take a force-removed relation's members out of its scope in batches; the last to go removes it (target: relation id). */
  forceRelation: "force-relation",
  /** Force a unit Dead and remove it, keeping every reference consistent (target: unit). */
  forceUnit: "force-unit",
  /** Force a machine's units and containers away and the machine Dead (target: machine id). */
  forceMachine: "force-machine",
  /** Destroy everything in a Dying model and, once it is empty, finish it (target: model name). */
  destroyModel: "destroy-model",
} as const;
export type CleanupKind = (typeof CleanupKinds)[keyof typeof CleanupKinds];

/** Which kinds of cleanup name an entity of each kind as their target: a target is only an id within its kind. */
export const cleanupsTargeting = {
  unit: [CleanupKinds.forceUnit],
  machine: [CleanupKinds.forceMachine],
  application: [CleanupKinds.dyingUnits],
  relation: [CleanupKinds.dyingSubordinates, CleanupKinds.relationSettings, CleanupKinds.forceRelation],
  model: [CleanupKinds.destroyModel],
} as const satisfies Record<string, readonly CleanupKind[]>;

/** Rows a handler touches per transaction: never one giant transaction, never unbounded memory. */
export const CLEANUP_BATCH = 500;

export async function queueCleanup(
  tx: Tx,
  model: ModelRow,
  kind: CleanupKind,
  target: string,
  args: Record<string, unknown> = {},
  dueAt: Date = new Date(),
): Promise<void> {
  const [queued] = await tx.db
    .insert(cleanups)
    .values({ modelId: model.id, kind, target, args, dueAt })
    .returning({ id: cleanups.id, kind: cleanups.kind, target: cleanups.target, dueAt: cleanups.dueAt });
  tx.record(model.id, cleanupQueued(queued!));
}

/** Saves a handler's progress (a keyset cursor, say) on its queue row for the next batch. */
export async function saveCleanupProgress(tx: Tx, cleanup: CleanupRow, args: Record<string, unknown>): Promise<void> {
  await tx.db
    .update(cleanups)
    .set({ args: { ...cleanup.args, ...args } })
    .where(eq(cleanups.id, cleanup.id));
}

const describe = (c: Pick<CleanupRow, "kind" | "dueAt" | "attempts" | "lastError">) => {
  const due = c.dueAt > new Date() ? ` (due ${c.dueAt.toISOString()})` : "";
  const failed = c.lastError === null ? "" : `; it failed ${c.attempts} time(s), last with "${c.lastError}"`;
  return `cleanup "${c.kind}" is queued${due}${failed}: the cleaner runs it (runCleanups)`;
};

/** The cleanups queued for one entity, as blockers. */
export async function pendingCleanups(
  q: Queryable,
  modelId: string,
  entity: keyof typeof cleanupsTargeting,
  target: string,
): Promise<Blocker[]> {
  const rows = await q
    .select()
    .from(cleanups)
    .where(and(eq(cleanups.modelId, modelId), inArray(cleanups.kind, [...cleanupsTargeting[entity]]), eq(cleanups.target, target)))
    .orderBy(asc(cleanups.id));
  return rows.map((c) => ({ kind: "pending-cleanup", message: describe(c), entities: [] }));
}
