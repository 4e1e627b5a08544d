// What the model's lock holds (src/model/write/model-lock.ts): the model's row FOR NO KEY UPDATE. It orders the model's
// writers, and leaves alone what only references the model: a row whose foreign key names the model (an agent's
// presence, a credential) checks the key with FOR KEY SHARE, which FOR UPDATE would have made wait for the writer's
// commit. Two stores on one database are two processes here.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { models } from "../src/db/schema.js";
import { addModel, agentsHeld, setConstraints, transact } from "../src/model/index.js";
import { lockModel } from "../src/model/write/index.js";
import { onPostgres, uniqueName, useStores } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

/** Whether `promise` settles within `ms`: a wait with a deadline, for a promise that would otherwise wait on a lock. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);

describe.skipIf(!onPostgres)("the model's lock (PostgreSQL only: PGlite has one connection)", () => {
  const stores = useStores("writer", "other");

  /** Holds `model`'s lock in a transaction of `writer`'s until the returned release is called. */
  const holdLock = async (model: string) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const done = transact(stores.writer.db, async (tx) => {
      await lockModel(tx, model, "any");
      held();
      await released;
    });
    await holding;
    return async () => {
      release();
      await done;
    };
  };

  it("leaves an agent's presence free to be recorded while a writer holds it", async () => {
    const model = uniqueName("lockscope");
    await addModel(stores.writer.db, { name: model });
    const [row] = await stores.other.db.select({ id: models.id }).from(models).where(eq(models.name, model));
    const release = await holdLock(model);
    try {
      const arrival = agentsHeld(stores.other.db, randomUUID(), [{ modelId: row!.id, kind: "unit", entity: "app/0" }]);
      expect(await settlesWithin(arrival, scaled(5_000))).toBe(true);
    } finally {
      await release();
    }
  });

  it("still keeps another writer of the model waiting until the holder commits", async () => {
    const model = uniqueName("lockscope");
    await addModel(stores.writer.db, { name: model });
    const release = await holdLock(model);
    const write = setConstraints(stores.other.db, { model, constraints: "cores=2" });
    try {
      expect(await settlesWithin(write, scaled(500))).toBe(false);
    } finally {
      await release();
    }
    await expect(write).resolves.toBeDefined();
  });
});
