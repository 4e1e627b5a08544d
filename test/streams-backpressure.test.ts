// Specification of a stream's memory bound, on the feed itself with a real store: a
// consumer that stops reading holds at most `maxQueue` events in memory, and when it
// reads again it gets everything, in order, from the table (the log is the buffer);
// only a consumer that fell behind the retention window is told to resync.
import { and, asc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import { compactModel } from "../src/changes/retention.js";
import { type ChangeStream, StreamFailure } from "../src/changes/stream.js";
import type { ChangeEvent } from "../src/changes/stream-event.js";
import { modelChanges } from "../src/changes/watchers.js";
import type { LifelineError } from "../src/core/errors.js";
import type { Store } from "../src/db/connect.js";
import { changes } from "../src/db/schema.js";
import { addModel, setConstraints } from "../src/model/index.js";
import { openTestStore, uniqueName } from "./support/store.js";

const MAX_QUEUE = 4;
let store: Store;
let feed: ChangeFeed;
beforeAll(async () => {
  store = await openTestStore();
  feed = new ChangeFeed(store, { ...defaultFeedOptions, maxQueue: MAX_QUEUE, pageSize: 7, recentSize: 16 });
  await feed.start();
});
afterAll(async () => {
  await feed?.stop();
  await store?.close();
});

async function newModel() {
  const name = uniqueName();
  const model = await addModel(store.db, { name });
  return { name, id: model.id };
}

/** `n` committed changes to the model, one transaction each. */
async function write(model: string, n: number) {
  for (let i = 0; i < n; i++) await setConstraints(store.db, { model, constraints: `cores=${i + 1}` });
}

async function drain(stream: ChangeStream, count: number): Promise<(ChangeEvent | StreamFailure)[]> {
  const out: (ChangeEvent | StreamFailure)[] = [];
  while (out.length < count) {
    const step = await stream.next();
    if (step.done) break;
    out.push(step.value);
    if (step.value instanceof StreamFailure) break;
  }
  return out;
}

async function revisionsAfter(modelId: string, after: number) {
  const rows = await store.db
    .select({ revision: changes.revision })
    .from(changes)
    .where(and(eq(changes.modelId, modelId), gt(changes.revision, after)))
    .orderBy(asc(changes.revision));
  return rows.map((r) => r.revision);
}

describe("a consumer that stops reading", () => {
  it("holds at most maxQueue events in memory while changes keep committing", async () => {
    const model = await newModel();
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({}), since: 1 });
    await drain(stream, 1); // joined the feed: the one change after revision 1 (machine 0)
    await write(model.name, 20);
    await feed.read(model.id);
    expect(stream.buffered).toBeLessThanOrEqual(MAX_QUEUE);
    await stream.return();
  });

  it("gets every change, in order, once it reads again: the table is its buffer", async () => {
    const model = await newModel();
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({}), since: 2 });
    await write(model.name, 30);
    await feed.read(model.id);
    const expected = await revisionsAfter(model.id, 2);
    const got = await drain(stream, expected.length);
    expect(got.map((e) => (e as ChangeEvent).revision)).toEqual(expected);
    // And it is live again afterwards.
    await write(model.name, 1);
    await feed.read(model.id);
    expect(((await stream.next()).value as ChangeEvent).revision).toBe(expected.at(-1)! + 1);
    await stream.return();
  });

  it("is told to resync, after what it already holds, once compaction passed it", async () => {
    const model = await newModel();
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({}), since: 1 });
    await drain(stream, 1); // live on the feed from revision 2
    await write(model.name, 30); // more than it may hold plus what the feed remembers
    await feed.read(model.id);
    await compactModel(store.db, model.id, { keepRevisions: 3, minAgeMs: 0, batch: 1000 });
    const got = await drain(stream, 100);
    const failure = got.at(-1);
    expect(failure).toBeInstanceOf(StreamFailure);
    expect(((failure as StreamFailure).error as LifelineError).code).toBe("RESYNC_REQUIRED");
    // Before the failure: exactly what it held, contiguous from where it was.
    expect(got.slice(0, -1).map((e) => (e as ChangeEvent).revision)).toEqual([3, 4, 5, 6]);
    expect((await stream.next()).done).toBe(true);
  });
});

describe("a snapshot", () => {
  it("larger than the limit is refused with INVALID_ARGUMENT, naming how to narrow it", async () => {
    const model = await newModel(); // holds the model and machine 0
    const small = new ChangeFeed(store, { ...defaultFeedOptions, maxSnapshot: 1 });
    await small.start();
    try {
      await expect(small.open({ modelId: model.id, watcher: modelChanges({}) })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      await expect(small.open({ modelId: model.id, watcher: modelChanges({}) })).rejects.toThrow(/narrow the stream/);
      const narrowed = await small.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) });
      expect(((await narrowed.next()).value as ChangeEvent).entity).toBe("0");
      await narrowed.return();
    } finally {
      await small.stop();
    }
  });
});
