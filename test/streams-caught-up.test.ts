// Specification of how a client knows it is caught up (issue 33): every stream brings
// its client to the model's revision, even when the rows in between are of kinds it did
// not ask for (a cleanup, another unit's change). A fresh stream's snapshot ends with a
// BOOKMARK at the model's revision; a resumed stream's replay ends with one at once when
// its last rows were not its own; a live stream that rows it does not cover have moved
// on hears of the head at the feed's next bookmark tick, not after its idle interval.
//
// The first specs drive a feed by hand (it is never started: it reads and ticks only
// when told to), so what each event owes to a read or a tick is certain; the last go
// through GraphQL, as a client would, with the server's own timer.
import { afterEach, describe, expect, it } from "vitest";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import type { ChangeStream, StreamFailure } from "../src/changes/stream.js";
import type { ChangeEvent } from "../src/changes/stream-event.js";
import {
  applicationRelations,
  machineLife,
  machineUnits,
  modelChanges,
  relationUnits,
  together,
  unitLife,
  type Watcher,
} from "../src/changes/watchers.js";
import { addModel, addUnit, deploy, integrate, modelNamed, removeRelations, runCleanups, setConstraints } from "../src/model/index.js";
import { uniqueName } from "./support/store.js";
import { EVENT_FIELDS, type Subscription, subscribe, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

// Bookmarks for idleness only once an hour: any bookmark seen here is one owed to the rows a stream passed over.
const HOUR = 3_600_000;
const live = useLiveServer({ bookmarkIntervalMs: HOUR });

let feeds: ChangeFeed[] = [];
afterEach(async () => {
  for (const feed of feeds) await feed.stop();
  feeds = [];
});

/** A feed on the test store that reads and ticks only when a spec says so. */
function handFeed(): ChangeFeed {
  const feed = new ChangeFeed(live.store, { ...defaultFeedOptions, bookmarkIntervalMs: HOUR });
  feeds.push(feed);
  return feed;
}

interface Scene {
  model: string;
  id: string;
  /** The relation between wordpress and mysql. */
  db: number;
}

/** wordpress/0 on machine 1 and mysql/0 on machine 2, related; logging and rsyslog, with no units, related too. */
async function scene(): Promise<Scene> {
  const model = uniqueName();
  const row = await addModel(live.store.db, { name: model });
  await deploy(live.store.db, { model, charm: "wordpress", numUnits: 1 });
  await deploy(live.store.db, { model, charm: "mysql", numUnits: 1 });
  const relation = await integrate(live.store.db, { model, endpoints: ["wordpress", "mysql"] });
  await deploy(live.store.db, { model, charm: "logging" });
  await deploy(live.store.db, { model, charm: "rsyslog", numUnits: 0 });
  await integrate(live.store.db, { model, endpoints: ["logging", "rsyslog"] });
  return { model, id: row.id, db: relation.id };
}

/**
 * Rows no stream below covers last: the model's constraints (a MODEL row), the logging-rsyslog relation removed (a
 * RELATION row and a cleanup queued), then the cleaner's row (the cleanup done). Returns the model's revision after them.
 */
async function movedOnPastEveryStream(model: string): Promise<number> {
  await setConstraints(live.store.db, { model, constraints: "cores=2" });
  await removeRelations(live.store.db, { model, targets: [LOGS] });
  await runCleanups(live.store.db, { model });
  return revisionOf(model);
}

/** The relation between two applications none of the streams here is about. */
const LOGS = "logging rsyslog";

const revisionOf = async (model: string) => (await modelNamed(live.store.db, model)).revision;

/** Fails with what it waited for at the deadline: never waits on a sleep. */
function beforeDeadline<T>(promise: Promise<T>, what: string, baseMs = 5_000): Promise<T> {
  const ms = scaled(baseMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

type Next = ReturnType<ChangeStream["next"]>;

/**
 * The stream's events up to the first that brings it to `revision`, starting with `waiting` (a `next` already asked).
 * With `tick`, the feed ticks once its consumer waits (as the feed's timer would next), and never otherwise.
 */
async function readTo(stream: ChangeStream, revision: number, tick: ChangeFeed | null, waiting?: Next): Promise<ChangeEvent[]> {
  const events: ChangeEvent[] = [];
  while (!events.length || events.at(-1)!.revision < revision) {
    const next = waiting ?? stream.next();
    waiting = undefined;
    tick?.tickBookmarks();
    const step = await beforeDeadline(next, `reaching revision ${revision} after ${JSON.stringify(events.at(-1) ?? null)}`);
    if (step.done || !("type" in step.value)) throw new Error(`the stream ended: ${String((step.value as StreamFailure)?.error)}`);
    events.push(step.value);
  }
  return events;
}

/**
 * Reads a fresh stream's snapshot to its bookmark (at the model's revision when it opened), then asks for the next
 * event: the stream joins the feed and waits there, as a client's does. That `next` is returned with the snapshot.
 */
async function pastSnapshot(stream: ChangeStream): Promise<{ snapshot: ChangeEvent[]; waiting: Next }> {
  const snapshot: ChangeEvent[] = [];
  while (snapshot.at(-1)?.type !== "bookmark") snapshot.push((await beforeDeadline(stream.next(), "the snapshot")).value as ChangeEvent);
  return { snapshot, waiting: stream.next() };
}

const subscriptions: [string, (s: Scene) => Watcher][] = [
  ["changes(kinds: [UNIT])", () => modelChanges({ kinds: ["unit"] })],
  ["changes(entities: [wordpress/0])", () => modelChanges({ entities: ["wordpress/0"] })],
  ["changes(life: [DYING])", () => modelChanges({ life: ["dying"] })],
  ["changes() (every kind but CLEANUP)", () => modelChanges({})],
  ["unitLife", () => unitLife("wordpress/0")],
  ["machineLife", () => machineLife("1")],
  ["machineUnits", () => machineUnits("1")],
  ["machineAgent", () => together(machineLife("1"), machineUnits("1"))],
  ["unitAgent", () => together(unitLife("wordpress/0"), applicationRelations("wordpress"))],
  ["applicationRelations", () => applicationRelations("wordpress")],
  ["relationUnits", (s) => relationUnits(s.db, "wordpress/0")],
];

describe("a stream reaches the model's revision past rows it does not cover", () => {
  for (const [name, watcher] of subscriptions) {
    it(`${name}: a fresh stream's snapshot ends at the model's revision, and the next tick brings it to the new one`, async () => {
      const s = await scene();
      const feed = handFeed();
      const stream = await feed.open({ modelId: s.id, watcher: watcher(s) });
      const { snapshot, waiting } = await pastSnapshot(stream);
      expect(snapshot.at(-1)!.revision).toBe(await revisionOf(s.model));
      const head = await movedOnPastEveryStream(s.model);
      await feed.read(s.id);
      expect((await readTo(stream, head, feed, waiting)).at(-1)).toMatchObject({ type: "bookmark", revision: head });
      await stream.return();
    });

    it(`${name}: a resumed stream's replay ends with a bookmark at the model's revision, with no tick`, async () => {
      const s = await scene();
      const since = await revisionOf(s.model);
      const head = await movedOnPastEveryStream(s.model);
      const feed = handFeed();
      const stream = await feed.open({ modelId: s.id, watcher: watcher(s), since });
      expect((await readTo(stream, head, null)).at(-1)).toMatchObject({ type: "bookmark", revision: head });
      await stream.return();
    });
  }

  it("a resumed stream's replay reaches the model's revision even where this process's feed has not read that far", async () => {
    const s = await scene();
    const feed = handFeed();
    const first = await feed.open({ modelId: s.id, watcher: unitLife("wordpress/0") }); // the model's tail, at its revision
    const since = await revisionOf(s.model);
    const head = await movedOnPastEveryStream(s.model); // not read by the tail: as if its wake-up were still on its way
    const resumed = await feed.open({ modelId: s.id, watcher: unitLife("wordpress/0"), since });
    expect((await readTo(resumed, head, null)).at(-1)).toMatchObject({ type: "bookmark", revision: head });
    await Promise.all([first.return(), resumed.return()]);
  });

  it("a stream that has just had a change of its own hears of the head at the next tick, not after its idle interval", async () => {
    // Before, only a stream idle for the whole interval had a bookmark: one whose own changes kept coming more often
    // than that never learnt the model's revision.
    const s = await scene();
    const feed = handFeed();
    const stream = await feed.open({ modelId: s.id, watcher: modelChanges({ kinds: ["unit"] }) });
    const { waiting } = await pastSnapshot(stream);
    await addUnit(live.store.db, { model: s.model, application: "wordpress" });
    const head = await movedOnPastEveryStream(s.model);
    await feed.read(s.id);
    const events = await readTo(stream, head, feed, waiting);
    expect(events.map((e) => `${e.type} ${e.entity ?? e.revision}`)).toEqual(["change wordpress/1", `bookmark ${head}`]);
    await stream.return();
  });

  it("one batch of rows it does not cover costs a stream one bookmark, not one a tick", async () => {
    const s = await scene();
    const feed = handFeed();
    const stream = await feed.open({ modelId: s.id, watcher: unitLife("wordpress/0") });
    const { waiting } = await pastSnapshot(stream);
    const head = await movedOnPastEveryStream(s.model);
    await feed.read(s.id);
    await readTo(stream, head, feed, waiting);
    const next = stream.next();
    expect(feed.tickBookmarks()).toBe(0); // it is at the head, and has not been idle for an hour
    expect(feed.tickBookmarks(Date.now() + HOUR)).toBe(1); // idle for the interval: its bookmark, as before
    expect(((await next).value as ChangeEvent).revision).toBe(head);
    await stream.return();
  });

  it("streams a tick brings to the head share one bookmark, executed once for them all", async () => {
    const s = await scene();
    const feed = handFeed();
    const streams = await Promise.all(
      [unitLife("wordpress/0"), machineLife("1"), applicationRelations("wordpress")].map((w) => feed.open({ modelId: s.id, watcher: w })),
    );
    const nexts: Next[] = [];
    for (const stream of streams) nexts.push((await pastSnapshot(stream)).waiting);
    await movedOnPastEveryStream(s.model);
    await feed.read(s.id);
    expect(feed.tickBookmarks()).toBe(3);
    const [first, ...others] = await Promise.all(nexts);
    for (const other of others) expect(other.value).toBe(first!.value);
    for (const stream of streams) await stream.return();
  });
});

const REMOVE_RELATION = `mutation ($m: String!, $r: [String!]!) { removeRelation(input: { model: $m, relations: $r }) { id } }`;
const RUN_CLEANUPS = `mutation ($m: String!) { runCleanups(model: $m) { finished } }`;
const REVISION = `query ($m: String!) { model(name: $m) { revision } }`;

/** What a client does: it is caught up to `Model.revision` once its stream's last event (of any type) is at it. */
async function caughtUpTo(stream: Subscription, revision: string): Promise<void> {
  await stream.until((x) => Number(x.events.at(-1)?.revision ?? -1) >= Number(revision), 5_000);
}

describe("a client knows it is caught up", () => {
  it("once its stream's last revision reaches Model.revision: after cleanup rows, a bookmark brings it there within a tick", async () => {
    const s = await scene();
    const units = subscribe(live.url, `subscription ($m: String!) { changes(model: $m, kinds: [UNIT]) { ${EVENT_FIELDS} } }`, {
      m: s.model,
    });
    const own = subscribe(live.url, `subscription ($m: String!) { unitLife(model: $m, unit: "wordpress/0") { ${EVENT_FIELDS} } }`, {
      m: s.model,
    });
    try {
      await Promise.all([units.synced(), own.synced()]);
      const before = (await live.ok(REVISION, { m: s.model })).model.revision as string;
      expect([units.events.at(-1)!.revision, own.events.at(-1)!.revision]).toEqual([before, before]);
      await live.ok(REMOVE_RELATION, { m: s.model, r: [LOGS] });
      await live.ok(RUN_CLEANUPS, { m: s.model });
      const head = (await live.ok(REVISION, { m: s.model })).model.revision as string;
      expect(Number(head)).toBeGreaterThan(Number(before));
      for (const stream of [units, own]) {
        await caughtUpTo(stream, head);
        expect(stream.events.at(-1)).toMatchObject({ type: "BOOKMARK", revision: head });
        expect(stream.changes).toEqual([]);
      }
    } finally {
      await Promise.all([units.close(), own.close()]);
    }
  });

  it("a resumed stream tells it too, at the end of its replay", async () => {
    const s = await scene();
    const since = (await live.ok(REVISION, { m: s.model })).model.revision as string;
    await live.ok(REMOVE_RELATION, { m: s.model, r: [LOGS] });
    await live.ok(RUN_CLEANUPS, { m: s.model });
    const head = (await live.ok(REVISION, { m: s.model })).model.revision as string;
    const resumed = subscribe(
      live.url,
      `subscription ($m: String!, $since: String) { changes(model: $m, kinds: [UNIT], since: $since) { ${EVENT_FIELDS} } }`,
      { m: s.model, since },
    );
    try {
      await caughtUpTo(resumed, head);
      expect(resumed.events).toEqual([expect.objectContaining({ type: "BOOKMARK", revision: head })]);
    } finally {
      await resumed.close();
    }
  });
});
