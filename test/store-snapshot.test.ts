// inSnapshot (src/db/transaction-runner.ts): the change feed reads a stream's first state
// and the revision it stands at in one REPEATABLE READ, READ ONLY transaction.
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { models } from "../src/db/schema.js";
import { statement } from "../src/db/statement.js";
import { inSnapshot } from "../src/db/transaction-runner.js";
import { addModel } from "../src/model/index.js";
import { onPostgres, openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
  await addModel(store.db, { name: uniqueName("snap") }); // a row for randomOnce to read
});
afterAll(() => store.close());

const modelsNamed = async (q: Pick<Store["db"], "select">, name: string) =>
  (await q.select({ n: count() }).from(models).where(eq(models.name, name)))[0]!.n;

describe("a snapshot", () => {
  it.skipIf(!onPostgres)("does not see a write committed between two of its reads (PostgreSQL: PGlite has one connection)", async () => {
    const name = uniqueName("snap");
    const seen = await inSnapshot(store.db, async (tx) => {
      const before = await modelsNamed(tx, name);
      await store.db.insert(models).values({ name, defaultSeries: "jammy" }); // committed on another connection
      return [before, await modelsNamed(tx, name)];
    });
    expect(seen).toEqual([0, 0]);
    expect(await modelsNamed(store.db, name)).toBe(1);
  });

  it("is read only: a write in it is refused by the database and nothing is written", async () => {
    const name = uniqueName("snap");
    await expect(inSnapshot(store.db, (tx) => tx.insert(models).values({ name, defaultSeries: "jammy" }))).rejects.toMatchObject({
      cause: { code: "25006" },
    }); // read_only_sql_transaction
    expect(await modelsNamed(store.db, name)).toBe(0);
  });
});

/** A statement whose every run answers differently: a run shared with an earlier one answers the same. */
const randomOnce = statement(["tag"], (db, p) =>
  db
    .select({ r: sql<number>`random()`, tag: sql<number>`${p.tag}::int` })
    .from(models)
    .limit(1),
);

describe("a snapshot's repeated reads", () => {
  it("a statement run again with the same values is answered by its first run, each caller with an array of its own", async () => {
    const [first, again, other] = await inSnapshot(store.db, async (tx) => [
      await randomOnce(tx, { tag: 1 }),
      await randomOnce(tx, { tag: 1 }),
      await randomOnce(tx, { tag: 2 }),
    ]);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(other[0]!.r).not.toBe(first[0]!.r); // other values: sent
  });

  it("are sent each time outside a snapshot, where a write may come between them", async () => {
    const first = await randomOnce(store.db, { tag: 1 });
    expect((await randomOnce(store.db, { tag: 1 }))[0]!.r).not.toBe(first[0]!.r);
  });
});
