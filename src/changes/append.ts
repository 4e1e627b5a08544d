// The change log's write side. Changes are collected while a transaction runs
// and appended as its last statements: the model's revision counter is bumped
// once (taking the row lock late, so it is held briefly), and within a model
// commit order is revision order.
import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { changes, models } from "../db/schema.js";
import type { Change } from "./change.js";

export type DbTx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A change waiting to be appended, with the model whose log it goes to. */
export interface PendingChange {
  modelId: string;
  change: Change;
}

/**
 * The NOTIFY channel the log's tailers LISTEN on (src/changes/wakeup.ts). The payload is
 * only the model id: a wake-up, never data. Payloads are capped at 8000 bytes and lost
 * while a listener is disconnected, so readers always catch up from the table.
 */
export const CHANGES_CHANNEL = "lifeline_changes";

export async function appendChanges(tx: DbTx, pending: readonly PendingChange[]): Promise<void> {
  const byModel = new Map<string, Change[]>();
  for (const { modelId, change } of pending) {
    const list = byModel.get(modelId) ?? [];
    list.push(change);
    byModel.set(modelId, list);
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
        life: change.life,
        removed: change.removed,
        fields: { ...change.fields },
      })),
    );
    // Delivered at commit, and only if the transaction commits.
    await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${modelId})`);
  }
}
