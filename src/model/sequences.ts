import { sql } from "drizzle-orm";
import { sequences } from "../db/schema.js";
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
