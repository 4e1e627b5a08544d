// Specification of the feed itself. Its safety net: NOTIFY is only a wake-up, and a
// change whose notification never arrives (lost while the LISTEN connection was down,
// say) still reaches every stream, on the feed's timer, by reading the table. Its
// economy: streams that open together with equal filters read one snapshot, and a
// change is offered only to the streams on its routes.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import type { ChangeEvent, EntityEvent } from "../src/changes/stream-event.js";
import { modelChanges, relationUnits, unitLife, type Watcher } from "../src/changes/watchers.js";
import { Life } from "../src/core/life.js";
import { openStore, type Store } from "../src/db/connect.js";
import { models } from "../src/db/schema.js";
import { addMachine, addModel, deploy, enterScope, integrate } from "../src/model/index.js";
import { memoryStore } from "./support/pglite-template.js";
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

/** A store of its own that records every statement it sends, and a feed on it. */
async function countedFeed() {
  const queries: string[] = [];
  const counted = await openStore({
    ...(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 4 } : await memoryStore()),
    onQuery: (query) => queries.push(query),
  });
  const shared = new ChangeFeed(counted, defaultFeedOptions);
  await shared.start();
  return { queries, counted, shared };
}

describe("streams opening together", () => {
  it("with equal filters share one snapshot: the same revision, the same state", async () => {
    const { queries, counted, shared } = await countedFeed();
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

  it("a unit's own streams opened many times at once (issue 32: 1,000 unitLife on one socket) read one snapshot", async () => {
    const { queries, counted, shared } = await countedFeed();
    try {
      const model = await addModel(counted.db, { name: uniqueName() });
      await deploy(counted.db, { model: model.name, charm: "wordpress", numUnits: 1 });
      queries.length = 0;
      const streams = await Promise.all(
        Array.from({ length: 100 }, () => shared.open({ modelId: model.id, watcher: unitLife("wordpress/0") })),
      );
      expect(queries.filter((q) => /from "units"/.test(q))).toHaveLength(1);
      for (const s of streams) await s.return();
    } finally {
      await shared.stop();
      await counted.close();
    }
  });

  it("a burst's snapshots are read a batch at a time, never all their transactions at once", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    await deploy(store.db, { model: model.name, charm: "wordpress", numUnits: 3 });
    let reading = 0;
    let most = 0;
    // Each watcher's snapshot is the machine stream's, counted while its transaction's reads are under way.
    const counting = (): Watcher => {
      const inner = modelChanges({ kinds: ["machine"] });
      return {
        ...inner,
        shareKey: undefined,
        async snapshot(q, modelId, limit, purpose, last) {
          reading++;
          most = Math.max(most, reading);
          try {
            return await inner.snapshot(q, modelId, limit, purpose, last);
          } finally {
            reading--;
          }
        },
      };
    };
    const streams = await Promise.all(Array.from({ length: 200 }, () => feed.open({ modelId: model.id, watcher: counting() })));
    // 200 streams, 64 a transaction: at most one batch's snapshots are ever being read together.
    expect(most).toBeLessThanOrEqual(64);
    for (const s of streams) await s.return();
  });
});

describe("streams opening together, their snapshots read in one transaction (snapshot-reads.ts)", () => {
  const firstEvent = async (stream: Awaited<ReturnType<ChangeFeed["open"]>>) => {
    const event = (await stream.next()).value as ChangeEvent;
    await stream.return();
    return event;
  };

  it("each gets its own snapshot, and one refused (a unit that does not exist) fails alone", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    await deploy(store.db, { model: model.name, charm: "wordpress", numUnits: 1 });
    const opened = await Promise.allSettled(
      [unitLife("wordpress/0"), unitLife("wordpress/9"), modelChanges({ kinds: ["machine"] })].map((watcher) =>
        feed.open({ modelId: model.id, watcher }),
      ),
    );
    expect(opened[1]).toMatchObject({ status: "rejected", reason: { code: "NOT_FOUND" } });
    const [unit, machines] = await Promise.all([opened[0], opened[2]].map((o) => firstEvent((o as PromiseFulfilledResult<never>).value)));
    expect([unit!.kind, unit!.entity]).toEqual(["application", "wordpress"]);
    expect([machines!.kind, machines!.entity]).toEqual(["machine", "0"]);
  });

  it("a snapshot whose read PostgreSQL refuses fails alone: the others are read again and open", async () => {
    const model = await addModel(store.db, { name: uniqueName() });
    const failing: Watcher = {
      ...modelChanges({ kinds: ["unit"] }),
      async snapshot(q) {
        await q.execute(sql`select 1 / 0`);
        return [];
      },
    };
    const opened = await Promise.allSettled(
      [failing, modelChanges({ kinds: ["machine"] })].map((watcher) => feed.open({ modelId: model.id, watcher })),
    );
    expect(opened[0]).toMatchObject({ status: "rejected" });
    expect(opened[1]!.status).toBe("fulfilled");
    const machines = await firstEvent((opened[1] as PromiseFulfilledResult<never>).value);
    expect([machines.kind, machines.entity]).toEqual(["machine", "0"]);
  });
});

