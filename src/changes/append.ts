// The change log's write side. Changes are collected while a transaction runs
// and appended as its last statements: the model's revision counter is bumped
// once (taking the row lock late, so it is held briefly), and within a model
// commit order is revision order.
import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "../db/connect.js";
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
    const rows = JSON.stringify(
      list.map((c) => ({ kind: c.kind, entity: c.entity, life: c.life, removed: c.removed, fields: { ...c.fields } })),
    );
    // One round trip: the revision counter bumped (the row lock taken late, so it is held
    // briefly), the rows numbered from it and appended, and the wake-up, which is
    // delivered at commit, and only if the transaction commits.
    const [bumped] = rowsOf<{ revision: string | number }>(
      await tx.execute(sql`
        with bump as (
          update ${models} set revision = revision + ${list.length} where id = ${modelId} returning revision
        ), appended as (
          insert into ${changes} (model_id, revision, kind, entity, life, removed, fields)
          select ${modelId}, bump.revision - ${list.length} + c.n, c.kind, c.entity, c.life::life, c.removed, c.fields
          from bump, rows from (jsonb_to_recordset(${rows}::jsonb) as (kind text, entity text, life text, removed boolean, fields jsonb))
            with ordinality as c(kind, entity, life, removed, fields, n)
        )
        select revision, pg_notify(${CHANGES_CHANNEL}, ${modelId}) from bump`),
    );
    if (!bumped) throw new Error(`change log: model ${modelId} vanished inside its own transaction`);
  }
}
