// The one way the model writes: a transaction that checks the seeds'
// preconditions, writes, and appends its change rows before commit.
//
// Writes to one model are serialized: every operation's first read is its
// model's row, FOR UPDATE (getModel), and commit bumps that row's revision.
// Under READ COMMITTED each later statement then sees everything committed by
// the writers before it, so preconditions are checked against the latest
// state with no lost updates, and within a model commit order is revision
// order. (SERIALIZABLE would add nothing here: the shared revision row makes
// every pair of concurrent writers conflict, and its snapshot, taken before
// the lock wait, would abort every waiter.) Reads never block.
//
// Deadlocks, serialization failures and a concurrent insert of the same key
// are retried a bounded number of times; the retry's own precondition check
// then gives the proper refusal (ALREADY_EXISTS, say).
import type { Database } from "../db/connect.js";
import { appendChanges, type Change, type DbTx } from "../changes/log.js";
import { LifelineError } from "./errors.js";

export interface Tx {
  db: DbTx;
  /** Queues a change-log row, written at the end of this transaction. */
  record(change: Change): void;
}

export const MAX_ATTEMPTS = 8;

const retryable = new Set(["40001", "40P01", "23505"]); // serialization_failure, deadlock_detected, unique_violation

function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export async function transact<T>(db: Database, operation: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(
        async (dbTx) => {
          const pending: Change[] = [];
          const result = await operation({ db: dbTx, record: (change) => pending.push(change) });
          await appendChanges(dbTx, pending);
          return result;
        },
        { isolationLevel: "read committed" },
      );
    } catch (error) {
      const state = sqlState(error);
      if (!state || !retryable.has(state)) throw error;
      if (attempt >= MAX_ATTEMPTS)
        throw new LifelineError("CONTENTION", `excessive contention: gave up after ${attempt} attempts; retry the operation`);
      // Jittered backoff, so the losers of a race do not collide again in lockstep.
      await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** attempt));
    }
  }
}
