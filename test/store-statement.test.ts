// A statement built once (src/db/statement.ts) runs on whatever connection its caller
// gives it: inside the caller's transaction, and on each store it is used with.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/db/connect.js";
import { models } from "../src/db/schema.js";
import { statement } from "../src/db/statement.js";
import { memoryStore } from "./support/pglite-template.js";
import { openTestStore, uniqueName } from "./support/store.js";

const modelNamed = statement(["name"], (db, p) => db.select({ name: models.name }).from(models).where(eq(models.name, p.name)));

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

describe("a statement built once", () => {
  it("runs inside its caller's transaction: it sees the transaction's writes, which roll back with it", async () => {
    const name = uniqueName("stmt");
    const rolledBack = new Error("roll back");
    await expect(
      store.db.transaction(async (tx) => {
        await tx.insert(models).values({ name, defaultSeries: "jammy" });
        expect(await modelNamed(tx, { name })).toEqual([{ name }]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await modelNamed(store.db, { name })).toEqual([]);
  });

  it("binds new values on every run", async () => {
    const [a, b] = [uniqueName("stmt"), uniqueName("stmt")];
    await store.db.insert(models).values([
      { name: a, defaultSeries: "jammy" },
      { name: b, defaultSeries: "jammy" },
    ]);
    expect(await modelNamed(store.db, { name: a })).toEqual([{ name: a }]);
    expect(await modelNamed(store.db, { name: b })).toEqual([{ name: b }]);
  });

  it("serves each store it is used with, never another's connection", async () => {
    const other = await openStore(await memoryStore());
    try {
      const name = uniqueName("stmt");
      await other.db.insert(models).values({ name, defaultSeries: "jammy" });
      expect(await modelNamed(store.db, { name })).toEqual([]);
      expect(await modelNamed(other.db, { name })).toEqual([{ name }]);
      expect(await modelNamed(store.db, { name })).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
