// The one owner of transactions. Every write is an operation: one transaction
// that locks its model, checks the life the operation needs, checks the seeds'
// preconditions, writes, and appends its change rows before commit.
//
// Writes to one model are serialized: every operation's first read is its
// model's row, FOR UPDATE (lockModel), and commit bumps that row's revision.
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
import { eq } from "drizzle-orm";
import { type Appended, appendChanges, type DbTx, type PendingChange } from "../changes/append.js";
import type { Change } from "../changes/change.js";
import { LifelineError, notFound } from "../core/errors.js";
import { Life } from "../core/life.js";
import { type Database, runsInProcess } from "../db/connect.js";
import { isOutage } from "../db/outage.js";
import { models } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import { runTransaction, type StatementLog } from "../db/transaction-runner.js";
import { committed } from "./authentications.js";
import { type Footprint, SideBySide } from "./footprint.js";
import { checkModelName } from "./names.js";
import type { ModelRow } from "./rows.js";

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
}

export const MAX_ATTEMPTS = 8;

const retryable = new Set(["40001", "40P01", "23505"]); // serialization_failure, deadlock_detected, unique_violation

function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * Writers of one model, in this process, take turns in memory instead of each holding a
 * pooled connection while it waits for the model's row lock: with thousands of agents
 * writing to one model, waiting writers took every connection of the pool, and every read
 * (a stream's snapshot, a query) starved behind them.
 *
 * And the writers that queued up while a turn ran share the next one (group commit):
 * one transaction, one lock wait, one revision bump and one COMMIT for up to
 * MAX_GROUP of them, run one after another in their order of arrival, so that a
 * refusal undoes only its own writes and changes (together: optimistically, then
 * carefully, each behind a savepoint, when a refusal has something to undo). Each is answered
 * only once the shared transaction has committed. A writer whose failure a retry cures
 * (a deadlock, say), and every writer of a group whose shared transaction failed as a
 * whole, runs again alone, as a writer with nobody waiting behind it does.
 *
 * Keyed per store, so two stores' models never wait on each other.
 */
export const MAX_GROUP = 32; // PostgreSQL caches 64 subtransactions per session; a group stays well under

interface Writer {
  work: (tx: Tx) => Promise<unknown>;
  /** What it touches, when it says (footprint.ts): writers whose footprints cannot meet run side by side. */
  footprint: Footprint | undefined;
  /** Its share of a group's work: 1, or the units it adds. */
  weight: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const queues = new WeakMap<Database, Map<string, Writer[]>>();

/**
 * The units one transaction adds at most on a store that runs in this process (PGlite). There a transaction holds the
 * one session, and with it every other client's reads, until it commits; its statements run on promise jobs, so it
 * holds the event loop too. About 5 ms a unit on this 2-core machine: 10 keep a transaction near 50 ms.
 */
export const UNITS_A_TRANSACTION_IN_PROCESS = 10;

/**
 * What a group's writers weigh together at most: a writer weighs 1, or the units it adds, and one heavier than this
 * runs alone. There (PGlite) 32 calls adding 20 units each were 640 units in one transaction (3 s); on PostgreSQL 32
 * calls of 1,000 units were 31,000 in one, whose commit held the event loop 0.8 s. A transaction of 1,000 units, as
 * one call may add (MAX_UNITS_PER_REQUEST), held another client at most 25 ms there.
 */
const groupWeight = (db: Database) => (runsInProcess(db) ? UNITS_A_TRANSACTION_IN_PROCESS : 1000);

/** The writers at the head of the queue that share the next transaction. */
function nextGroup(db: Database, waiting: readonly Writer[]): Writer[] {
  const most = groupWeight(db);
  let n = 1;
  let weight = waiting[0]!.weight;
  while (n < Math.min(waiting.length, MAX_GROUP) && weight + waiting[n]!.weight <= most) weight += waiting[n++]!.weight;
  return waiting.slice(0, n);
}

function inTurn<T>(
  db: Database,
  model: string,
  work: (tx: Tx) => Promise<T>,
  footprint: Footprint | undefined,
  weight: number,
): Promise<T> {
  let byModel = queues.get(db);
  if (!byModel) {
    byModel = new Map();
    queues.set(db, byModel);
  }
  return new Promise<T>((resolve, reject) => {
    const writer: Writer = { work, footprint, weight, resolve: resolve as (value: unknown) => void, reject };
    const waiting = byModel.get(model);
    if (waiting) return void waiting.push(writer);
    byModel.set(model, [writer]);
    void takeTurns(db, byModel, model);
  });
}

/** Runs the model's writers, a group at a time, until none is left. */
async function takeTurns(db: Database, byModel: Map<string, Writer[]>, model: string): Promise<void> {
  const waiting = byModel.get(model)!;
  while (waiting.length) {
    const group = nextGroup(db, waiting);
    if (group.length === 1) await alone(db, group[0]!);
    else await together(db, group);
    waiting.splice(0, group.length);
    // PGlite answers on promise jobs: without a turn of the event loop here, a queue of writers ran one transaction
    // after another with no other client's I/O between them (32 of them: 4 s).
    if (waiting.length && runsInProcess(db)) await new Promise((resolve) => setImmediate(resolve));
  }
  byModel.delete(model);
}

async function alone(db: Database, writer: Writer): Promise<void> {
  await withRetries(db, writer.work).then(writer.resolve, writer.reject);
}

type Outcome = { value: unknown } | { error: unknown } | "again";

type Mark = readonly [pending: number, after: number, deferred: number];

/**
 * The model rows a transaction holds locked, by name, as it last read them (or is locking them: the lock's answer, on
 * its way): a group's writers after the first take the row from here instead of locking it again (a statement each).
 * Forgotten when the transaction writes the row (modelRowWritten), rolls back to a savepoint, or is refused the lock.
 */
const lockedRows = new WeakMap<Tx, Map<string, Promise<ModelRow>>>();

/** What a transaction's writers leave to its end: change rows to append, writes not yet answered, and work to run once it commits. */
class Commitments {
  readonly pending: PendingChange[] = [];
  private readonly after: ((db: Database) => void)[] = [];
  /** Writes sent with tx.defer, in the order sent (the order PostgreSQL runs and answers them). */
  readonly deferred: Promise<unknown>[] = [];
  /** The change rows as they went, once their statements are built: what the commit leaves this process to do. */
  private appended: Appended | null = null;

  /** `locked`: the model rows the transaction holds locked (lockedRows), shared with the writers running side by side. */
  constructor(readonly locked = new Map<string, Promise<ModelRow>>()) {}

  /** Takes on what a writer that ran side by side left (`lane`), after everything here: the group's order. */
  absorb(lane: Commitments): void {
    this.pending.push(...lane.pending);
    this.after.push(...lane.after);
    this.deferred.push(...lane.deferred);
  }

  /** A writer's view of the transaction (`besides`: running side by side with others). */
  tx(db: DbTx, besides = false): Tx {
    const tx: Tx = {
      db,
      defer: <T>(write: PromiseLike<T>) => {
        const sent = new Promise<T>((resolve, reject) => write.then(resolve, reject)); // started now, and only once
        sent.catch(() => {}); // answered later, by firstFailure() or the transaction's end: never an unhandled rejection meanwhile
        this.deferred.push(sent);
        return sent;
      },
      record: (modelId, change) => void this.pending.push({ modelId, change }),
      afterCommit: (then) => void this.after.push(then),
    };
    lockedRows.set(tx, this.locked);
    if (besides) besideOthers.add(tx);
    return tx;
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

  /** The change rows' statements, the last of the transaction (append.ts). */
  appendStatements(db: Database) {
    this.appended = appendChanges(db, this.pending);
    return this.appended.statements;
  }

  /** After the commit: what this process remembers of tokens, its own feed's wake-up, then the writers' own afterCommit work. */
  committed(db: Database): void {
    committed(db, this.pending);
    this.appended?.committed();
    for (const then of this.after) then(db);
  }
}

/** A writer of a group whose work returned, while the writes it deferred may still fail. */
interface Unconfirmed {
  index: number;
  savepoint: string;
  mark: Mark;
  value: unknown;
}

const verdict = (error: unknown): Outcome => (retryable.has(sqlState(error) ?? "") ? "again" : { error });

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
async function together(db: Database, group: readonly Writer[]): Promise<void> {
  const run = (await optimistically(db, group)) ?? (await carefully(db, group));
  if (run.committed) run.commitments.committed(db);
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

/** The writers' views of a transaction that run side by side with others. */
const besideOthers = new WeakSet<Tx>();

/**
 * Whether the writer runs side by side with others: then a count it read with the model's lock may have moved since
 * (its neighbours add to it), and a decision on the count is taken from the statement that changes it instead.
 */
export function runsBesideOthers(tx: Tx): boolean {
  return besideOthers.has(tx);
}

/**
 * An operation whose footprint did not cover what it found it has to do (a principal entering a container-scoped
 * relation creates a subordinate, say) calls this before doing it: run side by side with others, it has the group run
 * again, one writer after another. Alone, it does nothing.
 */
export function needsTurnAlone(tx: Tx): void {
  if (besideOthers.has(tx)) throw CAREFULLY;
}

/**
 * Most groups end with every writer's work done, and then a savepoint per writer is a statement each for nothing
 * (as is rolling back to one). So a group runs first without them. A writer refused before it wrote (every statement
 * it sent a SELECT, each answered without error, and no write deferred) leaves nothing to undo: its refusal stands and
 * the writers after it go on. Anything else that fails (a refusal after a write, a statement PostgreSQL refused, a
 * deferred write) rolls the transaction back, and undefined has the group run again carefully.
 */
async function optimistically(db: Database, group: readonly Writer[]): Promise<GroupRun | undefined> {
  const commitments = new Commitments();
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
            const lanes = group.slice(i, i + together).map(() => new Commitments(commitments.locked));
            const ran = await Promise.allSettled(lanes.map((lane, k) => group[i + k]!.work(lane.tx(open.tx, true))));
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
      () => commitments.appendStatements(db),
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
  const commitments = new Commitments();
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
      () => commitments.appendStatements(db),
    );
    ok = true;
  } catch (error) {
    // The shared transaction failed as a whole (its COMMIT, a savepoint): nothing of it committed, and each writer runs
    // again alone. Unless the database is out of reach: then each hears so (and a COMMIT in doubt is not run twice).
    outcomes = group.map(() => (isOutage(error) ? { error } : "again"));
  }
  return { outcomes, commitments, committed: ok };
}

/**
 * Runs `work` in one READ COMMITTED transaction, retried on the failures a retry cures.
 * `model` names the model it writes (as its lockModel will), so that model's writers in
 * this process take turns before taking a connection, and share a transaction when they queue; `footprint`, what it
 * touches (footprint.ts), lets it run side by side with the writers of its group that touch nothing it does.
 */
export function transact<T>(db: Database, work: (tx: Tx) => Promise<T>, model?: string, footprint?: Footprint, weight = 1): Promise<T> {
  return model === undefined ? withRetries(db, work) : inTurn(db, model, work, footprint, weight);
}

async function withRetries<T>(db: Database, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const commitments = new Commitments();
    let result: T;
    try {
      // READ COMMITTED is every session's default (the store sets it when it connects).
      result = await runTransaction(
        db,
        (open) => work(commitments.tx(open.tx)),
        () => commitments.appendStatements(db),
        false,
        () => commitments.deferred,
      );
    } catch (thrown) {
      const error = (await commitments.firstFailure()) ?? thrown;
      const state = sqlState(error);
      if (!state || !retryable.has(state)) throw error;
      if (attempt >= MAX_ATTEMPTS)
        throw new LifelineError("CONTENTION", `excessive contention: gave up after ${attempt} attempts; retry the operation`);
      // Jittered backoff, so the losers of a race do not collide again in lockstep.
      await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** attempt));
      continue;
    }
    commitments.committed(db);
    return result;
  }
}