describe("routing", () => {
  /** The watcher, counting the changes the feed offers it. */
  const counting = (watcher: Watcher) => {
    const offered: string[] = [];
    return {
      offered,
      watcher: {
        ...watcher,
        covers: (e: Parameters<Watcher["covers"]>[0]) => {
          offered.push(`${e.kind} ${e.entity}`);
          return watcher.covers(e);
        },
      },
    };
  };

  it("offers a unit's entry to a relation only to the streams of the counterpart role, and its settings only to those that see it", async () => {
    // Seed 002: "providers observe requirers, requirers observe providers". With N members each
    // watching the relation, a route per relation offered every entry N times (N² as units join).
    const name = uniqueName();
    const model = await addModel(store.db, { name });
    await deploy(store.db, { model: name, charm: "wordpress", numUnits: 3 });
    await deploy(store.db, { model: name, charm: "mysql", numUnits: 1 });
    const relation = await integrate(store.db, { model: name, endpoints: ["wordpress", "mysql"] });
    const requirers = [0, 1, 2].map(() => counting(relationUnits(relation.id, "wordpress/0")));
    const requirerStreams = await Promise.all(requirers.map((r) => feed.open({ modelId: model.id, watcher: r.watcher })));
    const provider = counting(relationUnits(relation.id, "mysql/0"));
    const providerStream = await feed.open({ modelId: model.id, watcher: provider.watcher });
    const streams = [...requirerStreams, providerStream];
    // Each stream reads its snapshot up to its bookmark, then waits on the feed.
    for (const s of streams) while (((await s.next()).value as ChangeEvent).type !== "bookmark");
    const waiting = streams.map((s) => s.next());

    for (const unit of ["wordpress/1", "wordpress/2", "mysql/0"])
      await enterScope(store.db, { model: name, relation: relation.id, unit, privateAddress: "10.0.0.1" });
    await feed.read(model.id);

    const member = (unit: string) => [`scope ${relation.id}:${unit}`, `settings ${relation.id}:${unit}`];
    expect(provider.offered).toEqual([...member("wordpress/1"), ...member("wordpress/2")]);
    for (const r of requirers) expect(r.offered).toEqual(member("mysql/0"));
    for (const s of streams) await s.return();
    await Promise.all(waiting);
  });
});

describe("bookmarks", () => {
  it("go to at most bookmarkRate idle streams a second across the process, those kept waiting first", async () => {
    // One a tick (rate 1, a tick a second); the interval is long enough that the feed's own timer gives none.
    const paced = new ChangeFeed(store, { ...defaultFeedOptions, bookmarkIntervalMs: 60_000, bookmarkRate: 1 });
    await paced.start();
    try {
      const model = await addModel(store.db, { name: uniqueName() });
      const streams = await Promise.all(
        [0, 1, 2].map(() => paced.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) })),
      );
      for (const s of streams) while (((await s.next()).value as ChangeEvent).type !== "bookmark");
      const got: number[] = [];
      const waitFor = (i: number) => void streams[i]!.next().then((r) => r.value && got.push(i));
      for (let i = 0; i < streams.length; i++) waitFor(i);
      const later = Date.now() + 120_000; // every stream is idle past the interval
      const tick = async () => {
        const before = got.length;
        // A stream takes a bookmark once its consumer waits: tick until one is given (never more than one a tick).
        await expect.poll(() => paced.tickBookmarks(later)).toBe(1);
        await expect.poll(() => got.length).toBe(before + 1);
        waitFor(got.at(-1)!);
      };
      for (let i = 0; i < 3; i++) await tick();
      expect([...got].sort()).toEqual([0, 1, 2]); // one each, one a tick
      await tick();
      expect(got[3]).toBe(got[0]); // then round again, the one that has waited longest first
      for (const s of streams) await s.return();
    } finally {
      await paced.stop();
    }
  });
});

/** A new model, and `count` streams of its machines on `on`, each read past its snapshot. */
async function machineStreams(on: ChangeFeed, count: number) {
  const name = uniqueName();
  const model = await addModel(store.db, { name });
  const streams = await Promise.all(
    Array.from({ length: count }, () => on.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) })),
  );
  for (const s of streams) while (((await s.next()).value as ChangeEvent).type !== "bookmark");
  return { name, model, streams };
}

