// Retries. Deadlocks, serialization failures and a concurrent insert of the same key are retried a bounded number of
// times, with a jittered backoff; the retry's own precondition check then gives the proper refusal (ALREADY_EXISTS,
// say). A writer runs here alone, in a transaction of its own: one with nobody queued behind it, one whose failure in
// a group a retry cures, and every writer of a group whose shared transaction failed as a whole (group-commit.ts).
import { LifelineError } from "../../core/errors.js";
import type { Database } from "../../db/connect.js";
import { sqlState } from "../../db/sql-state.js";
import { runTransaction } from "../../db/transaction-runner.js";
import { Commitments } from "./commitments.js";
import type { Tx } from "./tx.js";

export const MAX_ATTEMPTS = 8;

const retryable = new Set(["40001", "40P01", "23505"]); // serialization_failure, deadlock_detected, unique_violation

/** Whether running the work again may cure the failure. */
export const curedByRetry = (error: unknown): boolean => retryable.has(sqlState(error) ?? "");

/**
 * Runs `attempt` again while it fails in a way a retry cures, a bounded number of times, with a jittered backoff (so the
 * losers of a race do not collide again in lockstep). `attempt` throws the failure to judge.
 */
export async function retried<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!curedByRetry(error)) throw error;
      if (n >= MAX_ATTEMPTS)
        throw new LifelineError("CONTENTION", `excessive contention: gave up after ${n} attempts; retry the operation`);
      await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** n));
    }
  }
}

/**
 * Runs `work` in one READ COMMITTED transaction of its own, retried on the failures a retry cures; `inTurn`: in its
 * model's turn (turns.ts), where a lock may be taken as this process last committed the row (model-lock.ts).
 */
export async function withRetries<T>(db: Database, work: (tx: Tx) => Promise<T>, inTurn: boolean): Promise<T> {
  const { result, commitments } = await retried(async () => {
    const commitments = inTurn ? new Commitments(db) : Commitments.outOfTurn(db);
    try {
      // READ COMMITTED is every session's default (the store sets it when it connects).
      const result = await runTransaction(
        db,
        (open) => work(commitments.tx(open.tx)),
        () => commitments.appendStatements(),
        false,
        () => commitments.deferred,
      );
      return { result, commitments };
    } catch (thrown) {
      throw (await commitments.firstFailure()) ?? thrown;
    }
  });
  commitments.committed();
  return result;
}
