import { sql } from "drizzle-orm";
import { machines, sequences, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Tx } from "./transaction.js";

/** The next number of a per-model counter, starting at 0. Numbers are never reused. */
const bumpSequence = statement(["modelId", "name"], (db, p) =>
  db
    .insert(sequences)
    .values({ modelId: p.modelId, name: p.name, value: 1 })
    .onConflictDoUpdate({ target: [sequences.modelId, sequences.name], set: { value: sql`${sequences.value} + 1` } })
    .returning({ value: sequences.value }),
);

export async function nextSequence(tx: Tx, modelId: string, name: string): Promise<number> {
  const [row] = await bumpSequence(tx.db, { modelId, name });
  return row!.value - 1;
}

/** A new row's place in its table's creation order (`seq`) and the transaction's time (`now()`, the same in all its statements). */
export interface CreationPlace {
  seq: number;
  now: Date;
}

const placeIn = (table: "units" | "machines", time: typeof units.statusSince | typeof machines.statusSince) =>
  statement([], (db) =>
    db
      .select({
        seq: sql<number>`nextval(pg_get_serial_sequence(${table}, 'seq'))`.mapWith(Number),
        now: sql<Date>`now()`.mapWith(time),
      })
      .from(sql`generate_series(1, 1)`),
  );

const places = { units: placeIn("units", units.statusSince), machines: placeIn("machines", machines.statusSince) };

/**
 * Reads a new row's place and time ahead of its insert: with them the operation knows the row before it writes it,
 * and the insert can go without waiting for its answer (tx.defer), with whatever follows.
 */
export async function creationPlace(tx: Tx, table: "units" | "machines"): Promise<CreationPlace> {
  const [place] = await places[table](tx.db, {});
  return place!;
}
