// The one owner of transactions. Every write is an operation: one transaction that locks its model, checks the life
// the operation needs, checks the seeds' preconditions, writes, and appends its change rows before commit.
//
// Writes to one model are serialized: every operation's first read is its model's row, FOR NO KEY UPDATE (lockModel), and
// commit bumps that row's revision. Under READ COMMITTED each later statement then sees everything committed by the
// writers before it, so preconditions are checked against the latest state with no lost updates, and within a model
// commit order is revision order. (SERIALIZABLE would add nothing here: the shared revision row makes every pair of
// concurrent writers conflict, and its snapshot, taken before the lock wait, would abort every waiter.) Reads never
// block. An operation on a model waits for its turn (turns.ts), may share a transaction with the writers queued
// beside it (group-commit.ts), and is retried when a retry cures its failure (retry.ts). A model's operation can also
// be rehearsed: run alone and rolled back, for what it would do (rehearsal.ts).
import type { Database } from "../../db/connect.js";
import { sentAhead } from "../../db/sent-ahead.js";
import type { Footprint } from "../footprint.js";
import type { ModelRow } from "../rows.js";
import type { AtOnce } from "./group-commit.js";
import { lockModel, type ModelLifeNeeded } from "./model-lock.js";
import { type Rehearsal, rehearse } from "./rehearsal.js";
import { withRetries } from "./retry.js";
import { type ModelRowWrite, rewriteAtOnce, rewriteInTransaction } from "./row-rewrite.js";
import { inTurn } from "./turns.js";
import type { Tx } from "./tx.js";

/**
 * Runs `work` in one READ COMMITTED transaction, retried on the failures a retry cures.
 * `model` names the model it writes (as its lockModel will), so that model's writers in
 * this process take turns before taking a connection, and share a transaction when they queue; `footprint`, what it
 * touches (footprint.ts), lets it run side by side with the writers of its group that touch nothing it does.
 */
export function transact<T>(
  db: Database,
  work: (tx: Tx) => Promise<T>,
  model?: string,
  footprint?: Footprint,
  weight = 1,
  atOnce?: AtOnce,
): Promise<T> {
  return model === undefined ? withRetries(db, work, false) : inTurn(db, model, work, footprint, weight, atOnce);
}

/** Every operation's input names its model. */
export interface InModel {
  model: string;
}

/** An operation as resolvers and agents call it: the store and one input object. */
export type Operation<I, R> = (db: Database, input: I) => Promise<R>;

/** An operation that can also be rehearsed: run alone in a transaction that is rolled back (rehearsal.ts). */
export type Rehearsable<I, R> = Operation<I, R> & {
  rehearse(db: Database, input: I): Promise<Rehearsal<R>>;
};

/**
 * The operation whose transaction runs `work` for an input: for real (transact), or rehearsed. `atOnce`: the same
 * work without a transaction, where it can be (row-rewrite.ts); never rehearsed so.
 */
function rehearsable<I extends InModel, R>(
  work: (input: I) => (tx: Tx) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
  weight?: (input: I) => number,
  atOnce?: (db: Database, input: I) => AtOnce,
): Rehearsable<I, R> {
  const operation: Operation<I, R> = (db, input) =>
    transact(db, work(input), input.model, footprint?.(input), weight?.(input), atOnce?.(db, input));
  return Object.assign(operation, { rehearse: (db: Database, input: I) => rehearse(db, work(input)) });
}

/** An operation that is one of several, chosen by its input (rehearsed as the one chosen). */
export function chosenBy<I extends InModel, R>(choose: (input: I) => Rehearsable<I, R>): Rehearsable<I, R> {
  const operation: Operation<I, R> = (db, input) => choose(input)(db, input);
  return Object.assign(operation, { rehearse: (db: Database, input: I) => choose(input).rehearse(db, input) });
}

/**
 * An operation that only rewrites its model's row, as `write` decides from the row and the input: in a transaction,
 * the model locked and its life checked first, as modelOperation; or, alone in its turn on PostgreSQL with the row
 * known, as one statement (row-rewrite.ts).
 */
export function modelRowOperation<I extends InModel, R>(
  needs: ModelLifeNeeded,
  write: (model: ModelRow, input: I) => ModelRowWrite<R>,
): Rehearsable<I, R> {
  return rehearsable(
    (input) => async (tx) => {
      const model = await lockModel(tx, input.model, needs);
      return rewriteInTransaction(tx, model, write(model, input));
    },
    undefined,
    undefined,
    (db, input) => () => rewriteAtOnce(db, input.model, needs, (model) => write(model, input)),
  );
}

/** An operation on one model: one transaction, the model locked and its life checked first. */
export function modelOperation<I extends InModel, R>(
  needs: ModelLifeNeeded,
  body: (tx: Tx, model: ModelRow, input: I) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
  weight?: (input: I) => number,
): Rehearsable<I, R> {
  return rehearsable((input) => async (tx) => body(tx, await lockModel(tx, input.model, needs), input), footprint, weight);
}

/** What a read sent ahead of the model's lock knows of the model: its id, and its name for refusals. */
export type ModelKey = Pick<ModelRow, "id" | "name">;

/**
 * An operation on one model whose first read needs only the model's id (the entity it acts on, typically): as
 * modelOperation, with `read`'s result handed to `body`. The read is sent right behind the model's lock, on the same
 * connection, without waiting for the lock's answer: one round trip less. PostgreSQL runs it once the lock is
 * granted, with a snapshot taken then (READ COMMITTED: each statement takes its own), so it sees all that it would
 * have seen sent afterwards. The id is the one this process last locked under the model's name (Tx.modelIds); the
 * first time, or when the lock answers with another id (the model was removed and added again), the read is sent
 * after the lock. The lock's refusal comes first, as with modelOperation: a read's failure counts only once the lock
 * has succeeded.
 */
export function modelOperationReading<I extends InModel, P, R>(
  needs: ModelLifeNeeded,
  read: (tx: Tx, model: ModelKey, input: I) => Promise<P>,
  body: (tx: Tx, model: ModelRow, input: I, first: P) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
  weight?: (input: I) => number,
): Rehearsable<I, R> {
  return rehearsable(
    (input) => async (tx) => {
      const id = tx.modelIds.get(input.model);
      const locked = lockModel(tx, input.model, needs);
      // Started after the lock, so handed to the connection after it (both are one statement's call away).
      // Awaited below unless the lock failed, which fails it too (25P02).
      const ahead = id === undefined ? undefined : sentAhead(read(tx, { id, name: input.model }, input));
      const model = await locked;
      if (ahead && model.id === id) return body(tx, model, input, await ahead);
      await ahead?.catch(() => {}); // read with an id the model no longer has: let it finish, then read again
      return body(tx, model, input, await read(tx, model, input));
    },
    footprint,
    weight,
  );
}
