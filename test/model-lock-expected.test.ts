// The model's lock taken as last committed (src/model/write/model-lock.ts): a transaction's first lock of a model this
// process last wrote takes the row that commit left, and sends the lock as a guard it does not wait for. Another
// process's write in between must never be missed: the guard fails, and the operation runs again on the row as it is.
// Two stores on one database are two processes here (each keeps its own last commits).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../src/db/connect.js";
import { changes, models } from "../src/db/schema.js";
import { addModel, destroyModel, removeMachines, runCleanups, setConstraints, setModelConfig } from "../src/model/index.js";
import { onPostgres, uniqueName, useStores } from "./support/store.js";

describe.skipIf(!onPostgres)("the model's lock as last committed (PostgreSQL only; PGlite has no round trip to save)", () => {
  const stores = useStores("here", "elsewhere");

  /** A model this process wrote last: its next lock is taken as that commit left the row. */
  const modelWrittenHere = async () => {
    const model = uniqueName("expected");
    await addModel(stores.here.db, { name: model });
    await setConstraints(stores.here.db, { model, constraints: "cores=1" });
    return model;
  };
  const rowOf = async (model: string) => (await stores.here.db.select().from(models).where(eq(models.name, model)))[0]!;
  const changeRows = async (model: string) => {
    const { id } = await rowOf(model);
    return stores.here.db.select().from(changes).where(eq(changes.modelId, id)).orderBy(changes.revision);
  };

  it("a setting another process changed since is seen: setting it again here is a no-op, no change row", async () => {
    const model = await modelWrittenHere();
    await setModelConfig(stores.elsewhere.db, { model, automaticallyRetryHooks: false });
    const revision = (await rowOf(model)).revision;
    // Taken as this process last committed the row, automatically-retry-hooks would still be on, and this a write.
    const row = await setModelConfig(stores.here.db, { model, automaticallyRetryHooks: false });
    expect(row.automaticallyRetryHooks).toBe(false);
    expect((await rowOf(model)).revision).toBe(revision);
  });

  it("a model another process made Dying since refuses a write that needs it Alive (NOT_ALIVE), and nothing changes", async () => {
    const model = await modelWrittenHere();
    await destroyModel(stores.elsewhere.db, { model });
    const before = await rowOf(model);
    await expect(setConstraints(stores.here.db, { model, constraints: "cores=2" })).rejects.toMatchObject({ code: "NOT_ALIVE" });
    expect(await rowOf(model)).toEqual(before);
  });

  it("a write after another process's numbers its change right after that process's: the log has no gap and no repeat", async () => {
    const model = await modelWrittenHere();
    await setConstraints(stores.elsewhere.db, { model, constraints: "cores=2" });
    await setConstraints(stores.here.db, { model, constraints: "cores=3" });
    const revisions = (await changeRows(model)).map((c) => c.revision);
    expect(revisions).toEqual(revisions.map((_, k) => revisions[0]! + k));
    expect((await rowOf(model)).revision).toBe(revisions.at(-1));
    expect((await rowOf(model)).constraints).toEqual({ cores: 3 });
  });

  it("a model another process removed and added again under its name: the write goes to the new one", async () => {
    const model = await modelWrittenHere();
    const old = (await rowOf(model)).id;
    await stores.elsewhere.db.delete(models).where(eq(models.id, old));
    await addModel(stores.elsewhere.db, { name: model });
    await setConstraints(stores.here.db, { model, constraints: "cores=4" });
    const row = await rowOf(model);
    expect(row.id).not.toBe(old);
    expect(row.constraints).toEqual({ cores: 4 });
  });

  describe("outside the model's turn", () => {
    /** A store of its own that keeps every statement Drizzle sends it. */
    let watched: Store;
    const sent: string[] = [];
    beforeAll(async () => {
      watched = await openStore({ databaseUrl: process.env.DATABASE_URL!, onQuery: (query) => sent.push(query) });
    });
    afterAll(async () => watched?.close());

    /** What `run` sends: whether it takes the model's lock as last committed (the guard) or waits for it. */
    const lockSent = async (run: () => Promise<unknown>) => {
      sent.length = 0;
      await run();
      const guard = (q: string) => q.includes("to_jsonb(m) - 'compacted_through'");
      return { guard: sent.some(guard), awaited: sent.some((q) => /from "models".*for no key update/s.test(q) && !guard(q)) };
    };

    // This process's writers commit to the model in its turn (turns.ts) while such a transaction reads the row they
    // leave: a lock taken as last committed found the row moved on every retry while they did (the cleaner gave up on
    // CONTENTION, eight attempts, removing 1,000 units).
    it("runCleanups' lookup of its model waits for the model's lock: never taken as this process last committed the row", async () => {
      const model = uniqueName("outside");
      await addModel(watched.db, { name: model });
      await setConstraints(watched.db, { model, constraints: "cores=1" }); // the row as last committed is known here
      expect(await lockSent(() => runCleanups(watched.db, { model }))).toEqual({ guard: false, awaited: true });
    });

    it("a rehearsal (a removal's dry run) waits for the model's lock too", async () => {
      const model = uniqueName("outside");
      await addModel(watched.db, { name: model });
      await setConstraints(watched.db, { model, constraints: "cores=1" });
      const dryRun = () => removeMachines(watched.db, { model, targets: ["0"], dryRun: true }).catch(() => {});
      expect(await lockSent(dryRun)).toEqual({ guard: false, awaited: true });
    });

    it("in its turn the same process's lock is still taken as last committed (the control)", async () => {
      const model = uniqueName("outside");
      await addModel(watched.db, { name: model });
      await setConstraints(watched.db, { model, application: null, constraints: "cores=1" });
      const configured = () => setModelConfig(watched.db, { model, automaticallyRetryHooks: false });
      expect(await lockSent(configured)).toEqual({ guard: true, awaited: false });
    });
  });
});
