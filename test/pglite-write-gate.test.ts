// PGlite's write gate (src/db/pglite-write-gate.ts): while queries read, writes wait, so every
// read of a query sees one moment without holding any other client's reads. Phase-fair: a
// write waits only for the queries reading when it came, and a query that comes while a write
// waits goes after that write.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openStore, queryTurnOf } from "../src/db/connect.js";
import { WriteGate } from "../src/db/pglite-write-gate.js";
import { inSnapshot } from "../src/db/transaction-runner.js";
import { memoryStore } from "./support/pglite-template.js";
import { onPostgres } from "./support/store.js";

/** A piece of work that runs until `finish` is called; `started` says whether it began. */
function held() {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const state = { started: false, done: false, finish };
  const work = async () => {
    state.started = true;
    await finished;
  };
  return { state, work };
}

/** Lets every promise job queued so far run (the gate admits on promise jobs). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the write gate", () => {
  it("queries read side by side; a write waits for the queries reading when it came", async () => {
    const gate = new WriteGate();
    const [first, second, write] = [held(), held(), held()];
    const reads = [gate.read(first.work), gate.read(second.work)];
    const writing = gate.write(write.work);
    await settle();
    expect([first.state.started, second.state.started, write.state.started]).toEqual([true, true, false]);
    first.state.finish();
    await settle();
    expect(write.state.started, "one query still reads").toBe(false);
    second.state.finish();
    await Promise.all(reads);
    await settle();
    expect(write.state.started).toBe(true);
    write.state.finish();
    await writing;
  });

  it("a query that comes while a write waits goes after that write, and a write that comes while queries wait goes after them", async () => {
    const gate = new WriteGate();
    const [reading, firstWrite, later, secondWrite] = [held(), held(), held(), held()];
    const order: string[] = [];
    const run = (name: string, work: () => Promise<void>) => async () => {
      order.push(name);
      await work();
    };
    const all = [gate.read(run("query", reading.work)), gate.write(run("write", firstWrite.work))];
    all.push(gate.read(run("later query", later.work)));
    await settle();
    all.push(gate.write(run("later write", secondWrite.work)));
    reading.state.finish();
    await settle();
    firstWrite.state.finish();
    await settle();
    later.state.finish();
    await settle();
    secondWrite.state.finish();
    await Promise.all(all);
    expect(order).toEqual(["query", "write", "later query", "later write"]);
  });

  it("a reader's failure ends its pass: the write behind it goes", async () => {
    const gate = new WriteGate();
    await expect(gate.read(async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    await expect(gate.write(async () => "written")).resolves.toBe("written");
  });

  it.skipIf(onPostgres)(
    "on a PGlite store, a write transaction and a write statement wait for a query's reads; reads and read-only transactions do not",
    async () => {
      const store = await openStore(await memoryStore());
      try {
        const query = held();
        const reading = queryTurnOf(store.db)!(query.work);
        await settle();
        const done: string[] = [];
        const note = (name: string) => () => void done.push(name);
        const transaction = store.db.transaction(async (tx) => void (await tx.execute(sql`select 1`))).then(note("transaction"));
        const statement = store.db.execute(sql`create temporary table gate_probe (n int)`).then(note("statement"));
        await store.db.execute(sql`select 1`).then(note("read"));
        await inSnapshot(store.db, (tx) => tx.execute(sql`select 1`)).then(note("snapshot"));
        await settle();
        expect(done).toEqual(["read", "snapshot"]);
        query.state.finish();
        await reading;
        await Promise.all([transaction, statement]);
        expect(done.sort()).toEqual(["read", "snapshot", "statement", "transaction"]);
      } finally {
        await store.close();
      }
    },
  );
});
