// A query reads one moment: all its statements see the database as it stood at one instant,
// as `juju status` does. Read statement by statement, a status query listing units with
// their `application { name }` could find an application gone between the two reads.
//
// On PostgreSQL the query's reads run in one REPEATABLE READ, READ ONLY transaction on a
// connection of its own (inSnapshot: its BEGIN travels with the first read), at most half
// the pool at a time (connect.ts). On PGlite, one session for everyone, they run as they
// always did while writes wait (pglite-write-gate.ts): no other client's reads wait.
import { type Database, type DrizzleDatabase, queryTurnOf, runsInProcess } from "./connect.js";
import { inSnapshot } from "./transaction-runner.js";

/** Runs `read` with a database handle whose every statement reads the same moment, until `read` settles. */
export function atOneMoment<T>(db: Database, read: (moment: DrizzleDatabase) => Promise<T>): Promise<T> {
  const turn = queryTurnOf(db);
  if (!turn) throw new Error("atOneMoment needs a store's database (openStore)");
  if (runsInProcess(db)) return turn(() => read(db));
  return turn(() => inSnapshot(db, (tx) => read(tx)));
}
