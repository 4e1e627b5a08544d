import { sql } from "drizzle-orm";
import { sequences, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Tx } from "./write/index.js";

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

/**
 * The next `count` values of a table's serial column (`nextval`, in order), each with the transaction's time (`now()`,
 * the same in every statement of a transaction, so the time new rows take): read ahead of their inserts, with them an
 * operation knows its new rows before it writes them, and the inserts can go without waiting (tx.defer).
 */
const serialValues = statement(["table", "column", "count"], (db, p) =>
  db
    .select({
      value: sql<number>`nextval(pg_get_serial_sequence(${p.table}::text, ${p.column}::text))`.mapWith(Number),
      now: sql<Date>`now()`.mapWith(units.statusSince),
    })
    .from(sql`generate_series(1, ${p.count}::int)`)
    .orderBy(sql`1`),
);

export async function nextSerials(
  tx: Tx,
  table: "units" | "machines" | "hook_runs",
  column: "seq" | "id",
  count: number,
): Promise<{ value: number; now: Date }[]> {
  return serialValues(tx.db, { table, column, count });
}

/** A new row's place in its table's creation order (`seq`) and the transaction's time. */
export interface CreationPlace {
  seq: number;
  now: Date;
}

/** A new unit's or machine's place and time (nextSerials). */
export async function creationPlace(tx: Tx, table: "units" | "machines"): Promise<CreationPlace> {
  const [{ value, now }] = (await nextSerials(tx, table, "seq", 1)) as [{ value: number; now: Date }];
  return { seq: value, now };
}