/**
 * The model's life an operation needs: Alive for anything that adds to the
 * model; any life for the work that takes a Dying model apart (removals, the
 * agents' operations, cleanups).
 */
export type ModelLifeNeeded = typeof Life.Alive | "any";

const modelRowForUpdate = statement(["name"], (db, p) => db.select().from(models).where(eq(models.name, p.name)).for("update"));
const modelRowByIdForUpdate = statement(["id"], (db, p) => db.select().from(models).where(eq(models.id, p.id)).for("update"));

/**
 * Each model's id by name, as this process last locked it: what an operation's read sent ahead of the lock's answer
 * uses (modelOperation). A model removed and added again under its name has a new id; the lock's answer tells.
 */
const knownIds = new WeakMap<object, Map<string, string>>();
/** Past this many names the map starts again: a bound, not an eviction policy (a model's first lock after it is one round trip more). */
const MAX_KNOWN_IDS = 10_000;

/** Keyed by the store's Drizzle dialect, which its transactions share (as statements are: src/db/statement.ts). */
function knownIdsOf(db: DbTx): Map<string, string> {
  const { dialect } = db as unknown as { dialect: object };
  let ids = knownIds.get(dialect);
  if (!ids) {
    ids = new Map();
    knownIds.set(dialect, ids);
  }
  return ids;
}

