// Specification of the feeds' presence (src/changes/presence.ts): a commit NOTIFYs only
// when another feed may be listening. A server whose feed is the only one on its
// database commits without NOTIFY and wakes its own feed in process; two feeds on one
// database hear each other's announcements and notify again. Any doubt means NOTIFY.
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANGES_CHANNEL } from "../src/changes/append.js";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import { announcement, HEARTBEAT_MS, JOIN_GRACE_MS, PEER_TTL_MS, Presence, parseAnnouncement, quietFeed } from "../src/changes/presence.js";
import { readRows } from "../src/changes/replay.js";
import type { ChangeEvent } from "../src/changes/stream-event.js";
import { modelChanges } from "../src/changes/watchers.js";
import { openStore, type Store } from "../src/db/connect.js";
import { addMachine, addModel } from "../src/model/index.js";
import { onPostgres, uniqueName } from "./support/store.js";

describe("a feed's view of the others (no database)", () => {
  const clock = () => {
    let now = 1_000_000;
    return {
      now: () => now,
      advance: (ms: number) => {
        now += ms;
      },
    };
  };

  it("is not alone before it listens, nor during the join grace: answers may still be on their way", () => {
    const time = clock();
    const presence = new Presence(
      () => {},
      () => {},
      time.now,
    );
    expect(presence.alone).toBe(false);
    presence.listening();
    time.advance(JOIN_GRACE_MS - 1);
    expect(presence.alone).toBe(false);
    time.advance(1);
    expect(presence.alone).toBe(true);
  });

  it("is not alone while another feed was heard within the TTL; a feed unheard for the TTL is gone", () => {
    const time = clock();
    const presence = new Presence(
      () => {},
      () => {},
      time.now,
    );
    presence.listening();
    time.advance(JOIN_GRACE_MS);
    presence.heard({ feed: "other", kind: "here" });
    time.advance(PEER_TTL_MS - 1);
    expect(presence.alone).toBe(false);
    time.advance(1);
    expect(presence.alone).toBe(true);
  });

  it("answers a join, not a here, and ignores its own announcements", () => {
    const presence = new Presence(
      () => {},
      () => {},
    );
    presence.listening();
    expect(presence.heard({ feed: "other", kind: "join" })).toBe(true);
    expect(presence.heard({ feed: "other", kind: "here" })).toBe(false);
    expect(presence.heard({ feed: presence.id, kind: "join" })).toBe(false);
  });

  it("after its LISTEN is established again, waits the grace again; once stopped, is never alone", () => {
    const time = clock();
    const presence = new Presence(
      () => {},
      () => {},
      time.now,
    );
    presence.listening();
    time.advance(JOIN_GRACE_MS);
    expect(presence.alone).toBe(true);
    presence.listening();
    expect(presence.alone).toBe(false);
    time.advance(JOIN_GRACE_MS);
    presence.stopped();
    expect(presence.alone).toBe(false);
  });

  it("an announcement's payload is never a model's id, and reads back as sent", () => {
    expect(parseAnnouncement(crypto.randomUUID())).toBeNull();
    expect(parseAnnouncement(announcement("f1", "join"))).toEqual({ feed: "f1", kind: "join" });
    expect(parseAnnouncement(announcement("f1", "here"))).toEqual({ feed: "f1", kind: "here" });
    expect(parseAnnouncement("feed:bye:f1")).toBeNull();
  });
});

