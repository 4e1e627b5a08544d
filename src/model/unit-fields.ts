// A write of some of a unit's fields whose answer nobody waits for.
import { and, eq } from "drizzle-orm";
import { units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { ModelRow, UnitRow } from "./rows.js";
import type { Tx } from "./write/index.js";

type Fields = Partial<Omit<typeof units.$inferInsert, "modelId" | "name">>;

/**
 * Sets `fields` on the unit's row, sent with the next statement (tx.defer), and gives the row as written: every value
 * is set here, and the model's lock keeps other writers off the row, so no RETURNING is needed to know it.
 */
export function setUnitFields<F extends Fields>(tx: Tx, model: ModelRow, unit: UnitRow, fields: F): UnitRow & F {
  tx.defer(updateOf(Object.keys(fields).sort())(tx.db, { ...fields, modelId: model.id, name: unit.name }));
  return { ...unit, ...fields };
}

type Update = ReturnType<typeof statement<string, unknown>>;

/** One statement per set of fields written together: a handful, one per caller (the agent's status, the workload's). */
const updates = new Map<string, Update>();

function updateOf(names: readonly string[]): Update {
  const key = names.join(" ");
  let update = updates.get(key);
  if (!update) {
    update = statement(["modelId", "name", ...names], (db, p) =>
      db
        .update(units)
        // Placeholders stand for the values: each is encoded by its column when bound (a date, a JSON document).
        .set(Object.fromEntries(names.map((n) => [n, p[n]])) as Fields)
        .where(and(eq(units.modelId, p.modelId!), eq(units.name, p.name!))),
    );
    updates.set(key, update);
  }
  return update;
}