/**
 * Reads the model row FOR UPDATE, serializing the model's writers; refuses a model without the life needed. In a
 * transaction that already holds the lock, or has sent it (a group's writers after the first, or side by side with the
 * one that sent it), the row as last read, with no statement.
 */
export async function lockModel(tx: Tx, name: string, needs: ModelLifeNeeded): Promise<ModelRow> {
  const held = lockedRows.get(tx);
  let row = held?.get(name);
  if (!row) {
    const sent = lockModelRow(tx, name);
    held?.set(name, sent);
    sent.catch(() => held?.get(name) === sent && held.delete(name)); // refused: not held (its caller gets the refusal)
    row = sent;
  }
  const model = await row;
  if (needs === Life.Alive && model.life !== Life.Alive) throw new LifelineError("NOT_ALIVE", `model "${name}" is ${model.life}`);
  return model;
}

async function lockModelRow(tx: Tx, name: string): Promise<ModelRow> {
  const [model] = await modelRowForUpdate(tx.db, { name: checkModelName(name) });
  const ids = knownIdsOf(tx.db);
  if (!model) {
    ids.delete(name);
    throw notFound("model", name);
  }
  if (ids.get(name) !== model.id) {
    if (ids.size >= MAX_KNOWN_IDS) ids.clear();
    ids.set(name, model.id);
  }
  return model;
}

