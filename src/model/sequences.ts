// A model's counters (unit numbers, machine ids, relation ids, charm revisions) and the tables' serials (creation
// order, hook run ids). An operation asks for them ahead of its writes; those one writer asks for in one turn (the
// sixteen units an addUnit call starts together: each a unit number, a machine id and two places in creation order)
// go as one statement of each kind, not one each: 64 statements were 2.
import DataLoader from "dataloader";
import { sql } from "drizzle-orm";
import { sequences, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Tx } from "./write/index.js";

/**
 * `one` for each of a writer's asks, or `many` for the asks it made in one turn. Per writer (its Tx), never across the
 * writers of a group: a writer undone to its savepoint must not undo another's numbers.
 */
function inTurnsOf<A, V>(one: (tx: Tx, ask: A) => Promise<V>, many: (tx: Tx, asks: readonly A[]) => Promise<V[]>) {
  const loaders = new WeakMap<Tx, DataLoader<A, V>>();
  return (tx: Tx, ask: A): Promise<V> => {
    let loader = loaders.get(tx);
    if (!loader) {
      loader = new DataLoader<A, V>((asks) => (asks.length === 1 ? one(tx, asks[0]!).then((v) => [v]) : many(tx, asks)), {
        cache: false,
      });
      loaders.set(tx, loader);
    }
    return loader.load(ask);
  };
}

/** The next number of a per-model counter, starting at 0. Numbers are never reused. */
const bumpSequence = statement(["modelId", "name"], (db, p) =>
  db
    .insert(sequences)
    .values({ modelId: p.modelId, name: p.name, value: 1 })
    .onConflictDoUpdate({ target: [sequences.modelId, sequences.name], set: { value: sql`${sequences.value} + 1` } })
    .returning({ value: sequences.value }),
);

/** Several counters bumped at once, each by how many asks named it: the value after, by model and name. */
const bumpSequences = statement(["modelIds", "names", "counts"], (db, p) =>
  db
    .insert(sequences)
    .select(sql`select * from unnest(${p.modelIds}::uuid[], ${p.names}::text[], ${p.counts}::int[])`)
    .onConflictDoUpdate({ target: [sequences.modelId, sequences.name], set: { value: sql`${sequences.value} + excluded.value` } })
    .returning({ modelId: sequences.modelId, name: sequences.name, value: sequences.value }),
);

interface CounterAsk {
  modelId: string;
  name: string;
}

const counterKey = (ask: CounterAsk) => `${ask.modelId} ${ask.name}`;

const nextNumbers = inTurnsOf<CounterAsk, number>(
  async (tx, ask) => (await bumpSequence(tx.db, ask))[0]!.value - 1,
  async (tx, asks) => {
    const counts = new Map<string, { ask: CounterAsk; count: number }>();
    for (const ask of asks) {
      const counted = counts.get(counterKey(ask));
      if (counted) counted.count++;
      else counts.set(counterKey(ask), { ask, count: 1 });
    }
    const bumped = [...counts.values()];
    const after = await bumpSequences(tx.db, {
      modelIds: bumped.map((b) => b.ask.modelId),
      names: bumped.map((b) => b.ask.name),
      counts: bumped.map((b) => b.count),
    });
    // Each counter's new numbers, handed out in the order they were asked for.
    const next = new Map(after.map((row) => [counterKey(row), row.value - counts.get(counterKey(row))!.count]));
    return asks.map((ask) => {
      const key = counterKey(ask);
      const number = next.get(key)!;
      next.set(key, number + 1);
      return number;
    });
  },
);

export function nextSequence(tx: Tx, modelId: string, name: string): Promise<number> {
  return nextNumbers(tx, { modelId, name });
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

/** Values of several tables' serials at once: one row a value asked for, by table, each table's in ascending order. */
const serialValuesOf = statement(["tables", "columns"], (db, p) =>
  db
    .select({
      table: sql<string>`t.tbl`,
      value: sql<number>`nextval(pg_get_serial_sequence(t.tbl, t.col))`.mapWith(Number),
      now: sql<Date>`now()`.mapWith(units.statusSince),
    })
    .from(sql`unnest(${p.tables}::text[], ${p.columns}::text[]) as t(tbl, col)`)
    .orderBy(sql`2`),
);

interface SerialAsk {
  table: "units" | "machines" | "hook_runs";
  column: "seq" | "id";
  count: number;
}

type Serial = { value: number; now: Date };

const serialsAsked = inTurnsOf<SerialAsk, Serial[]>(
  (tx, ask) => serialValues(tx.db, ask),
  async (tx, asks) => {
    const rows = await serialValuesOf(tx.db, {
      tables: asks.flatMap((ask) => Array<string>(ask.count).fill(ask.table)),
      columns: asks.flatMap((ask) => Array<string>(ask.count).fill(ask.column)),
    });
    // Each table's values in ascending order, handed out in the order they were asked for.
    const byTable = new Map<string, Serial[]>();
    for (const { table, value, now } of rows) {
      const values = byTable.get(table) ?? [];
      values.push({ value, now });
      byTable.set(table, values);
    }
    return asks.map((ask) => byTable.get(ask.table)!.splice(0, ask.count));
  },
);

export function nextSerials(
  tx: Tx,
  table: "units" | "machines" | "hook_runs",
  column: "seq" | "id",
  count: number,
): Promise<{ value: number; now: Date }[]> {
  return serialsAsked(tx, { table, column, count });
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
