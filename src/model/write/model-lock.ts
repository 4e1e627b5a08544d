// The model's lock. Writes to one model are serialized: every operation's first read is its model's row, FOR UPDATE,
// and commit bumps that row's revision (operation.ts). A transaction that holds the lock already, or has sent it (a
// group's writers after the first, or side by side with the one that sent it), takes the row as last read from the
// transaction (Tx.locked), with no statement.
import { eq } from "drizzle-orm";
import { LifelineError, notFound } from "../../core/errors.js";
import { Life } from "../../core/life.js";
import { models } from "../../db/schema.js";
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

const modelRowForUpdate = statement(["name"], (db, p) => db.select().from(models).where(eq(models.name, p.name)).for("update"));
const modelRowByIdForUpdate = statement(["id"], (db, p) => db.select().from(models).where(eq(models.id, p.id)).for("update"));

/** Past this many names the store's model ids (Tx.modelIds) start again: a bound, not an eviction policy (a model's first lock after it is one round trip more). */
const MAX_KNOWN_IDS = 10_000;

/**
 * Reads the model row FOR UPDATE, serializing the model's writers; refuses a model without the life needed. In a
 * transaction that already holds the lock, or has sent it, the row as last read, with no statement. The lock held is
 * forgotten when the transaction writes the row (modelRowWritten), rolls back to a savepoint, or is refused the lock.
 */
export async function lockModel(tx: Tx, name: string, needs: ModelLifeNeeded): Promise<ModelRow> {
  let row = tx.locked.get(name);
  if (!row) {
    const sent = lockModelRow(tx, name);
    tx.locked.set(name, sent);
    sent.catch(() => tx.locked.get(name) === sent && tx.locked.delete(name)); // refused: not held (its caller gets the refusal)
    row = sent;
  }
  const model = await row;
  if (needs === Life.Alive && model.life !== Life.Alive) throw new LifelineError("NOT_ALIVE", `model "${name}" is ${model.life}`);
  return model;
}

async function lockModelRow(tx: Tx, name: string): Promise<ModelRow> {
  const [model] = await modelRowForUpdate(tx.db, { name: checkModelName(name) });
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

/** Every write of a model's row inside an operation says so: the group's writers after it then lock and read it again. */
export function modelRowWritten(tx: Tx, name: string): void {
  tx.locked.delete(name);
}

/** The model row by id, locked as lockModel does; undefined once the model is gone. */
export async function lockModelById(tx: Tx, id: string): Promise<ModelRow | undefined> {
  const [model] = await modelRowByIdForUpdate(tx.db, { id });
  return model;
}
