// A write of some of a unit's fields whose answer nobody waits for.
import { and, eq } from "drizzle-orm";
import { units } from "../db/schema.js";
import type { ModelRow, UnitRow } from "./rows.js";
import type { Tx } from "./transaction.js";

type Fields = Partial<Omit<typeof units.$inferInsert, "modelId" | "name">>;

/**
 * Sets `fields` on the unit's row, sent with the next statement (tx.defer), and gives the row as written: every value
 * is set here, and the model's lock keeps other writers off the row, so no RETURNING is needed to know it.
 */
export function setUnitFields<F extends Fields>(tx: Tx, model: ModelRow, unit: UnitRow, fields: F): UnitRow & F {
  tx.defer(
    tx.db
      .update(units)
      .set(fields)
      .where(and(eq(units.modelId, model.id), eq(units.name, unit.name))),
  );
  return { ...unit, ...fields };
}
