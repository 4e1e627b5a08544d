// Turns. Writers of one model, in this process, take turns in memory instead of each holding a pooled connection while
// it waits for the model's row lock: with thousands of agents writing to one model, waiting writers took every
// connection of the pool, and every read (a stream's snapshot, a query) starved behind them. The writers that queued
// up while a turn ran share the next one (group-commit.ts). They wait in their store's queues (Database.writers), so
// two stores' models never wait on each other.
import { type Database, runsInProcess } from "../../db/connect.js";
import type { Footprint } from "../footprint.js";
import { type AtOnce, alone, MAX_GROUP, together, type Writer } from "./group-commit.js";
import type { Tx } from "./tx.js";

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
function nextGroup(db: Database, waiting: readonly Writer[]): readonly Writer[] {
  const most = groupWeight(db);
  let n = 1;
  let weight = waiting[0]!.weight;
  while (n < Math.min(waiting.length, MAX_GROUP) && weight + waiting[n]!.weight <= most) weight += waiting[n++]!.weight;
  return waiting.slice(0, n);
}

/**
 * Runs `work` in `model`'s turn, with the writers that queued beside it; answers once its transaction has committed.
 * `atOnce`: the same work without a transaction, tried first when the writer is alone in its turn.
 */
export function inTurn<T>(
  db: Database,
  model: string,
  work: (tx: Tx) => Promise<T>,
  footprint: Footprint | undefined,
  weight: number,
  atOnce?: AtOnce,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const writer: Writer = { work, footprint, weight, atOnce, resolve: resolve as (value: unknown) => void, reject };
    const started = db.writers.waiting.join(model, writer);
    if (started) void takeTurns(db, model, started);
  });
}

/** Runs the model's writers, a group at a time, until none is left. */
async function takeTurns(db: Database, model: string, waiting: Writer[]): Promise<void> {
  while (waiting.length) {
    const group = nextGroup(db, waiting);
    if (group.length === 1) await alone(db, group[0]!);
    else await together(db, group);
    waiting.splice(0, group.length);
    // PGlite answers on promise jobs: without a turn of the event loop here, a queue of writers ran one transaction
    // after another with no other client's I/O between them (32 of them: 4 s).
    if (waiting.length && runsInProcess(db)) await new Promise((resolve) => setImmediate(resolve));
  }
  db.writers.waiting.end(model);
}
