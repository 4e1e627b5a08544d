// An operation's view of its transaction: what its rules write through (db, defer), what they leave to its end (record,
// afterCommit), and what the transaction holds that its writers share. Made by the transaction's commitments
// (commitments.ts), one for each writer that runs in it.
import type { DbTx } from "../../changes/append.js";
import type { Change } from "../../changes/change.js";
import type { Database } from "../../db/connect.js";
import type { ModelRow } from "../rows.js";

export interface Tx {
  db: DbTx;
  /**
   * Sends a write whose answer the operation does not need without waiting for it: PostgreSQL runs it in its turn, and
   * it travels with the next statement (often the COMMIT) instead of taking a round trip of its own. Its failure fails
   * the operation as if it had been awaited, with its own error. A Drizzle query is started here, once (they are lazy,
   * and run again on every `then`). Returns the started write, for an operation that wants its answer later: awaited
   * after more statements were sent, it costs no round trip of its own.
   */
  defer<T>(write: PromiseLike<T>): Promise<T>;
  /** Queues a change-log row for `modelId`'s log, written at the end of this transaction. */
  record(modelId: string, change: Change): void;
  /** Runs `then` with the store once this transaction has committed; never if it rolls back. */
  afterCommit(then: (db: Database) => void): void;
  /**
   * The model rows the transaction holds locked, by name, as it last read them (or is locking them: the lock's answer,
   * on its way), shared by the writers of its group (model-lock.ts).
   */
  readonly locked: Map<string, Promise<ModelRow>>;
  /** Each model's id by name, as this process last locked it: its store's (model-lock.ts). */
  readonly modelIds: Map<string, string>;
  /**
   * The model's row as this process's last commit to it left it (to_jsonb's text), for the transaction's first lock of
   * the model, on a store with round trips to save (PostgreSQL); undefined otherwise (model-lock.ts).
   */
  lastCommitted(name: string): string | undefined;
  /** Forgets the model's row as last committed: it was not the row the lock found. */
  forgetCommitted(name: string): void;
  /** Whether this writer runs side by side with others of its group (group-commit.ts). */
  readonly besideOthers: boolean;
}
