// The change log's write side. Changes are collected while a transaction runs
// and appended as its last statements: the model's revision counter is bumped
// once (taking the row lock late, so it is held briefly), and within a model
// commit order is revision order.
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { changes, models } from "../db/schema.js";

export type DbTx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What a change is about. Entities carry their id; the two relation-membership
 * kinds use "<relation id>:<unit name>" as their entity:
 * - "scope": a unit entered (life "alive") or left (removed: true) a relation's scope;
 *   fields { relationId, unit, application, role, container } (container: the
 *   principal unit for container-scoped relations, else null).
 * - "settings": a unit's relation settings were written (fields { relationId, unit, version })
 *   or deleted with their relation (removed: true).
 */
export type EntityKind = "model" | "machine" | "charm" | "application" | "unit" | "relation" | "scope" | "settings";
export type Life = "alive" | "dying" | "dead";

export interface Change {
  modelId: string;
  kind: EntityKind;
  /** The entity's id in the model: machine id, unit or application name, relation id, charm url. */
  entity: string;
  life?: Life | null;
  removed?: boolean;
  /** The fields that changed, with their new values (enough to act on without a second read). */
  fields?: Record<string, unknown>;
}

/**
 * The NOTIFY channel the log's tailers LISTEN on (src/changes/wakeup.ts). The payload is
 * only the model id: a wake-up, never data. Payloads are capped at 8000 bytes and lost
 * while a listener is disconnected, so readers always catch up from the table.
 */
export const CHANGES_CHANNEL = "lifeline_changes";

export async function appendChanges(tx: DbTx, pending: readonly Change[]): Promise<void> {
  const byModel = new Map<string, Change[]>();
  for (const change of pending) {
    const list = byModel.get(change.modelId) ?? [];
    list.push(change);
    byModel.set(change.modelId, list);
  }
  // A fixed order keeps two multi-model transactions from deadlocking on the counters.
  for (const modelId of [...byModel.keys()].sort()) {
    const list = byModel.get(modelId)!;
    const [row] = await tx
      .update(models)
      .set({ revision: sql`${models.revision} + ${list.length}` })
      .where(eq(models.id, modelId))
      .returning({ revision: models.revision });
    if (!row) throw new Error(`change log: model ${modelId} vanished inside its own transaction`);
    const first = row.revision - list.length + 1;
    await tx.insert(changes).values(
      list.map((change, i) => ({
        modelId,
        revision: first + i,
        kind: change.kind,
        entity: change.entity,
        life: change.life ?? null,
        removed: change.removed ?? false,
        fields: change.fields ?? {},
      })),
    );
    // Delivered at commit, and only if the transaction commits.
    await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${modelId})`);
  }
}