/** Every write of a model's row inside an operation says so: the group's writers after it then lock and read it again. */
export function modelRowWritten(tx: Tx, name: string): void {
  lockedRows.get(tx)?.delete(name);
}

/** The model row by id, locked as lockModel does; undefined once the model is gone. */
export async function lockModelById(tx: Tx, id: string): Promise<ModelRow | undefined> {
  const [model] = await modelRowByIdForUpdate(tx.db, { id });
  return model;
}

/** Every operation's input names its model. */
export interface InModel {
  model: string;
}

/** An operation as resolvers and agents call it: the store and one input object. */
export type Operation<I, R> = (db: Database, input: I) => Promise<R>;

/** An operation on one model: one transaction, the model locked and its life checked first. */
export function modelOperation<I extends InModel, R>(
  needs: ModelLifeNeeded,
  body: (tx: Tx, model: ModelRow, input: I) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
  weight?: (input: I) => number,
): Operation<I, R> {
  return (db, input) =>
    transact(db, async (tx) => body(tx, await lockModel(tx, input.model, needs), input), input.model, footprint?.(input), weight?.(input));
}

/** What a read sent ahead of the model's lock knows of the model: its id, and its name for refusals. */
export type ModelKey = Pick<ModelRow, "id" | "name">;

/**
 * An operation on one model whose first read needs only the model's id (the entity it acts on, typically): as
 * modelOperation, with `read`'s result handed to `body`. The read is sent right behind the model's lock, on the same
 * connection, without waiting for the lock's answer: one round trip less. PostgreSQL runs it once the lock is
 * granted, with a snapshot taken then (READ COMMITTED: each statement takes its own), so it sees all that it would
 * have seen sent afterwards. The id is the one this process last locked under the model's name; the first time, or
 * when the lock answers with another id (the model was removed and added again), the read is sent after the lock.
 * The lock's refusal comes first, as with modelOperation: a read's failure counts only once the lock has succeeded.
 */
export function modelOperationReading<I extends InModel, P, R>(
  needs: ModelLifeNeeded,
  read: (tx: Tx, model: ModelKey, input: I) => Promise<P>,
  body: (tx: Tx, model: ModelRow, input: I, first: P) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
  weight?: (input: I) => number,
): Operation<I, R> {
  return (db, input) =>
    transact(
      db,
      async (tx) => {
        const id = knownIdsOf(tx.db).get(input.model);
        const locked = lockModel(tx, input.model, needs);
        // Started after the lock, so handed to the connection after it (both are one statement's call away).
        // Awaited below unless the lock failed, which fails it too (25P02).
        const ahead = id === undefined ? undefined : sentAhead(read(tx, { id, name: input.model }, input));
        const model = await locked;
        if (ahead && model.id === id) return body(tx, model, input, await ahead);
        await ahead?.catch(() => {}); // read with an id the model no longer has: let it finish, then read again
        return body(tx, model, input, await read(tx, model, input));
      },
      input.model,
      footprint?.(input),
      weight?.(input),
    );
}
