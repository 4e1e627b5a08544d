// Specification of the feed itself. Its safety net: NOTIFY is only a wake-up, and a
// change whose notification never arrives (lost while the LISTEN connection was down,
// say) still reaches every stream, on the feed's timer, by reading the table. Its
// economy: streams that open together with equal filters read one snapshot.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import type { ChangeEvent } from "../src/changes/stream-event.js";
import { modelChanges } from "../src/changes/watchers.js";
import { openStore, type Store } from "../src/db/connect.js";
import { addModel } from "../src/model/index.js";
import { onPostgres, openTestStore, uniqueName } from "./support/store.js";

let store: Store;
let feed: ChangeFeed;
beforeAll(async () => {
  store = await openTestStore();
  feed = new ChangeFeed(store, { ...defaultFeedOptions, pollIntervalMs: 50 });
  await feed.start();
});
afterAll(async () => {
  await feed?.stop();
  await store?.close();
});

describe("a change whose NOTIFY is lost", () => {
  it("still reaches the stream, on the feed's timer", async () => {
    const name = uniqueName();
    const model = await addModel(store.db, { name });
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }), since: 1 });
    // Machine 0 (revision 2) comes from the stream's first read; after it the stream is live on the feed.
    expect(((await stream.next()).value as ChangeEvent).entity).toBe("0");
    // Appended the way appendChanges does, minus its pg_notify: as if the notification were lost.
    await store.db.transaction(async (tx) => {
      await tx.execute(sql`update models set revision = revision + 1 where id = ${model.id}`);
      await tx.execute(
        sql`insert into changes (model_id, revision, kind, entity, life, fields) values (${model.id}, 3, 'machine', '7', 'alive', '{}'::jsonb)`,
      );
    });
    const event = (await stream.next()).value as ChangeEvent;
    expect([event.revision, event.kind, event.entity]).toEqual([3, "machine", "7"]);
    await stream.return();
  });
});

describe("streams opening together", () => {
  it("with equal filters share one snapshot: the same revision, the same state", async () => {
    const queries: string[] = [];
    const counted = await openStore({
      ...(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 4 } : { dataDir: "memory://" }),
      onQuery: (query) => queries.push(query),
    });
    const shared = new ChangeFeed(counted, defaultFeedOptions);
    await shared.start();
    try {
      const model = await addModel(counted.db, { name: uniqueName() });
      queries.length = 0;
      const streams = await Promise.all(
        [0, 1, 2].map(() => shared.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) })),
      );
      const firsts = await Promise.all(streams.map(async (s) => (await s.next()).value as ChangeEvent));
      expect(firsts.map((e) => [e.type, e.entity, e.revision])).toEqual(Array(3).fill(["state", "0", 2]));
      expect(queries.filter((q) => /from "machines"/.test(q))).toHaveLength(1);
      for (const s of streams) await s.return();
    } finally {
      await shared.stop();
      await counted.close();
    }
  });
});
