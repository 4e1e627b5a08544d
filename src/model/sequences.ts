import { sql } from "drizzle-orm";
import { sequences, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Tx } from "./write/index.js";

/** Per-model counters bumped, each by how many times it is named: the value after, by name. */
const bumpSequences = statement(["modelId", "names", "counts"], (db, p) =>
  db
    .insert(sequences)
    .select(sql`select ${p.modelId}::uuid, * from unnest(${p.names}::text[], ${p.counts}::int[])`)
    .onConflictDoUpdate({ target: [sequences.modelId, sequences.name], set: { value: sql`${sequences.value} + excluded.value` } })
    .returning({ name: sequences.name, value: sequences.value }),
);

/** The next number of a per-model counter, starting at 0. Numbers are never reused. */
export async function nextSequence(tx: Tx, modelId: string, name: string): Promise<number> {
  return (await nextSequences(tx, modelId, [name]))[0]!;
}

/**
 * nextSequence for each name, in one statement: a name given k times gets its counter's next k numbers, in the order
 * given (the units an addUnit call starts together, and their new machines).
 */
export async function nextSequences(tx: Tx, modelId: string, names: readonly string[]): Promise<number[]> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const after = await bumpSequences(tx.db, { modelId, names: [...counts.keys()], counts: [...counts.values()] });
  const next = new Map(after.map((row) => [row.name, row.value - counts.get(row.name)!]));
  return names.map((name) => {
    const number = next.get(name)!;
    next.set(name, number + 1);
    return number;
  });
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

/** A new unit's or machine's place and time. */
export async function creationPlace(tx: Tx, table: "units" | "machines"): Promise<CreationPlace> {
  return (await creationPlaces(tx, [table]))[0]!;
}

/** Places in several tables' creation order at once: one row a place asked for, each table's ascending. */
const placesIn = statement(["tables"], (db, p) =>
  db
    .select({
      table: sql<string>`t.tbl`,
      seq: sql<number>`nextval(pg_get_serial_sequence(t.tbl, 'seq'))`.mapWith(Number),
      now: sql<Date>`now()`.mapWith(units.statusSince),
    })
    .from(sql`unnest(${p.tables}::text[]) as t(tbl)`)
    .orderBy(sql`2`),
);

/** creationPlace for each table named, in one statement: each table's places ascending in the order named. */
export async function creationPlaces(tx: Tx, tables: readonly ("units" | "machines")[]): Promise<CreationPlace[]> {
  const byTable = new Map<string, CreationPlace[]>();
  for (const { table, seq, now } of await placesIn(tx.db, { tables: [...tables] })) {
    const places = byTable.get(table) ?? [];
    places.push({ seq, now });
    byTable.set(table, places);
  }
  return tables.map((table) => byTable.get(table)!.shift()!);
}

/** The transaction's time (`now()`), for an operation that writes no new row to read it with. */
const transactionNow = statement([], (db) => db.select({ now: sql<Date>`now()`.mapWith(units.statusSince) }).from(sql`(select 1) as one`));

export async function transactionTime(tx: Tx): Promise<Date> {
  return (await transactionNow(tx.db, {}))[0]!.now;
}
