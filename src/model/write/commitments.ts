// What a transaction's writers leave to its end: the change rows to append, the writes sent and not yet answered, and
// the work to run once it commits. A writer of a group that is refused has its part undone (mark, undo); one that ran
// side by side with others kept its part apart (a lane), and the group takes it on in the group's order (absorb).
import { type Appended, appendChanges, type DbTx, type PendingChange, type RowRewrite } from "../../changes/append.js";
import type { Change } from "../../changes/change.js";
import type { Database } from "../../db/connect.js";
import { committed } from "../authentications.js";
import type { ModelRow } from "../rows.js";
import { forgetCommittedRow, lastCommittedRow, rememberCommitted } from "./model-lock.js";
import type { Tx } from "./tx.js";

/** Where a transaction's commitments stood, to undo back to. */
export type Mark = readonly [pending: number, after: number, deferred: number];

export class Commitments {
  readonly pending: PendingChange[] = [];
  private readonly after: ((db: Database) => void)[] = [];
  /** Writes sent with tx.defer, in the order sent (the order PostgreSQL runs and answers them). */
  readonly deferred: Promise<unknown>[] = [];
  /** The change rows as they went, once their statements are built: what the commit leaves this process to do. */
  private appended: Appended | null = null;

  /**
   * `locked`: the model rows the transaction holds locked (Tx.locked), shared with the writers running side by side;
   * `besideOthers`: whether its writer runs side by side with others.
   */
  constructor(
    private readonly db: Database,
    readonly locked = new Map<string, Promise<ModelRow>>(),
    readonly besideOthers = false,
    /** The models the transaction has locked (or sent the lock of) at least once: after that, its own writes may have moved the row. */
    private readonly lockedOnce = new Set<string>(),
    /**
     * Whether the transaction runs in its model's turn (turns.ts). Only then is the row this process last committed
     * the row its lock will find: outside the turn, this process's writers may be committing to the model as it reads
     * the row, and a lock taken as last committed failed every retry while they did.
     */
    private readonly inTurn = true,
  ) {}

  /** The commitments of a transaction outside its model's turn (a rehearsal, a transaction that names no model): its locks are awaited. */
  static outOfTurn(db: Database): Commitments {
    return new Commitments(db, undefined, undefined, undefined, false);
  }

  /** The commitments of a writer that runs side by side with others: its own, the locked rows shared. */
  lane(): Commitments {
    return new Commitments(this.db, this.locked, true, this.lockedOnce, this.inTurn);
  }

  /** Takes on what a writer that ran side by side left (`lane`), after everything here: the group's order. */
  absorb(lane: Commitments): void {
    this.pending.push(...lane.pending);
    this.after.push(...lane.after);
    this.deferred.push(...lane.deferred);
  }

  /** A writer's view of the transaction, whose statements go through `tx`. */
  tx(tx: DbTx): Tx {
    return {
      db: tx,
      defer: <T>(write: PromiseLike<T>) => {
        const sent = new Promise<T>((resolve, reject) => write.then(resolve, reject)); // started now, and only once
        sent.catch(() => {}); // answered later, by firstFailure() or the transaction's end: never an unhandled rejection meanwhile
        this.deferred.push(sent);
        return sent;
      },
      record: (modelId, change) => this.record(modelId, change),
      afterCommit: (then) => void this.after.push(then),
      locked: this.locked,
      modelIds: this.db.writers.modelIds,
      lastCommitted: (name) => {
        const first = !this.lockedOnce.has(name);
        this.lockedOnce.add(name);
        return first && this.inTurn ? lastCommittedRow(this.db, name) : undefined;
      },
      forgetCommitted: (name) => forgetCommittedRow(this.db, name),
      besideOthers: this.besideOthers,
    };
  }

  /** Queues a change row for `modelId`'s log, appended at the transaction's end. */
  record(modelId: string, change: Change): void {
    this.pending.push({ modelId, change });
  }

  /** Where the writers' commitments stand now, to undo back to. */
  mark(): Mark {
    return [this.pending.length, this.after.length, this.deferred.length];
  }

  /** Drops what was left since `mark` (its writer's writes were rolled back). */
  undo([pending, after, deferred]: Mark): void {
    this.pending.length = pending;
    this.after.length = after;
    this.deferred.length = deferred;
  }

  /**
   * The failure of the first deferred write since `mark` (and before the `until`th) that failed, if any: the error to report when a statement
   * behind it failed too, since PostgreSQL refuses everything after a failed statement (25P02) until the rollback.
   */
  async firstFailure(mark: Mark = [0, 0, 0], until?: number): Promise<unknown> {
    for (const result of await Promise.allSettled(this.deferred.slice(mark[2], until)))
      if (result.status === "rejected") return result.reason;
    return undefined;
  }

  /** The change rows' statements, the last of the transaction (append.ts); with `rewrite`, its model's rewrites the model's row. */
  appendStatements(rewrite?: RowRewrite) {
    this.appended = appendChanges(this.db, this.pending, rewrite);
    return this.appended.statements;
  }

  /** After the commit: what this process remembers of tokens, its own feed's wake-up, then the writers' own afterCommit work. */
  committed(): void {
    committed(this.db, this.pending);
    if (this.appended) rememberCommitted(this.db.writers.lastCommitted, this.appended.modelRows);
    this.appended?.committed();
    for (const then of this.after) then(this.db);
  }
}
