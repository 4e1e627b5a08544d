// postgres.js, as Drizzle drives it, with every statement prepared on its connection.
//
// Drizzle asks postgres.js not to prepare a statement unless the query was given a name
// (`prepare: false`). For a statement with parameters postgres.js then sends Parse and
// Describe, waits for the parameter types, and only then sends Bind and Execute: two round
// trips, two socket writes and a fresh parse and plan on the server, for every statement
// of every operation. Prepared, a statement costs one round trip after its first use on a
// connection (postgres.js keeps the connection's statements by text). Measured with the
// write benchmark (bench/writes.ts): see docs/decisions.md, "Round trips and statements".
//
// Statements whose parameter count varies with the input (`in ($1, …, $n)`) would each
// length make a statement of its own on every connection, kept for its life; those with
// more than MAX_PREPARED_PARAMETERS parameters are not prepared, which bounds that.
import type postgres from "postgres";

/** Statements with more parameters than this run unprepared (they are rare: lists of a batch). */
export const MAX_PREPARED_PARAMETERS = 64;

type Sql = postgres.Sql;
type TransactionSql = postgres.TransactionSql;

/** `client`, with `unsafe` preparing its statements, in transactions and savepoints too. */
export function preparingStatements<T extends Sql | TransactionSql | postgres.ReservedSql>(client: T): T {
  return new Proxy(client, {
    get(target, key, receiver) {
      switch (key) {
        case "unsafe":
          return (query: string, parameters: unknown[] = [], options: postgres.UnsafeQueryOptions = {}) =>
            target.unsafe(query, parameters as never, {
              ...options,
              prepare: parameters.length <= MAX_PREPARED_PARAMETERS,
            });
        case "begin":
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: TransactionSql) => unknown;
            return (target as Sql).begin(...(args as [string]), (tx) => fn(preparingStatements(tx)));
          };
        case "reserve":
          return async () => preparingStatements(await (target as Sql).reserve());
        case "savepoint":
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: TransactionSql) => unknown;
            return (target as TransactionSql).savepoint(...(args as [string]), (tx) => fn(preparingStatements(tx)));
          };
        default:
          return Reflect.get(target, key, receiver);
      }
    },
  });
}
