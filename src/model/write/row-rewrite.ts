// Operations that only rewrite their model's row (a model's constraints, say). Such an operation reads nothing but the
// model's row before it writes, and its write is to that row: so when this process knows the row as its last commit
// to the model left it (PostgreSQL: Tx.lastCommitted), the whole operation is one statement, with no transaction
// around it (transaction-runner.ts, runStatementAlone): the append's revision bump sets the columns too, on the
// condition that the row is still as expected, and appends the change. That is the lock's guard, the write, the
// append, BEGIN and COMMIT in one: on the mutation benchmark's setConstraints, about 40% less of PostgreSQL's CPU and
// 35% less of the server's (docs/decisions.md, "A write-only operation is one statement"). When the row is not as
// expected, or the operation refuses (the lock must confirm a refusal), or the writer is not alone in its turn, it
// runs in a transaction as any other operation does, from the same description.
import { eq, getTableColumns } from "drizzle-orm";
import type { RowRewrite } from "../../changes/append.js";
import type { Change } from "../../changes/change.js";
import type { Database } from "../../db/connect.js";
import { models } from "../../db/schema.js";
import { sqlState } from "../../db/sql-state.js";
import { runStatementAlone } from "../../db/transaction-runner.js";
import type { ModelRow } from "../rows.js";
import { Commitments } from "./commitments.js";
import {
  forgetCommittedRow,
  hasLifeNeeded,
  lastCommittedRow,
  type ModelLifeNeeded,
  modelRowFromJson,
  modelRowWritten,
} from "./model-lock.js";
import type { Tx } from "./tx.js";

/** The columns of its model's row an operation may set. */
export type ModelRowSet = Partial<Omit<ModelRow, "id" | "name" | "revision">>;

/** What an operation that only rewrites its model's row does, decided from the row: the columns it sets, the change it records, its answer. */
export interface ModelRowWrite<R> {
  set: ModelRowSet;
  change: Change;
  result: R;
}

/** The write in the operation's transaction, the model's row locked: the columns set, the change recorded. */
export function rewriteInTransaction<R>(tx: Tx, model: ModelRow, write: ModelRowWrite<R>): R {
  tx.defer(tx.db.update(models).set(write.set).where(eq(models.id, model.id)));
  modelRowWritten(tx, model.name);
  tx.record(model.id, write.change);
  return write.result;
}

/**
 * The write as one statement, when it can be: answers `{ value }` once it has committed, or undefined when the operation
 * is to run in a transaction instead (see above); nothing was written then.
 */
export async function rewriteAtOnce<R>(
  db: Database,
  name: string,
  needs: ModelLifeNeeded,
  decide: (model: ModelRow) => ModelRowWrite<R>,
): Promise<{ value: R } | undefined> {
  const expected = lastCommittedRow(db, name);
  if (expected === undefined) return undefined;
  const model = modelRowFromJson(expected);
  if (!hasLifeNeeded(model, needs)) return undefined; // a refusal: the transaction gives it, the row then locked
  let write: ModelRowWrite<R>;
  try {
    write = decide(model);
  } catch {
    return undefined; // a refusal: the transaction gives it, the row then locked
  }
  const commitments = new Commitments(db);
  commitments.record(model.id, write.change);
  const [statement] = commitments.appendStatements({ modelId: model.id, set: columnsSet(write.set), expected });
  try {
    await runStatementAlone(db, statement!);
  } catch (error) {
    if (sqlState(error) !== "22012") throw error;
    forgetCommittedRow(db, name); // the row moved: the transaction waits for the lock
    return undefined;
  }
  commitments.committed();
  return { value: write.result };
}

const columns = getTableColumns(models);

/** The columns `set` sets, as the append's bump sets them: SQL name, type and driver value (as Drizzle would send it). */
function columnsSet(set: ModelRowSet): RowRewrite["set"] {
  return Object.entries(set).map(([key, value]) => {
    const column = columns[key as keyof typeof columns];
    return { column: column.name, type: column.getSQLType(), value: column.mapToDriverValue(value) };
  });
}
