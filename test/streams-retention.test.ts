// Specification of the change log's retention: compaction past a window of revisions
// and of time, never removing what a client resuming within the window needs, and
// raising the model's floor in the same transaction as the deletion.
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkResumable, logWindow, readChanges } from "../src/changes/replay.js";
import { compactAll, compactModel } from "../src/changes/retention.js";
import type { LifelineError } from "../src/core/errors.js";
import type { Store } from "../src/db/connect.js";
import { changes, models } from "../src/db/schema.js";
import { addModel, setConstraints } from "../src/model/index.js";
import { configFromEnv } from "../src/server/config.js";
import { openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store?.close();
});

/** A model whose log holds `n` revisions. */
async function modelWithRevisions(n: number) {
  const name = uniqueName();
  const model = await addModel(store.db, { name }); // revisions 1 and 2
  for (let i = 2; i < n; i++) await setConstraints(store.db, { model: name, constraints: `cores=${i}` });
  return model.id;
}

const revisions = async (modelId: string) =>
  (await store.db.select({ r: changes.revision }).from(changes).where(eq(changes.modelId, modelId)).orderBy(asc(changes.revision))).map(
    (x) => x.r,
  );

describe("compaction", () => {
  it("keeps the last keepRevisions revisions and records the floor it removed through", async () => {
    const id = await modelWithRevisions(12);
    const floor = await compactModel(store.db, id, { keepRevisions: 5, minAgeMs: 0, batch: 1000 });
    expect(floor).toBe(7);
    expect(await revisions(id)).toEqual([8, 9, 10, 11, 12]);
    expect(await logWindow(store.db, id)).toEqual({ revision: 12, compactedThrough: 7 });
  });

  it("never removes rows younger than the minimum age, however far outside the revision window", async () => {
    const id = await modelWithRevisions(8);
    expect(await compactModel(store.db, id, { keepRevisions: 1, minAgeMs: 3_600_000, batch: 1000 })).toBe(0);
    expect(await revisions(id)).toHaveLength(8);
  });

  it("removes at most one batch per transaction", async () => {
    const id = await modelWithRevisions(10);
    expect(await compactModel(store.db, id, { keepRevisions: 0, minAgeMs: 0, batch: 3 })).toBe(3);
    expect(await compactModel(store.db, id, { keepRevisions: 0, minAgeMs: 0, batch: 3 })).toBe(6);
    expect((await revisions(id))[0]).toBe(7);
  });

  it("compactAll visits every model whose log is longer than the window", async () => {
    const long = await modelWithRevisions(9);
    const short = await modelWithRevisions(3);
    await compactAll(store.db, { keepRevisions: 4, minAgeMs: 0, batch: 1000 });
    expect((await logWindow(store.db, long)).compactedThrough).toBe(5);
    expect((await logWindow(store.db, short)).compactedThrough).toBe(0);
  });
});

describe("resuming against a compacted log", () => {
  it("a client within the window reads every change after its revision", async () => {
    const id = await modelWithRevisions(12);
    await compactModel(store.db, id, { keepRevisions: 5, minAgeMs: 0, batch: 1000 });
    checkResumable(7, await logWindow(store.db, id));
    expect((await readChanges(store.db, id, 7, 100)).map((e) => e.revision)).toEqual([8, 9, 10, 11, 12]);
  });

  it("a client behind the floor is told RESYNC_REQUIRED, never handed a log with a hole", async () => {
    const id = await modelWithRevisions(12);
    await compactModel(store.db, id, { keepRevisions: 5, minAgeMs: 0, batch: 1000 });
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as LifelineError;
      }
      throw new Error("expected a refusal");
    };
    await expect(readChanges(store.db, id, 6, 100)).rejects.toMatchObject({ code: "RESYNC_REQUIRED" });
    const window = await logWindow(store.db, id);
    expect(refused(() => checkResumable(6, window)).code).toBe("RESYNC_REQUIRED");
  });

  it("the floor and the deletion commit together: no reader sees one without the other", async () => {
    const id = await modelWithRevisions(6);
    await compactModel(store.db, id, { keepRevisions: 2, minAgeMs: 0, batch: 1000 });
    const [row] = await store.db
      .select({
        floor: models.compactedThrough,
        oldest: sql<number>`(select min(revision) from ${changes} where ${changes.modelId} = ${models.id})`.mapWith(Number),
      })
      .from(models)
      .where(eq(models.id, id));
    expect(row!.oldest).toBe(row!.floor + 1);
  });
});

describe("configuration", () => {
  it("LIFELINE_CHANGE_RETENTION and LIFELINE_CHANGE_RETENTION_MIN_AGE_S set the window", () => {
    const config = configFromEnv({ LIFELINE_CHANGE_RETENTION: "500", LIFELINE_CHANGE_RETENTION_MIN_AGE_S: "60" });
    expect(config.retention).toMatchObject({ keepRevisions: 500, minAgeMs: 60_000 });
    expect(() => configFromEnv({ LIFELINE_CHANGE_RETENTION: "lots" })).toThrow(/LIFELINE_CHANGE_RETENTION must be/);
  });
});
