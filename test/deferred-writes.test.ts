// Writes sent without waiting (Tx.defer, src/model/transaction.ts): a write whose
// answer an operation does not need travels with the next statement instead of
// taking a round trip of its own, and still fails its operation, with its own error.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { models } from "../src/db/schema.js";
import { addModel, setConstraints, transact } from "../src/model/index.js";
import { lockModel } from "../src/model/transaction.js";
import { useApi } from "./support/api.js";
import { uniqueName } from "./support/store.js";

const api = useApi();

/** PostgreSQL's SQLSTATE of an error, wherever the driver or Drizzle wrapped it. */
function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}

async function modelConstraints(name: string) {
  const [row] = await api.store.db.select({ constraints: models.constraints }).from(models).where(eq(models.name, name));
  return row!.constraints;
}

/** A write that PostgreSQL refuses when it runs it: division by zero (22012). */
const failingWrite = (modelId: string) => sql`update models set revision = revision / 0 where id = ${modelId}`;

describe("deferred writes", () => {
  it("a deferred write runs in its turn: the statements behind it see it, and it commits", async () => {
    const { name } = await addModel(api.store.db, { name: uniqueName() });
    const seen = await transact(
      api.store.db,
      async (tx) => {
        const model = await lockModel(tx, name, "any");
        tx.defer(
          tx.db
            .update(models)
            .set({ constraints: { cores: 4 } })
            .where(eq(models.id, model.id))
            .execute(),
        );
        const [row] = await tx.db.select({ constraints: models.constraints }).from(models).where(eq(models.id, model.id));
        return row!.constraints;
      },
      name,
    );
    expect(seen).toEqual({ cores: 4 });
    expect(await modelConstraints(name)).toEqual({ cores: 4 });
  });

  it("a deferred write reaches PostgreSQL ahead of every statement issued after it, so a later write wins", async () => {
    const { name } = await addModel(api.store.db, { name: uniqueName() });
    await transact(
      api.store.db,
      async (tx) => {
        const model = await lockModel(tx, name, "any");
        tx.defer(
          tx.db
            .update(models)
            .set({ constraints: { cores: 1 } })
            .where(eq(models.id, model.id)),
        );
        tx.defer(
          tx.db
            .update(models)
            .set({ constraints: { cores: 2 } })
            .where(eq(models.id, model.id)),
        );
        // Awaited, with RETURNING (Drizzle's other path to the driver): it runs after both, so its value stays.
        const [after] = await tx.db
          .update(models)
          .set({ constraints: sql`${models.constraints} || '{"mem": 3}'::jsonb` })
          .where(eq(models.id, model.id))
          .returning({ constraints: models.constraints });
        return after!.constraints;
      },
      name,
    ).then((seen) => expect(seen).toEqual({ cores: 2, mem: 3 }));
    expect(await modelConstraints(name)).toEqual({ cores: 2, mem: 3 });
  });

  it("one that fails fails its operation with its own error, not the aborted transaction's, and nothing of it commits", async () => {
    const { name } = await addModel(api.store.db, { name: uniqueName() });
    const outcome = transact(
      api.store.db,
      async (tx) => {
        const model = await lockModel(tx, name, "any");
        await tx.db
          .update(models)
          .set({ constraints: { cores: 8 } })
          .where(eq(models.id, model.id));
        tx.defer(tx.db.execute(failingWrite(model.id)));
        // PostgreSQL refuses this one (25P02: the transaction is aborted): the deferred write's error is the one reported.
        await tx.db.select().from(models).where(eq(models.id, model.id));
      },
      name,
    );
    await expect(outcome).rejects.toSatisfy((error: unknown) => sqlState(error) === "22012");
    expect(await modelConstraints(name)).toEqual({});
  });

  it("one that fails as the operation's last statement fails it at commit, and nothing of it commits", async () => {
    const { name } = await addModel(api.store.db, { name: uniqueName() });
    const outcome = transact(
      api.store.db,
      async (tx) => {
        const model = await lockModel(tx, name, "any");
        await tx.db
          .update(models)
          .set({ constraints: { cores: 8 } })
          .where(eq(models.id, model.id));
        tx.defer(tx.db.execute(failingWrite(model.id)));
        return "answered before its deferred write";
      },
      name,
    );
    await expect(outcome).rejects.toSatisfy((error: unknown) => sqlState(error) === "22012");
    expect(await modelConstraints(name)).toEqual({});
  });

  it("in a group, a deferred write's failure is its own writer's: the writers around it commit", async () => {
    const { name } = await addModel(api.store.db, { name: uniqueName() });
    const constraints = (text: string) => setConstraints(api.store.db, { model: name, constraints: text });
    // The first runs alone; the three behind it queue meanwhile and share the next transaction.
    const outcomes = await Promise.allSettled([
      constraints("cores=1"),
      constraints("cores=2"),
      transact(
        api.store.db,
        async (tx) => {
          const model = await lockModel(tx, name, "any");
          tx.defer(tx.db.execute(failingWrite(model.id)));
        },
        name,
      ),
      constraints("mem=3G"),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(sqlState((outcomes[2] as PromiseRejectedResult).reason)).toBe("22012");
    expect(await modelConstraints(name)).toEqual({ mem: 3072 });
  });
});
