// The one way the model writes: a serializable transaction that checks the
// seeds' preconditions, writes, and appends its change rows before commit.
// Serialization failures and deadlocks are retried a bounded number of times.
import type { Database } from "../db/connect.js";
import { appendChanges, type Change, type DbTx } from "../changes/log.js";
import { LifelineError } from "./errors.js";

export interface Tx {
  db: DbTx;
  /** Queues a change-log row, written at the end of this transaction. */
  record(change: Change): void;
}

export const MAX_ATTEMPTS = 8;

const retryable = new Set(["40001", "40P01"]); // serialization_failure, deadlock_detected

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
        { isolationLevel: "serializable" },
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
