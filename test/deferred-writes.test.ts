// Writes sent without waiting (Tx.defer, src/model/write/tx.ts): a write whose
// answer an operation does not need travels with the next statement instead of
// taking a round trip of its own, and still fails its operation, with its own error.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { models } from "../src/db/schema.js";
import { addModel, setConstraints, transact } from "../src/model/index.js";
import { lockModel, type Tx } from "../src/model/write/index.js";
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

/** The model row's constraints set: a write on the row that every operation of the model holds locked. */
const setConstraintsOf = (tx: Tx, modelId: string, constraints: Record<string, number>) =>
  tx.db.update(models).set({ constraints }).where(eq(models.id, modelId));

/** Runs `work` as one operation on a fresh model, its row locked as every operation's is; gives the model's name and the outcome. */
async function onFreshModel<T>(work: (tx: Tx, modelId: string) => Promise<T>) {
  const { name } = await addModel(api.store.db, { name: uniqueName() });
  const outcome = transact(api.store.db, async (tx) => work(tx, (await lockModel(tx, name, "any")).id), name);
  return { name, outcome };
}

describe("deferred writes", () => {
  it("a deferred write runs in its turn: the statements behind it see it, and it commits", async () => {
    const { name, outcome } = await onFreshModel(async (tx, modelId) => {
      tx.defer(setConstraintsOf(tx, modelId, { cores: 4 }).execute());
      const [row] = await tx.db.select({ constraints: models.constraints }).from(models).where(eq(models.id, modelId));
      return row!.constraints;
    });
    expect(await outcome).toEqual({ cores: 4 });
    expect(await modelConstraints(name)).toEqual({ cores: 4 });
  });

  it("a deferred write reaches PostgreSQL ahead of every statement issued after it, so a later write wins", async () => {
    const { name, outcome } = await onFreshModel(async (tx, modelId) => {
      tx.defer(setConstraintsOf(tx, modelId, { cores: 1 }));
      tx.defer(setConstraintsOf(tx, modelId, { cores: 2 }));
      // Awaited, with RETURNING (Drizzle's other path to the driver): it runs after both, so its value stays.
      const [after] = await tx.db
        .update(models)
        .set({ constraints: sql`${models.constraints} || '{"mem": 3}'::jsonb` })
        .where(eq(models.id, modelId))
        .returning({ constraints: models.constraints });
      return after!.constraints;
    });
    expect(await outcome).toEqual({ cores: 2, mem: 3 });
    expect(await modelConstraints(name)).toEqual({ cores: 2, mem: 3 });
  });

  /** An operation on a fresh model that writes, defers a failing write, then does `after`. */
  const failingOperation = (after: (tx: Tx, modelId: string) => Promise<unknown>) =>
    onFreshModel(async (tx, modelId) => {
      await setConstraintsOf(tx, modelId, { cores: 8 });
      tx.defer(tx.db.execute(failingWrite(modelId)));
      return after(tx, modelId);
    });

  it("one that fails fails its operation with its own error, not the aborted transaction's, and nothing of it commits", async () => {
    // PostgreSQL refuses the read behind it (25P02: the transaction is aborted): the deferred write's error is the one reported.
    const { name, outcome } = await failingOperation((tx, modelId) => tx.db.select().from(models).where(eq(models.id, modelId)));
    await expect(outcome).rejects.toSatisfy((error: unknown) => sqlState(error) === "22012");
    expect(await modelConstraints(name)).toEqual({});
  });

  it("one that fails as the operation's last statement fails it at commit, and nothing of it commits", async () => {
    const { name, outcome } = await failingOperation(async () => "answered before its deferred write");
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
