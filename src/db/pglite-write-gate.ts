// A query reads one moment on PGlite by keeping writes out while it reads. PGlite is one
// session for everyone: a query holding a snapshot transaction of its own would hold every
// other client's statements until it ended (a 1,000-unit status query reads for over
// 100 ms). Readers need no such wait: with no write committing, every read of that time,
// anyone's, sees the same state. So queries read as they always did, statement by
// statement, and writes (transactions, and statements other than SELECT) wait at this gate
// until the queries reading have ended.
//
// Phase-fair: a write that arrives while queries read waits for those queries only, and a
// query that arrives while a write waits goes after that write. Neither kind starves, and
// a write waits at most for the longest query reading when it came.
//
// A query's own statements must be SELECTs (Drizzle's select builder writes nothing else):
// one that is not would wait for the query's own pass to end, for ever.
import type { PGlite } from "@electric-sql/pglite";

type Kind = "read" | "write";

/** Those waiting to go together: the queue alternates kinds, one group a phase. */
interface Group {
  kind: Kind;
  admits: (() => void)[];
}

export class WriteGate {
  /** The phase running: its kind, and how many of it are running. */
  private running: { kind: Kind; count: number } = { kind: "read", count: 0 };
  private readonly waiting: Group[] = [];
  /** The next transaction opened is read-only and passes (readOnly). */
  private passes = false;

  /** Runs a query's reads: no write commits until it ends. */
  read<T>(work: () => Promise<T>): Promise<T> {
    return this.pass("read", work);
  }

  /** Runs a write once no query is reading. */
  write<T>(work: () => Promise<T>): Promise<T> {
    return this.pass("write", work);
  }

  private async pass<T>(kind: Kind, work: () => Promise<T>): Promise<T> {
    await this.enter(kind);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  /** Joins the running phase if it is of this kind and nobody waits, else the last group waiting of this kind, or a new one. */
  private enter(kind: Kind): Promise<void> | undefined {
    const { running, waiting } = this;
    if (running.count === 0 || (running.kind === kind && waiting.length === 0)) {
      this.running = { kind, count: running.count + 1 };
      return undefined;
    }
    const last = waiting.at(-1);
    const group = last?.kind === kind ? last : { kind, admits: [] };
    if (group !== last) waiting.push(group);
    return new Promise<void>((admit) => group.admits.push(admit));
  }

  /** The last of a phase to leave lets the next group go, all of it at once. */
  private leave(): void {
    if (--this.running.count > 0) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.running = { kind: next.kind, count: next.admits.length };
    for (const admit of next.admits) admit();
  }

  /**
   * Runs `begin`, which opens a read-only transaction on the client before it returns (Drizzle's `db.transaction`
   * does), past the gate: it changes nothing a query reads, so a stream's snapshot never waits for a query. Should a
   * transaction be opened later, it waits at the gate as a write would: slower, never wrong.
   */
  readOnly<T>(begin: () => Promise<T>): Promise<T> {
    this.passes = true;
    try {
      return begin();
    } finally {
      this.passes = false;
    }
  }

  /** Whether the transaction being opened passes without waiting (readOnly), which it consumes. */
  takePass(): boolean {
    const passes = this.passes;
    this.passes = false;
    return passes;
  }
}

/** A SELECT writes nothing (the model's statements that write begin otherwise: INSERT, UPDATE, DELETE, or WITH around them). */
const readsOnly = (text: string) => /^\s*select\b/i.test(text);

const gates = new WeakMap<object, WriteGate>();

/** Puts the client's writes behind a gate: its transactions (but read-only ones, WriteGate.readOnly) and its statements but SELECTs. */
export function gateWrites(client: PGlite): WriteGate {
  const gate = new WriteGate();
  const { transaction } = client;
  client.transaction = ((callback) =>
    gate.takePass() ? transaction.call(client, callback) : gate.write(() => transaction.call(client, callback))) as typeof transaction;
  const statements = <F extends (text: string, ...rest: never[]) => Promise<unknown>>(run: F): F =>
    ((text: string, ...rest: never[]) =>
      readsOnly(text) ? run.call(client, text, ...rest) : gate.write(() => run.call(client, text, ...rest))) as F;
  client.query = statements(client.query);
  client.exec = statements(client.exec);
  gates.set(client, gate);
  return gate;
}

/** Runs `begin`, which opens a read-only transaction on `client`, past the client's gate if it has one (WriteGate.readOnly). */
export function pastTheGate<T>(client: object, begin: () => Promise<T>): Promise<T> {
  const gate = gates.get(client);
  return gate ? gate.readOnly(begin) : begin();
}