/** Polls `check` until it holds, or fails saying `what` once `ms` have passed. */
async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// NOTIFY reaches only the listeners of its own database: this file makes one of its own, so the feeds of the
// suite's other files (running beside it on the shared database) are not heard here.
describe.skipIf(!onPostgres)("feeds on a PostgreSQL database (a database of this file's own)", () => {
  const admin = onPostgres ? postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }) : null;
  const name = `lifeline_presence_${process.pid}`;
  let url = "";
  const opened: { store: Store; feed: ChangeFeed; queries: string[] }[] = [];
  // Polling off: a change reaches a stream only by a wake-up, in process or by NOTIFY.
  const noPolling = { ...defaultFeedOptions, pollIntervalMs: 3_600_000 };

  /** A server's store and feed; `queries`: every statement the store sent. */
  const server = async () => {
    const queries: string[] = [];
    const store = await openStore({ databaseUrl: url, maxConnections: 4, onQuery: (query) => queries.push(query) });
    const feed = new ChangeFeed(store, noPolling);
    await feed.start();
    opened.push({ store, feed, queries });
    return { store, feed, queries };
  };

  beforeAll(async () => {
    await admin!.unsafe(`drop database if exists "${name}" with (force)`);
    await admin!.unsafe(`create database "${name}"`);
    const at = new URL(process.env.DATABASE_URL!);
    at.pathname = `/${name}`;
    url = at.toString();
  });
  afterAll(async () => {
    for (const { store, feed } of opened) {
      await feed.stop();
      await store.close();
    }
    await admin?.unsafe(`drop database if exists "${name}" with (force)`);
    await admin?.end({ timeout: 5 });
  });

  it("alone, a server's commit sends no NOTIFY, and its own stream still gets the change at once", async () => {
    const { store, feed } = await server();
    await until("the feed finds itself alone", () => quietFeed(store.db) !== null);
    const model = await addModel(store.db, { name: uniqueName() });
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) });
    expect(((await stream.next()).value as ChangeEvent).entity).toBe("0"); // the snapshot: machine 0
    expect(((await stream.next()).value as ChangeEvent).type).toBe("bookmark");

    // A listener that is not a feed (it never announces itself), to see what the commit sends.
    const listener = postgres(url, { max: 1, onnotice: () => {} });
    const heard: string[] = [];
    await listener.listen(CHANGES_CHANNEL, (payload) => heard.push(payload));
    try {
      const machine = await addMachine(store.db, { model: model.name });
      const event = (await stream.next()).value as ChangeEvent;
      expect([event.kind, event.entity]).toEqual(["machine", machine.id]);
      // Notifications arrive in commit order: once a marker sent after the commit is heard, the commit's would have been.
      await store.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, 'marker')`);
      await until("the marker is heard", () => heard.includes("marker"));
      expect(heard.filter((p) => p === model.id)).toEqual([]);
    } finally {
      await stream.return();
      await listener.end({ timeout: 5 });
    }
  });

  it("alone, a server's commit is handed to its feed as the append gave it back: the feed reads no row, and the event is the log's row", async () => {
    const { store, feed, queries } = opened[0] ?? (await server());
    await until("the feed finds itself alone", () => quietFeed(store.db) !== null);
    const model = await addModel(store.db, { name: uniqueName() });
    const stream = await feed.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) });
    expect(((await stream.next()).value as ChangeEvent).entity).toBe("0");
    expect(((await stream.next()).value as ChangeEvent).type).toBe("bookmark");
    try {
      const from = queries.length;
      await addMachine(store.db, { model: model.name, constraints: "mem=4G" });
      const handed = (await stream.next()).value as ChangeEvent;
      const readsOfTheLog = queries.slice(from).filter((q) => /from "changes"/.test(q));
      expect(readsOfTheLog).toEqual([]);
      const [logged] = await readRows(store.db, model.id, handed.revision - 1, 1);
      // Strictly: a field the handed event named with no value would be a field its stream says changed.
      expect(handed).toStrictEqual(logged);
    } finally {
      await stream.return();
    }
  });

  it("a second server on the database is heard at once: the first notifies again, and the second's stream gets its commit", async () => {
    const first = opened[0] ?? (await server());
    await until("the first feed is alone", () => quietFeed(first.store.db) !== null);
    const second = await server();
    await until("the first feed hears the second's join", () => quietFeed(first.store.db) === null);

    const model = await addModel(first.store.db, { name: uniqueName() });
    const stream = await second.feed.open({ modelId: model.id, watcher: modelChanges({ kinds: ["machine"] }) });
    expect(((await stream.next()).value as ChangeEvent).entity).toBe("0");
    expect(((await stream.next()).value as ChangeEvent).type).toBe("bookmark");
    try {
      const machine = await addMachine(first.store.db, { model: model.name });
      const event = (await stream.next()).value as ChangeEvent;
      expect([event.kind, event.entity]).toEqual(["machine", machine.id]);
      // The second heard the first's answer to its join, and each counts the other.
      // Within half a heartbeat: by the first's answer to the join, not by its next heartbeat.
      await until("the second hears the first", () => second.feed.peers === 1, HEARTBEAT_MS / 2);
      expect(first.feed.peers).toBe(1);
    } finally {
      await stream.return();
    }
  });
});
