// Group commit: the writers of a model that queued up while a turn ran share the next one (turns.ts): one transaction,
// one lock wait, one revision bump and one COMMIT for up to MAX_GROUP of them, run one after another in their order of
// arrival, so that a refusal undoes only its own writes and changes (optimistically first, then carefully, each behind
// a savepoint, when a refusal has something to undo). Each is answered only once the shared transaction has committed.
// A writer whose failure a retry cures (a deadlock, say), and every writer of a group whose shared transaction failed
// as a whole, runs again alone (retry.ts), as a writer with nobody waiting behind it does. Writers whose footprints
// cannot meet (footprint.ts) run side by side within the group.
import type { Database } from "../../db/connect.js";
import { isOutage } from "../../db/outage.js";
import { sqlState } from "../../db/sql-state.js";
import { runTransaction, type StatementLog } from "../../db/transaction-runner.js";
import { type Footprint, SideBySide } from "../footprint.js";
import { Commitments, type Mark } from "./commitments.js";
import { curedByRetry, withRetries } from "./retry.js";
import type { Tx } from "./tx.js";

export const MAX_GROUP = 32; // PostgreSQL caches 64 subtransactions per session; a group stays well under

/** A writer waiting for its model's turn, and how it is answered. */
export interface Writer {
  work: (tx: Tx) => Promise<unknown>;
  /** What it touches, when it says (footprint.ts): writers whose footprints cannot meet run side by side. */
  footprint: Footprint | undefined;
  /** Its share of a group's work: 1, or the units it adds. */
  weight: number;
  /** Its work without a transaction, when it can run so alone (row-rewrite.ts): `{ value }`, or undefined to run `work`. */
  atOnce?: AtOnce;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A writer's work done without a transaction, if it can be: its answer, or undefined (nothing done) to run it in one. */
export type AtOnce = () => Promise<{ value: unknown } | undefined>;

/** Runs a writer at once if it can, else in a transaction of its own, retried on the failures a retry cures, and answers it. */
export async function alone(db: Database, writer: Writer): Promise<void> {
  try {
    const done = await writer.atOnce?.();
    if (done) return writer.resolve(done.value);
  } catch (error) {
    return writer.reject(error);
  }
  await withRetries(db, writer.work, true).then(writer.resolve, writer.reject);
}

type Outcome = { value: unknown } | { error: unknown } | "again";

/** A writer of a group whose work returned, while the writes it deferred may still fail. */
interface Unconfirmed {
  index: number;
  savepoint: string;
  mark: Mark;
  value: unknown;
}

const verdict = (error: unknown): Outcome => (curedByRetry(error) ? "again" : { error });

/** How a group's writers came out, and what their transaction left to do after its commit (if it committed). */
interface GroupRun {
  outcomes: Outcome[];
  commitments: Commitments;
  committed: boolean;
}

/**
 * Runs a group's writers one after another in one transaction, and answers each once it has committed. The group
 * runs first without a savepoint per writer (optimistically); if that cannot stand, again with one (carefully).
 */
export async function together(db: Database, group: readonly Writer[]): Promise<void> {
  const run = (await optimistically(db, group)) ?? (await carefully(db, group));
  if (run.committed) run.commitments.committed();
  for (const [i, writer] of group.entries()) {
    const outcome = run.outcomes[i]!;
    if (outcome === "again") await alone(db, writer);
    else if ("value" in outcome) writer.resolve(outcome.value);
    else writer.reject(outcome.error);
  }
}

/** Rejects with the failure `failure` finds, if any. */
const failing = async (failure: Promise<unknown>) => {
  const error = await failure;
  if (error !== undefined) throw error;
};

/** Thrown inside an optimistic group's transaction to roll it back, for the group to run again carefully. */
const CAREFULLY = Symbol("run the group again, a savepoint per writer");

/**
 * How many of a group's writers, from the `i`th, run side by side: those in a row whose footprints cannot meet
 * (footprint.ts), at least the `i`th itself. The first of the group's to lock the model sends the lock, and the others
 * wait for its answer (lockModel): their reads travel right behind it.
 */
function sideBySideFrom(group: readonly Writer[], i: number): number {
  const running = new SideBySide();
  let n = 0;
  for (const writer of group.slice(i)) {
    if (!writer.footprint || !running.join(writer.footprint)) break;
    n++;
  }
  return Math.max(n, 1);
}

/**
 * Whether the writer runs side by side with others: then a count it read with the model's lock may have moved since
 * (its neighbours add to it), and a decision on the count is taken from the statement that changes it instead.
 */
export function runsBesideOthers(tx: Tx): boolean {
  return tx.besideOthers;
}

/**
 * An operation whose footprint did not cover what it found it has to do (a principal entering a container-scoped
 * relation creates a subordinate, say) calls this before doing it: run side by side with others, it has the group run
 * again, one writer after another. Alone, it does nothing.
 */
export function needsTurnAlone(tx: Tx): void {
  if (tx.besideOthers) throw CAREFULLY;
}

/**
 * Most groups end with every writer's work done, and then a savepoint per writer is a statement each for nothing
 * (as is rolling back to one). So a group runs first without them. A writer refused before it wrote (every statement
 * it sent a SELECT, each answered without error, and no write deferred) leaves nothing to undo: its refusal stands and
 * the writers after it go on. Anything else that fails (a refusal after a write, a statement PostgreSQL refused, a
 * deferred write) rolls the transaction back, and undefined has the group run again carefully.
 */
async function optimistically(db: Database, group: readonly Writer[]): Promise<GroupRun | undefined> {
  const commitments = new Commitments(db);
  const outcomes: Outcome[] = [];
  let statements: StatementLog | undefined;
  try {
    await runTransaction(
      db,
      async (open) => {
        const log = open.log!;
        for (let i = 0; i < group.length; ) {
          const together = sideBySideFrom(group, i);
          if (together > 1) {
            const lanes = group.slice(i, i + together).map(() => commitments.lane());
            const ran = await Promise.allSettled(lanes.map((lane, k) => group[i + k]!.work(lane.tx(open.tx))));
            // A refusal among them cannot tell its statements from its neighbours': the group runs again, carefully.
            if (ran.some((result) => result.status === "rejected")) throw CAREFULLY;
            for (const [k, result] of ran.entries()) {
              commitments.absorb(lanes[k]!); // in the group's order, whatever order they came back in
              outcomes[i + k] = { value: (result as PromiseFulfilledResult<unknown>).value };
            }
            i += together;
            continue;
          }
          const writer = group[i]!;
          const mark = commitments.mark();
          const from = log.count();
          try {
            outcomes[i] = { value: await writer.work(commitments.tx(open.tx)) };
          } catch (thrown) {
            // Its reads' answers are checked with everyone's below: a failed one fails every statement after it too.
            if (sqlState(thrown) !== undefined || commitments.deferred.length > mark[2] || log.wroteSince(from)) throw CAREFULLY;
            commitments.undo(mark);
            outcomes[i] = { error: thrown };
          }
          i++;
        }
        statements = log;
      },
      () => commitments.appendStatements(),
      false,
      // The change rows and COMMIT go right behind the writers' last statements, without waiting for their answers;
      // PostgreSQL answers a COMMIT behind a failed statement with a rollback, so the group stands only if none failed.
      () => [failing(commitments.firstFailure()), failing(statements!.failureSince(0))],
      true,
    );
  } catch (error) {
    // The database out of reach: running the group again would wait on it again, and a COMMIT in doubt may have
    // committed. Every writer hears of it.
    if (isOutage(error)) return { outcomes: group.map(() => ({ error })), commitments, committed: false };
    return undefined;
  }
  return { outcomes, commitments, committed: true };
}

/**
 * Runs a group's writers one after another in one transaction, each behind a savepoint. A writer's deferred writes
 * are not waited for before the next writer starts: they travel with its savepoint and its first read, so a writer
 * takes the round trips an operation alone takes without its COMMIT. A writer is confirmed once the statements sent after its writes have
 * answered. If one of its deferred writes failed, PostgreSQL refused everything behind it (25P02): the transaction
 * goes back to that writer's savepoint, the writer fails with its own error, and the writers after it run again.
 */
async function carefully(db: Database, group: readonly Writer[]): Promise<GroupRun> {
  const commitments = new Commitments(db);
  let outcomes: Outcome[] = [];
  let ok = false;
  try {
    await runTransaction(
      db,
      async (open) => {
        let unconfirmed: Unconfirmed[] = [];
        /**
         * Confirms the unconfirmed writers whose deferred writes, up to `until`, all succeeded; at the first that
         * failed, rolls back to its savepoint and gives the index to go on from (its next writer's).
         */
        const confirm = async (until: number): Promise<number | undefined> => {
          const waiting = unconfirmed;
          unconfirmed = [];
          for (const [k, writer] of waiting.entries()) {
            const error = await commitments.firstFailure(writer.mark, waiting[k + 1]?.mark[2] ?? until);
            if (error === undefined) {
              outcomes[writer.index] = { value: writer.value };
              continue;
            }
            commitments.undo(writer.mark); // its changes go with its writes, and so do those of every writer after it
            commitments.locked.clear(); // a model row it wrote is as it was again
            await open.rollbackTo(writer.savepoint);
            outcomes[writer.index] = verdict(error);
            return writer.index + 1;
          }
          return undefined;
        };
        for (let i = 0; ; ) {
          if (i === group.length) {
            const again = await confirm(Number.POSITIVE_INFINITY);
            if (again === undefined) break;
            i = again;
            continue;
          }
          const savepoint = `writer_${i}`;
          const mark = commitments.mark();
          let outcome: { value: unknown } | { thrown: unknown };
          try {
            await open.savepoint(savepoint); // refused too behind a failed deferred write
            outcome = { value: await group[i]!.work(commitments.tx(open.tx)) };
          } catch (thrown) {
            outcome = { thrown };
          }
          // The writers before it first: when one of their deferred writes failed, this writer's statements were refused
          // behind it, and it runs again.
          const again = await confirm(mark[2]);
          if (again !== undefined) {
            i = again;
            continue;
          }
          if ("value" in outcome) unconfirmed.push({ index: i, savepoint, mark, value: outcome.value });
          else {
            const error = (await commitments.firstFailure(mark)) ?? outcome.thrown;
            commitments.undo(mark); // its changes go with its writes
            commitments.locked.clear();
            await open.rollbackTo(savepoint);
            outcomes[i] = verdict(error);
          }
          i++;
        }
      },
      () => commitments.appendStatements(),
    );
    ok = true;
  } catch (error) {
    // The shared transaction failed as a whole (its COMMIT, a savepoint): nothing of it committed, and each writer runs
    // again alone. Unless the database is out of reach: then each hears so (and a COMMIT in doubt is not run twice).
    outcomes = group.map(() => (isOutage(error) ? { error } : "again"));
  }
  return { outcomes, commitments, committed: ok };
}