describe("a fan-out longer than a turn's slice", () => {
  it("reaches every stream once, in order, though bookmarks are ticked in the turns between its slices", async () => {
    // A zero slice: the fan-out yields every few dozen streams, and a bookmark tick runs in every turn meanwhile. A tick
    // that moved a waiting stream to the head before it was offered the head's change would skip that change.
    const sliced = new ChangeFeed(store, { ...defaultFeedOptions, fanOutSliceMs: 0, bookmarkIntervalMs: 60_000 });
    await sliced.start();
    let ticking = true;
    const tickEveryTurn = () => {
      sliced.tickBookmarks();
      if (ticking) setImmediate(tickEveryTurn);
    };
    try {
      const { name, streams } = await machineStreams(sliced, 300);
      const seen = streams.map(() => [] as string[]);
      const reading = streams.map(async (s, i) => {
        while (seen[i]!.length < 3) {
          const event = (await s.next()).value as ChangeEvent;
          if (event.type === "change") seen[i]!.push(event.entity);
        }
      });
      tickEveryTurn();
      for (let i = 0; i < 3; i++) await addMachine(store.db, { model: name });
      // Bounded: a skipped change would leave its stream waiting for ever.
      await Promise.race([Promise.all(reading), new Promise((resolve) => setTimeout(resolve, 15_000))]);
      expect(new Set(seen.map((entities) => entities.join(",")))).toEqual(new Set(["1,2,3"]));
      for (const s of streams) await s.return();
    } finally {
      ticking = false;
      await sliced.stop();
    }
  });
  it("takes turns for a page of many changes, each offered to a few streams, as for one change offered to many", async () => {
    // A commit's changes arrive as one page. With a slice an event, ten changes to twenty streams each (200 offers, 20 a
    // change) never filled one, and the whole page went in one turn, every writer of the process waiting behind it.
    const sliced = new ChangeFeed(store, { ...defaultFeedOptions, fanOutSliceMs: 0, bookmarkIntervalMs: 60_000 });
    await sliced.start();
    let turn = 0;
    let turning = true;
    const countTurns = () => {
      turn++;
      if (turning) setImmediate(countTurns);
    };
    try {
      const { name, streams } = await machineStreams(sliced, 20);
      const turnsSeen = new Set<number>();
      const reading = streams.map(async (s) => {
        for (let changes = 0; changes < 10; ) {
          const event = (await s.next()).value as ChangeEvent;
          if (event.type !== "change") continue;
          changes++;
          turnsSeen.add(turn);
        }
      });
      countTurns();
      await deploy(store.db, { model: name, charm: "wordpress", numUnits: 10 }); // ten machines in one commit
      // Bounded: a change never offered would leave its stream waiting for ever.
      await Promise.race([Promise.all(reading), new Promise((resolve) => setTimeout(resolve, 15_000))]);
      expect(turnsSeen.size).toBeGreaterThan(1);
      for (const s of streams) await s.return();
    } finally {
      turning = false;
      await sliced.stop();
    }
  });
  it("hands a commit's rows to its streams after those being offered, without reading the log", async () => {
    // Commits go on while a fan-out takes turns. A commit's rows handed off meanwhile wait for the rows before them;
    // they were read back from the table instead. These rows are in no table: read back, they would never arrive.
    const sliced = new ChangeFeed(store, {
      ...defaultFeedOptions,
      fanOutSliceMs: 0,
      bookmarkIntervalMs: 60_000,
      pollIntervalMs: 3_600_000,
    });
    await sliced.start();
    try {
      const { model, streams } = await machineStreams(sliced, 20);
      const [row] = await store.db.select({ revision: models.revision }).from(models).where(eq(models.id, model.id));
      const revision = row!.revision;
      const machine = (offset: number, entity: string) =>
        ({
          type: "change",
          revision: revision + offset,
          committedAt: new Date(),
          kind: "machine",
          entity,
          life: Life.Alive,
          removed: false,
          fields: {},
        }) as EntityEvent;
      // Two commits, one right after the other: 60 offers, the first commit's take yields every 8.
      sliced.handOff(model.id, [machine(1, "a"), machine(2, "b"), machine(3, "c")]);
      sliced.handOff(model.id, [machine(4, "d"), machine(5, "e")]);
      const reading = Promise.all(
        streams.map(async (s) => {
          const entities: string[] = [];
          while (entities.length < 5) {
            const event = (await s.next()).value as ChangeEvent;
            if (event.type === "change") entities.push(event.entity);
          }
          return entities.join(",");
        }),
      );
      // Bounded: rows read back instead of handed off would leave every stream waiting for ever.
      const seen = await Promise.race([
        reading,
        new Promise<string[]>((resolve) => setTimeout(() => resolve(["not within 15 s"]), 15_000)),
      ]);
      expect(new Set(seen)).toEqual(new Set(["a,b,c,d,e"]));
      for (const s of streams) await s.return();
    } finally {
      await sliced.stop();
    }
  });
});

describe("a stream naming many entities", () => {
  it("reads its snapshot with each list as one parameter: 70,000 names (past PostgreSQL's 65,535 parameters) open", async () => {
    // The API refuses more than maxListLength names; the feed itself must not depend on it (it overflowed before).
    const model = await addModel(store.db, { name: uniqueName() });
    const entities = Array.from({ length: 70_000 }, (_, i) => (i === 0 ? "0" : `mysql/${i}`));
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({ entities }), since: null });
    const first = (await stream.next()).value as ChangeEvent;
    expect([first.type, first.kind, first.entity]).toEqual(["state", "machine", "0"]);
    await stream.return();
  });
});
