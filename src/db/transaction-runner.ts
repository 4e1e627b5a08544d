// How a write transaction runs on each driver.
//
// postgres.js's `begin` sends BEGIN and waits for its answer before the first statement,
// and sends COMMIT only after the last statement has answered: two round trips of their
// own in every write, where a mutation has about eight in all. On PostgreSQL a write here
// takes a connection of the pool for itself and sends BEGIN just ahead of its first
// statement, and its last statements (the change log's append) just ahead of COMMIT,
// without waiting for answers it does not need. If a last statement fails, PostgreSQL
// answers the COMMIT behind it with a ROLLBACK, so nothing commits. BEGIN cannot fail on a
// connection that is idle and healthy, as a pooled one is; on one that broke, so does every
// statement behind it.
//
// PGlite runs in-process, with no round trips to save: Drizzle's own transaction.
import { PostgresJsTransaction } from "drizzle-orm/postgres-js/session";
import type { Database } from "./connect.js";
import { CommitInDoubt, isOutage, neverConnected } from "./outage.js";
import { pastTheGate } from "./pglite-write-gate.js";
import { sentAhead } from "./sent-ahead.js";
import { sqlState } from "./sql-state.js";
import { shareRepeatedReads } from "./statement.js";

/** A transaction's Drizzle handle, as Drizzle's own `transaction` gives it. */
export type DbTx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** SQL text with $1… parameters, run as it is (the text is fixed, so it is prepared once per connection). */
export interface Statement {
  text: string;
  params: unknown[];
  /** Given the statement's rows once it has been answered (a last statement's: before the COMMIT is). */
  answered?: (rows: readonly Record<string, unknown>[]) => void;
}

/** A transaction in progress: its Drizzle handle, and savepoints within it. */
export interface OpenTransaction {
  tx: DbTx;
  /** Marks a savepoint (on PostgreSQL sent ahead of the next statement, not waited for). */
  savepoint(name: string): Promise<void>;
  /** Undoes everything since the savepoint, which stays: the transaction goes on. */
  rollbackTo(name: string): Promise<void>;
  /** A read-only transaction's final reads: COMMIT is sent right behind them (see Last). */
  last: Last;
  /** With `recordStatements`: the statements `tx` has been handed. */
  log?: StatementLog;
}

/** The statements a transaction's Drizzle handle has been handed (BEGIN, savepoints and their rollbacks are not counted). */
export interface StatementLog {
  /** How many so far. */
  count(): number;
  /** Whether one from the `from`th on may have written: any but a SELECT. */
  wroteSince(from: number): boolean;
  /** The first failure among those from the `from`th on, once all have answered; undefined if none failed. */
  failureSince(from: number): Promise<unknown>;
}

/**
 * The statements a transaction's Drizzle handle is given, as its driver client receives them. A SELECT here writes
 * nothing: the model's statements that write begin otherwise (INSERT, UPDATE, DELETE, or WITH around them), and their
 * SELECTs call nothing that writes (row locks and advisory locks, which they may take, are not writes).
 */
class Recorded implements StatementLog {
  /** Whether each statement, in order, may have written. */
  private readonly writes: boolean[] = [];
  private readonly answers: Promise<unknown>[] = [];

  /**
   * A client for the transaction's Drizzle session, which calls only `method` on it: the statement goes to `client`,
   * recorded. Only group commit asks for it: with it, a write cycle's operations alone took about 0.08 ms more of the
   * server's CPU each (two stores running the cycle side by side, with and without).
   */
  wrap<C extends object>(client: C, method: "unsafe" | "query"): C {
    const run = (client as unknown as Record<string, (text: string, ...rest: unknown[]) => Promise<unknown>>)[method]!.bind(client);
    return {
      [method]: (text: string, ...rest: unknown[]) => {
        const answer = run(text, ...rest);
        this.writes.push(!/^\s*select\b/i.test(text));
        this.answers.push(answer);
        return answer;
      },
    } as unknown as C;
  }

  count(): number {
    return this.writes.length;
  }

  wroteSince(from: number): boolean {
    return this.writes.indexOf(true, from) !== -1;
  }

  async failureSince(from: number): Promise<unknown> {
    for (const answer of await Promise.allSettled(this.answers.slice(from))) if (answer.status === "rejected") return answer.reason;
    return undefined;
  }
}

/**
 * Marks a snapshot's final reads, already started: its COMMIT is sent right behind them, in the same write, instead
 * of a round trip after their answers (a READ ONLY transaction's COMMIT has nothing to refuse that they depend on).
 * Nothing may be read in the transaction after them. Returns the reads.
 */
