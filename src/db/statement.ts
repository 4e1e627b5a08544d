// Statements built once. Drizzle builds a query's SQL text from its builder on every
// call; on the write path that was a quarter of the server's CPU (a profile of
// bench/writes.ts: sqlToQuery and the builders' entity checks). A `statement` is built
// the first time it runs on a store, with `sql.placeholder` for its inputs, and from then
// on only its values are bound: the same text, so also one prepared statement on each
// PostgreSQL connection (src/db/prepared.ts).
//
// How: Drizzle's `.prepare()` gives a query object bound to the connection of the
// database it was built on. Each run binds a copy of it (a prototype link, nothing
// copied) to the caller's connection, a transaction's or the pool's, so a statement runs
// inside whatever transaction its caller is in. Built queries are kept per Drizzle
// instance (its dialect), so two stores, or two drivers, never share one.
import { type Placeholder, sql } from "drizzle-orm";
import type { DrizzleDatabase } from "./connect.js";

/** Drizzle's database or transaction, as far as a statement needs it (its session is internal). */
interface Session {
  session: { client: unknown; dialect: object };
}

interface PreparedQuery<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** What `prepare` is called on: any Drizzle builder. */
interface Preparable<R> {
  prepare(name: string): PreparedQuery<R>;
}

let count = 0;

/** Snapshots' reads by statement and values: the first run's answer, for the same read again in the same snapshot. */
const snapshotReads = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Within `tx`, a transaction whose every read sees one snapshot, a statement run again with the same values is not
 * sent again: its first answer is shared (each caller gets its own array). A thousand unit agents of one application
 * open their streams in a few batches, each batch one snapshot, and each stream read the application, its relations,
 * their endpoints and the counterpart members again: half of a unit's snapshot statements.
 */
export function shareRepeatedReads(tx: object): void {
  snapshotReads.set(tx, new Map());
}

/** The key of a statement's run, or null for values JSON cannot tell apart (such a read is not shared). */
function runKey(name: string, values: Record<string, unknown>): string | null {
  try {
    return `${name} ${JSON.stringify(values)}`;
  } catch {
    return null; // a bigint, say
  }
}

const ownCopy = <R>(answer: R): R => (Array.isArray(answer) ? (answer.slice() as R) : answer);

/**
 * A statement with inputs `keys`, built on first use by `build`, which gets the database
 * to build on and a placeholder for each input (`p.name`). The result runs it on a
 * database's or a transaction's connection with the inputs' values.
 */
export function statement<const K extends string, R>(
  keys: readonly K[],
  build: (db: DrizzleDatabase, p: Record<K, Placeholder>) => Preparable<R>,
): (db: DrizzleDatabase, values: Record<K, unknown>) => Promise<R> {
  const name = `lifeline_statement_${count++}`;
  const placeholders = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as unknown as Record<K, Placeholder>;
  const built = new WeakMap<object, PreparedQuery<R>>();
  return (db, values) => {
    const { session } = db as unknown as Session;
    let query = built.get(session.dialect);
    if (!query) {
      query = build(db, placeholders).prepare(name);
      built.set(session.dialect, query);
    }
    const bound = Object.create(query) as PreparedQuery<R> & { client: unknown };
    bound.client = session.client;
    const shared = snapshotReads.get(db);
    const key = shared && runKey(name, values);
    if (!key) return bound.execute(values);
    let answer = shared.get(key) as Promise<R> | undefined;
    if (!answer) {
      answer = bound.execute(values);
      shared.set(key, answer);
    }
    return answer.then(ownCopy);
  };
}
