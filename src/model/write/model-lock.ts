// The model's lock. Writes to one model are serialized: every operation's first read is its model's row, FOR NO KEY
// UPDATE, and commit bumps that row's revision (operation.ts). NO KEY: a row that only references the model (an
// agent's presence, a credential) checks its foreign key with FOR KEY SHARE, which FOR UPDATE would keep waiting for
// the writer's commit (an agent's first request waited on the model's writes so, 14 ms on average settling 1,000
// units). A transaction that holds the lock already, or has sent it (a group's writers after the first, or side by
// side with the one that sent it), takes the row as last read from the transaction (Tx.locked), with no statement.
//
// A model's writers are nearly always this process's, one turn after another (turns.ts), so the row the lock will
// answer is nearly always the row this process's last commit to the model left. A transaction's first lock of a
// model this process committed to takes that row at once (Tx.lastCommitted), and sends the lock as a guard it does
// not wait for: the row locked, and the statement failed unless the row is exactly as expected. A guard that fails
// fails every statement behind it, COMMIT included, and the operation runs again, the lock then awaited. An
// operation that reads nothing before it writes (a model's constraints, say) then takes one round trip, not two.
import { eq, getTableColumns, sql } from "drizzle-orm";
import { LifelineError, notFound } from "../../core/errors.js";
import { Life } from "../../core/life.js";
import { type Database, runsInProcess } from "../../db/connect.js";
import { models } from "../../db/schema.js";
import { sqlState } from "../../db/sql-state.js";
import { statement } from "../../db/statement.js";
import { checkModelName } from "../names.js";
import type { ModelRow } from "../rows.js";
import type { Tx } from "./tx.js";

/**
 * The model's life an operation needs: Alive for anything that adds to the
 * model; any life for the work that takes a Dying model apart (removals, the
 * agents' operations, cleanups).
 */
export type ModelLifeNeeded = typeof Life.Alive | "any";

const lockedModelRowByName = statement(["name"], (db, p) => db.select().from(models).where(eq(models.name, p.name)).for("no key update"));
const lockedModelRowById = statement(["id"], (db, p) => db.select().from(models).where(eq(models.id, p.id)).for("no key update"));

/**
 * The model's row locked, or the statement failed (division by zero: 22012) unless the row is `row`, to_jsonb's text
 * less compacted_through. Under READ COMMITTED a row updated while the lock waited is compared as committed, after the
 * wait. The log's compaction (src/changes/retention.ts) moves only compacted_through, which no write reads (ModelRow),
 * so it does not cost the model's next write a retry.
 */
const modelRowHeldAsExpected = statement(["id", "row"], (db, p) =>
  db
    .select({ held: sql<number>`1 / count(*)::int` })
    .from(
      sql`(select from ${models} m where m.id = ${p.id} and to_jsonb(m) - 'compacted_through' = ${p.row}::jsonb for no key update of m) as held`,
    ),
);

/** Past this many names the store's model ids (Tx.modelIds) start again: a bound, not an eviction policy (a model's first lock after it is one round trip more). */
const MAX_KNOWN_IDS = 10_000;

/** A guard's refusal: the model's row was not as this process last committed it. Retried (40001), the lock then awaited. */
export class ModelRowMoved extends Error {
  readonly code = "40001";
  constructor(name: string, options?: ErrorOptions) {
    super(`model "${name}" changed outside this process's last commit to it`, options);
  }
}

/**
 * Reads the model row FOR NO KEY UPDATE, serializing the model's writers; refuses a model without the life needed. In a
 * transaction that already holds the lock, or has sent it, the row as last read, with no statement. The lock held is
 * forgotten when the transaction writes the row (modelRowWritten), rolls back to a savepoint, or is refused the lock.
 */
export async function lockModel(tx: Tx, name: string, needs: ModelLifeNeeded): Promise<ModelRow> {
  let row = tx.locked.get(name);
  if (!row) {
    const expected = tx.lastCommitted(name);
    const sent = expected ? lockAsExpected(tx, name, expected) : lockModelRow(tx, name);
    tx.locked.set(name, sent);
    sent.catch(() => tx.locked.get(name) === sent && tx.locked.delete(name)); // refused: not held (its caller gets the refusal)
    row = sent;
  }
  const model = await row;
  if (!hasLifeNeeded(model, needs)) throw new LifelineError("NOT_ALIVE", `model "${name}" is ${model.life}`);
  return model;
}

/** Whether the model has the life an operation needs of it. */
export const hasLifeNeeded = (model: ModelRow, needs: ModelLifeNeeded): boolean => needs !== Life.Alive || model.life === Life.Alive;

/**
 * The model's row as this process's last commit to it left it (to_jsonb's text), by its name, on a store with round
 * trips to save (PostgreSQL); undefined otherwise, or when this process has not committed to it.
 */
export function lastCommittedRow(db: Database, name: string): string | undefined {
  const id = db.writers.modelIds.get(name);
  return id === undefined || runsInProcess(db) ? undefined : db.writers.lastCommitted.get(id);
}

/** Forgets the model's row as last committed: it was not the row the database held. */
export function forgetCommittedRow(db: Database, name: string): void {
  const id = db.writers.modelIds.get(name);
  if (id !== undefined) db.writers.lastCommitted.delete(id);
}

/** The row `expected` (to_jsonb's text) at once; the lock sent as its guard (tx.defer), failing the transaction unless it holds. */
function lockAsExpected(tx: Tx, name: string, expected: string): Promise<ModelRow> {
  const row = modelRowFromJson(expected);
  tx.defer(
    modelRowHeldAsExpected(tx.db, { id: row.id, row: expected }).catch((error: unknown) => {
      if (sqlState(error) !== "22012") throw error;
      tx.forgetCommitted(name);
      throw new ModelRowMoved(name, { cause: error });
    }),
  );
  return Promise.resolve(row);
}

const { compactedThrough: _, ...lockedColumns } = getTableColumns(models);
const modelColumns = Object.entries(lockedColumns);

/** A model's row from to_jsonb's text of it, as Drizzle would have read it. */
export function modelRowFromJson(text: string): ModelRow {
  const json = JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(modelColumns.map(([key, column]) => [key, column.mapFromDriverValue(json[column.name])])) as ModelRow;
}

async function lockModelRow(tx: Tx, name: string): Promise<ModelRow> {
  const [model] = await lockedModelRowByName(tx.db, { name: checkModelName(name) });
  const ids = tx.modelIds;
  if (!model) {
    ids.delete(name);
    throw notFound("model", name);
  }
  if (ids.get(name) !== model.id) {
    if (ids.size >= MAX_KNOWN_IDS) ids.clear();
    ids.set(name, model.id);
  }
  return model;
}

/** Keeps each model's row as a commit left it (by id, to_jsonb's text), for the next transaction's lock of it. */
export function rememberCommitted(lastCommitted: Map<string, string>, rows: ReadonlyMap<string, string>): void {
  for (const [id, row] of rows) {
    if (!lastCommitted.has(id) && lastCommitted.size >= MAX_KNOWN_IDS) lastCommitted.clear();
    lastCommitted.set(id, row);
  }
}

/** Every write of a model's row inside an operation says so: the group's writers after it then lock and read it again. */
export function modelRowWritten(tx: Tx, name: string): void {
  tx.locked.delete(name);
}

/** The model row by id, locked as lockModel does; undefined once the model is gone. */
export async function lockModelById(tx: Tx, id: string): Promise<ModelRow | undefined> {
  const [model] = await lockedModelRowById(tx.db, { id });
  return model;
}
