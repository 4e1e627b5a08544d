// Rehearsals: an operation run for what it would do, and undone (a removal's dry run). It runs alone, in a transaction
// of its own that is rolled back: the same rules, reads and refusals as for real, against the latest state (it locks
// its model as every writer does), but never in a group with other writers, and with nothing of a commit: no change
// rows appended (so no revision bump and no stream wakes), no afterCommit work. The change rows its rules recorded are
// what it answers, beside the operation's own result: the one account of what the operation does.
import type { PendingChange } from "../../changes/append.js";
import type { Database } from "../../db/connect.js";
import { runTransaction } from "../../db/transaction-runner.js";
import { Commitments } from "./commitments.js";
import { retried } from "./retry.js";
import type { Tx } from "./tx.js";

/** What a rehearsed operation would have done: its result, and the change rows it would have appended. */
export interface Rehearsal<T> {
  value: T;
  changes: readonly PendingChange[];
}

/** Thrown at the end of a rehearsal's work, so its transaction rolls back on either store. */
class Rehearsed<T> {
  constructor(readonly rehearsal: Rehearsal<T>) {}
}

/**
 * Runs `work` in a READ COMMITTED transaction of its own and rolls it back; answers what it did, or fails as it would
 * have (its deferred writes' failures included). Retried, as withRetries is, on the failures a retry cures.
 */
export function rehearse<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<Rehearsal<T>> {
  return retried(async () => {
    const commitments = Commitments.outOfTurn(db); // a rehearsal takes no turn: its lock is awaited
    try {
      await runTransaction(
        db,
        async (open) => {
          const value = await work(commitments.tx(open.tx));
          await Promise.all(commitments.deferred); // a deferred write's refusal is the operation's
          throw new Rehearsed({ value, changes: [...commitments.pending] });
        },
        () => [],
      );
    } catch (thrown) {
      if (thrown instanceof Rehearsed) return thrown.rehearsal as Rehearsal<T>;
      throw (await commitments.firstFailure()) ?? thrown;
    }
    throw new Error("a rehearsal's transaction ended without rolling back"); // its work always throws
  });
}