export type Last = <R>(reads: Promise<R>) => Promise<R>;

const asIs: Last = (reads) => reads;

/** A savepoint's name: a plain identifier, since it is written into the SQL. */
const savepointName = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a savepoint name: ${name}`);
  return name;
};

/** A postgres.js query: lazy until then/catch/execute, and handed to its connection in the order those are first called. */
interface PostgresQuery extends Promise<unknown[]> {
  execute(): PostgresQuery;
}

interface Unsafe {
  unsafe(text: string, params?: unknown[], options?: unknown): PostgresQuery;
}

interface ReservedConnection extends Unsafe {
  release(): void;
}

/**
 * A snapshot's connection while its transaction runs, then the pool. A GraphQL query's execution can end with some of
 * its resolvers still running (one failed item settles a list), and a statement one of them sends afterwards must not
 * go on a connection already back in the pool, into whatever transaction runs there next: it reads at its own moment,
 * as a statement outside any transaction would (its answer is nobody's by then).
 */
function untilEnded(connection: Unsafe, pool: Unsafe, ended: () => boolean): Unsafe {
  return { unsafe: (text, params, options) => (ended() ? pool : connection).unsafe(text, params, options) };
}

/** What this module reads of Drizzle's internals: the driver's client and what a session is made of. */
interface DrizzleInternals {
  dialect: unknown;
  session: {
    client: { reserve?: () => Promise<ReservedConnection>; query?: (text: string, params: unknown[]) => Promise<{ rows: unknown[] }> };
    options: unknown;
    constructor: new (client: unknown, dialect: unknown, schema: unknown, options: unknown) => unknown;
  };
}

/** Drizzle's postgres.js transaction, made on a connection of our own (its constructor is internal). */
const Transaction = PostgresJsTransaction as unknown as new (dialect: unknown, session: unknown, schema: unknown) => DbTx;

/**
 * Runs `work`, then the statements `lastStatements` gives, in one transaction (the session's default
 * isolation, READ COMMITTED; with `snapshot`, REPEATABLE READ and READ ONLY), and returns
 * `work`'s result. On PostgreSQL, BEGIN and COMMIT travel with the first and last statements.
 * `unanswered` are statements `work` sent without waiting: they are answered before the
 * last statements, and a failure among them is the transaction's. With `recordStatements`, `work` gets the log of
 * the statements it sends (OpenTransaction.log).
 */
export async function runTransaction<T>(
  db: Database,
  work: (open: OpenTransaction) => Promise<T>,
  lastStatements: () => readonly Statement[],
  snapshot = false,
  unanswered: () => readonly Promise<unknown>[] = () => [],
  recordStatements = false,
): Promise<T> {
  const internals = db as unknown as DrizzleInternals;
  const { client } = internals.session;
  const recorded = recordStatements ? new Recorded() : undefined;
  if (typeof client.reserve !== "function") {
    // On PGlite a read-only transaction changes nothing a query reads: it passes the write gate (pglite-write-gate.ts).
    const begin = () =>
      db.transaction(
        async (tx) => {
          const txSession = (tx as unknown as DrizzleInternals).session;
          const txClient = txSession.client;
          if (recorded) txSession.client = recorded.wrap(txClient, "query");
          const run = async (text: string, params: unknown[] = []) => (await txClient.query!(text, params)).rows;
          const result = await work({
            tx,
            last: asIs,
            ...(recorded ? { log: recorded } : {}),
            savepoint: async (name) => void (await run(`savepoint ${savepointName(name)}`)),
            rollbackTo: async (name) => void (await run(`rollback to savepoint ${savepointName(name)}`)),
          });
          await Promise.all(unanswered());
          for (const s of lastStatements()) {
            const rows = await run(s.text, s.params);
            s.answered?.(rows as Record<string, unknown>[]);
          }
          return result;
        },
        snapshot ? SNAPSHOT : undefined,
      );
    return snapshot ? pastTheGate(client, begin) : begin();
  }
  const connection = await client.reserve();
  const { session, dialect } = internals;
  let finished = false;
  // Without Drizzle's relational schema, which nothing here queries through: with it, every transaction built a query
  // builder for each table (a profile of sequential setConstraints put that near 1% of the server's CPU).
  const tx = new Transaction(
    dialect,
    new session.constructor(
      recorded ? recorded.wrap(connection, "unsafe") : snapshot ? untilEnded(connection, client as Unsafe, () => finished) : connection,
      dialect,
      undefined,
      session.options,
    ),
    undefined,
  );
  // Statements sent without waiting (BEGIN, savepoints): each is handed to the connection ahead of
  // anything issued after it, and an error in one also fails every statement behind it.
  const sent: PostgresQuery[] = [];
  const send = (text: string) => void sent.push(sentAhead(connection.unsafe(text)));
  let commitSent: PostgresQuery | undefined;
  const last: Last = (reads) => {
    if (!snapshot) throw new Error("only a read-only transaction sends its COMMIT ahead of its last reads' answers");
    // Drizzle hands a query to its connection a few promise jobs after the call that starts it, so COMMIT waits until
    // the jobs queued by then have run (a tick queued from a job runs once the job queue is empty): behind the reads,
    // and still before postgres.js writes what it was handed (on setImmediate). Never once the work has ended and the
    // connection may have gone back to the pool.
    void Promise.resolve().then(() =>
      process.nextTick(() => {
        if (!finished && !commitSent) commitSent = sentAhead(connection.unsafe("commit"));
      }),
    );
    return reads;
  };
  try {
    send(snapshot ? "begin isolation level repeatable read read only" : "begin");
    const result = await work({
      tx,
      last,
      ...(recorded ? { log: recorded } : {}),
      savepoint: async (name) => send(`savepoint ${savepointName(name)}`),
      rollbackTo: async (name) => {
        await connection.unsafe(`rollback to savepoint ${savepointName(name)}`);
        // A savepoint sent behind a failed statement was refused (25P02) in the failed state this rollback ended:
        // it is not the transaction's failure. Everything sent before the rollback has been answered by now.
        const answers = await Promise.allSettled(sent);
        sent.splice(0, sent.length, ...sent.filter((_, k) => answers[k]!.status === "fulfilled"));
      },
    });
    finished = true;
    const deferred = unanswered().map(sentAhead); // awaited below, unless something before them failed
    const lastOnes = lastStatements();
    const finals = lastOnes.map((s) => sentAhead(connection.unsafe(s.text, s.params)));
    const committed = commitSent ?? sentAhead(connection.unsafe("commit")); // each awaited below
    commitSent = committed;
    await Promise.all(sent);
    await Promise.all(deferred); // ahead of the finals: a deferred write's failure is the one to report
    const answers = await Promise.all(finals);
    for (const [k, s] of lastOnes.entries()) s.answered?.(answers[k] as unknown as Record<string, unknown>[]);
    await committed;
    return result;
  } catch (error) {
    finished = true;
    // Nothing is open after a COMMIT that failed or rolled back (or one sent ahead); a ROLLBACK then only warns.
    await connection.unsafe("rollback").catch(() => {});
    // A connection lost once a write's COMMIT was sent says nothing of whether it committed.
    if (commitSent && !snapshot && isOutage(error)) throw new CommitInDoubt(error);
    throw error;
  } finally {
    connection.release();
  }
}

/**
 * Runs one statement in a transaction of its own, on a connection of the pool: PostgreSQL commits it as it answers
 * (one round trip, no BEGIN nor COMMIT), and its rows go to its `answered`. Like a write whose COMMIT was on its way, a
 * statement whose connection is lost may have committed (CommitInDoubt), unless the connection was never made; one
 * the server answered with an error did not.
 * PostgreSQL only: a store in this process has no round trips to save.
 */
export async function runStatementAlone(db: Database, statement: Statement): Promise<void> {
  const { client } = (db as unknown as DrizzleInternals).session;
  if (typeof client.reserve !== "function") throw new Error("one statement alone is for a PostgreSQL store");
  let rows: unknown[];
  try {
    rows = await (client as unknown as Unsafe).unsafe(statement.text, statement.params);
  } catch (error) {
    if (isOutage(error) && sqlState(error) === undefined && !neverConnected(error)) throw new CommitInDoubt(error);
    throw error;
  }
  statement.answered?.(rows as Record<string, unknown>[]);
}

const SNAPSHOT = { isolationLevel: "repeatable read", accessMode: "read only" } as const;

/**
 * Runs `work` in one REPEATABLE READ, READ ONLY transaction: every read sees one snapshot.
 * On PostgreSQL one BEGIN carries both settings (Drizzle's own sends a SET TRANSACTION
 * after BEGIN and waits for each), and travels with the first read; COMMIT travels with the
 * reads `work` marks as its last. A statement run twice with the same values in it is sent once (shareRepeatedReads).
 */
export async function inSnapshot<T>(db: Database, work: (tx: DbTx, last: Last) => Promise<T>): Promise<T> {
  return runTransaction(
    db,
    (open) => {
      shareRepeatedReads(open.tx);
      return work(open.tx, open.last);
    },
    () => [],
    true,
  );
}
