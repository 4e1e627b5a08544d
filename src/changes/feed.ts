// The change feed: one per server process. It tails the log of every model that has
// at least one open stream and offers each new row to those streams, in order.
//
// It reads the table whenever it might have missed something: on a NOTIFY (a wake-up
// that names the model), on a timer (in case a NOTIFY was lost), and whenever the
// LISTEN connection (re)connects (notifications sent while it was down are gone). When it
// is the only feed listening on its database, its own process's commits wake it in
// process instead of by NOTIFY (presence.ts). Rows
// are read in revision order, and each stream takes them only contiguously, so every
// stream sees every row it covers exactly once, whichever process committed it.
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { loggerFor } from "../core/log.js";
import type { Database, Store } from "../db/connect.js";
import { isOutage, outageReporter } from "../db/outage.js";
import { changes, models } from "../db/schema.js";
import { CHANGES_CHANNEL } from "./append.js";
import {
  type Announcement,
  announcement,
  forgetPresence,
  HEARTBEAT_MS,
  Presence,
  parseAnnouncement,
  registerPresence,
} from "./presence.js";
import { checkResumable, logWindow, readRows } from "./replay.js";
import { routesOf } from "./routes.js";
import { MAX_BATCH, MAX_BATCH_IN_PROCESS, SnapshotReads } from "./snapshot-reads.js";
import { ChangeStream, type FeedCounts, type StreamLimits } from "./stream.js";
import { bookmark, type ChangeEvent, type EntityEvent } from "./stream-event.js";
import { listenForChanges, type Wakeups } from "./wakeup.js";
import type { Watcher } from "./watchers.js";

const log = loggerFor("feed");

export interface FeedOptions extends StreamLimits {
  /** How often every tailed model is read even without a NOTIFY. */
  pollIntervalMs: number;
  /** Events each tail keeps for streams rejoining after a catch-up. */
  recentSize: number;
  /** The most entities a snapshot may hold. */
  maxSnapshot: number;
  /**
   * Bookmarks a second across the process, at most. With thousands of agents' idle
   * streams (four per unit agent), one every bookmark interval each was more traffic
   * than all their changes; past this rate each stream's bookmarks come less often
   * (the longest idle first), still well inside the log's retention. The bookmarks that
   * bring a stream to the head past changes it does not cover count too.
   */
  bookmarkRate: number;
  /** How long one turn of the event loop offers an event to streams before the rest waits for the next (offerEvent). */
  fanOutSliceMs: number;
}

export const defaultFeedOptions: FeedOptions = {
  pollIntervalMs: 1000,
  bookmarkIntervalMs: 15_000,
  recentSize: 4096,
  maxQueue: 1024,
  pageSize: 500,
  maxSnapshot: 10_000,
  bookmarkRate: 500,
  fanOutSliceMs: 4,
};

/**
 * Streams offered between looks at the clock. An offer to an agent's stream executes its selection there and then (a
 * tenth of a millisecond to half of one), and 64 of them ran a slice past 30 ms.
 */
const FAN_OUT_CHECK_EVERY = 8;

/** One turn's share of a fan-out: spent after `ms`, looked at every FAN_OUT_CHECK_EVERY offers. */
class FanOutSlice {
  private start = performance.now();
  private count = 0;

  constructor(private readonly ms: number) {}

  spent(): boolean {
    return ++this.count % FAN_OUT_CHECK_EVERY === 0 && performance.now() - this.start >= this.ms;
  }

  /** Waits for the next turn of the event loop, after its I/O, and starts a new slice there. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }
}

/** Where a new stream starts: after `since` (a resume), or at a fresh snapshot. */
export interface OpenStream {
  modelId: string;
  watcher: Watcher;
  since?: number | null;
}

/** One model's tail: the last revision read, the most recent events, and the streams on it. */
class ModelTail {
  head = 0;
  recent: EntityEvent[] = [];
  readonly streams = new Set<ChangeStream>();
  /** Streams offered every change: their watchers name no routes. */
  private readonly everything = new Set<ChangeStream>();
  /** The other streams, by route (routes.ts): each change goes only to those on its routes. */
  private readonly routed = new Map<string, Set<ChangeStream>>();
  private reading: Promise<void> | null = null;
  private again = false;
  /** What is under way takes rows handed off by commits, not a read of the table: a later commit's rows may queue. */
  private handing = false;
  /** Commits' rows handed off while earlier ones were being offered, in order: taken next, unless a read covers them. */
  private handedOff: (readonly EntityEvent[])[] = [];
  /** The last revision of the rows being taken or queued while `handing`. */
  private handedThrough = 0;
  /** An event is being offered to the streams, across turns (offerEvent): bookmarks wait, or they would skip it. */
  private offering = false;

  constructor(
    private readonly db: Database,
    readonly modelId: string,
    private readonly options: FeedOptions,
    readonly counts: FeedCounts,
    private readonly heard: (events: readonly EntityEvent[]) => void,
  ) {}

  /** Reads every row after `head`. Concurrent calls coalesce into one more read. */
  read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    return this.exclusively(() => this.readToEnd());
  }

  /**
   * Takes the rows a commit of this process appended, as its statement gave them back, without reading them: when they
   * are the next after `head` and no read is under way (which would offer them itself), or the next after the handed-off
   * rows being offered (a fan-out takes turns, and commits go on meanwhile), which they then wait for. Otherwise it reads.
   */
  handOff(events: readonly EntityEvent[]): Promise<void> {
    const first = events[0]?.revision;
    const last = events.at(-1)?.revision;
    if (first === undefined || last === undefined) return this.read();
    if (!this.reading && first === this.head + 1) {
      this.handedThrough = last;
      return this.exclusively(() => this.take(events), true);
    }
    if (this.reading && this.handing && !this.again && first === this.handedThrough + 1) {
      this.handedOff.push(events);
      this.handedThrough = last;
      return this.reading;
    }
    return this.read();
  }

  /**
   * Runs `first`, then the rows handed off meanwhile, and reads again for as long as a read was asked for meanwhile; one
   * at a time. A read covers the rows handed off before it: their commits came first.
   */
  private exclusively(first: () => Promise<void>, handing = false): Promise<void> {
    this.handing = handing;
    this.reading = (async () => {
      try {
        await first();
        for (;;) {
          if (this.again) {
            this.again = false;
            this.handing = false;
            this.handedOff = [];
            await this.readToEnd();
            continue;
          }
          const next = this.handedOff.shift();
          if (!next) break;
          await this.take(next);
        }
      } finally {
        this.reading = null;
        this.handing = false;
        this.handedOff = [];
      }
    })();
    return this.reading;
  }

  private async readToEnd(): Promise<void> {
    for (;;) {
      const page = await readRows(this.db, this.modelId, this.head, this.options.pageSize);
      await this.take(page);
      if (page.length < this.options.pageSize) return;
    }
  }

  /** Takes a page of the log's rows, the next after `head`, in order: each offered to the streams on its routes. */
  private async take(page: readonly EntityEvent[]): Promise<void> {
    this.counts.eventsRead += page.length;
    if (page.length) this.heard(page);
    // One slice for the page, not one an event: a page of a thousand changes, each for a few streams, never filled an
    // event's slice, and was offered in one turn (100 ms and more, every writer of the process waiting behind it).
    const slice = new FanOutSlice(this.options.fanOutSliceMs);
    for (const event of page) {
      // A gap only opens when compaction passed a tail that stood still; streams
      // behind it find out themselves when they read the table.
      const previous = this.head;
      this.head = event.revision;
      this.recent.push(event);
      this.offering = true;
      try {
        await this.offerEvent(event, previous, slice);
      } finally {
        this.offering = false;
      }
    }
    if (this.recent.length > this.options.recentSize) this.recent = this.recent.slice(-this.options.recentSize);
  }

  /**
   * Offers one event to every stream on its routes. A live stream writes it to its socket there and then, so offering
   * one event to ten thousand streams is ten thousand frames' work: past `fanOutSliceMs` of it the rest waits for the
   * next turn, after the I/O that came meanwhile (a mutation's query answered, a request read), so a write's
   * acknowledgement waits for at most one slice of a fan-out, not all of it. `slice` is the page's (take): many events
   * to a few streams each take turns as one event to many does. Streams attached meanwhile take the event from `recent`
   * and ignore the later offer; streams offered it twice (two of their routes) take it once.
   */
  private async offerEvent(event: EntityEvent, previous: number, slice: FanOutSlice): Promise<void> {
    for (const stream of this.everything) {
      stream.offer(event, previous);
      if (slice.spent()) await slice.next();
    }
    for (const key of routesOf(event)) {
      const streams = this.routed.get(key);
      if (!streams) continue;
      for (const stream of streams) {
        stream.offer(event, previous);
        if (slice.spent()) await slice.next();
      }
    }
  }

  attach(stream: ChangeStream): void {
    this.streams.add(stream);
    const routes = stream.routes;
    if (!routes) {
      this.everything.add(stream);
      return;
    }
    routes.bind((key, added) => {
      const streams = this.routed.get(key);
      if (added) {
        if (streams) streams.add(stream);
        else this.routed.set(key, new Set([stream]));
      } else if (streams?.delete(stream) && streams.size === 0) this.routed.delete(key);
    });
  }

  detach(stream: ChangeStream): void {
    if (!this.streams.delete(stream)) return;
    this.everything.delete(stream);
    stream.routes?.unbind();
  }

  /** Gives bookmarks to streams behind the head only by changes they do not cover, and to idle ones: `budget` at most; returns how many it gave. */
  tick(now: number, budget: number): number {
    if (this.streams.size === 0 || this.offering) return 0;
    const shared = bookmark(this.head); // one object for every stream it brings to the head, so it is executed once
    // Every stream is ticked (it accounts for the head). One given a bookmark goes to the back,
    // so the streams past the budget go before it next tick.
    const given: ChangeStream[] = [];
    for (const stream of this.streams) if (stream.tick(shared, now, given.length < budget)) given.push(stream);
    for (const stream of given) {
      this.streams.delete(stream);
      this.streams.add(stream);
    }
    return given.length;
  }
}

export class ChangeFeed {
  private readonly tails = new Map<string, ModelTail>();
  private readonly starting = new Map<string, Promise<ModelTail>>();
  /** Snapshots being read, by model and share key, for streams opening together. */
  private readonly starts = new Map<string, Promise<{ revision: number; events: readonly ChangeEvent[] }>>();
  private wakeups: Wakeups | null = null;
  /** Who else listens on the database (a server's; PGlite's store is one process's alone, and its notifications never leave it). */
  private readonly presence: Presence | null;
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;
  private readonly snapshots: SnapshotReads;
  /** Counts for /metrics (src/server/metrics.ts). */
  readonly counts: FeedCounts = { eventsRead: 0, delivered: 0 };
  private readonly readers = new Set<(events: readonly EntityEvent[]) => void>();

  constructor(
    private readonly store: Store,
    readonly options: FeedOptions = defaultFeedOptions,
  ) {
    this.snapshots = new SnapshotReads(store.db, options.maxSnapshot, store.driver === "pglite" ? MAX_BATCH_IN_PROCESS : MAX_BATCH);
    this.presence =
      store.driver === "postgres"
        ? new Presence(
            (modelId) => this.wake(modelId),
            (modelId, events) => this.handOff(modelId, events),
          )
        : null;
  }

  async start(): Promise<void> {
    const { presence } = this;
    if (presence) registerPresence(this.store.db, presence);
    this.wakeups = await listenForChanges(
      this.store,
      (payload) => this.notified(payload),
      () => {
        this.readAll();
        // Notifications sent while the LISTEN was down are gone, the others' announcements with them: ask again.
        presence?.listening();
        this.announce("join");
      },
    );
    if (presence) this.timers.push(setInterval(() => this.announce("here"), HEARTBEAT_MS).unref());
    this.timers.push(setInterval(() => this.readAll(), this.options.pollIntervalMs).unref());
    this.timers.push(setInterval(() => this.tickBookmarks(), this.tickMs).unref());
  }

  /** Ends every stream (their clients see the subscription complete) and stops listening. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.presence) {
      this.presence.stopped();
      forgetPresence(this.store.db, this.presence);
    }
    for (const timer of this.timers) clearInterval(timer);
    for (const tail of this.tails.values()) for (const stream of [...tail.streams]) stream.close();
    await this.wakeups?.close().catch(() => {});
  }

  /** A NOTIFY's payload: a model with new rows, or another feed's announcement (presence.ts). */
  private notified(payload: string): void {
    const said = parseAnnouncement(payload);
    if (said === null) this.wake(payload);
    else if (this.presence?.heard(said)) this.announce("here");
  }

  /**
   * Rows a commit of this process appended: its tail (if any stream is on it) takes them as they are, in the next turn,
   * so that the committing request's answer is written before the fan-out begins.
   */
  handOff(modelId: string, events: readonly EntityEvent[]): void {
    setImmediate(() => this.tails.get(modelId)?.handOff(events).catch(this.report));
  }

  /** A model's new rows are in the log: its tail (if any stream is on it) reads them. */
  private wake(modelId: string): void {
    this.tails.get(modelId)?.read().catch(this.report);
  }

  /** Tells the other feeds on the database that this one listens (presence.ts). */
  private announce(kind: Announcement["kind"]): void {
    if (!this.presence || this.stopped) return;
    this.store.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${announcement(this.presence.id, kind)})`).catch(this.report);
  }

  /** Reads a tailed model's new rows now, and resolves once they are offered to its streams. */
  async read(modelId: string): Promise<void> {
    await this.tails.get(modelId)?.read();
  }

  /**
   * Calls `reader` with each page of rows the tails read from the log, as they read them (only models someone
   * subscribes to are read). For /metrics: the feed's lag, hook runs by result. Returns its removal.
   */
  onRead(reader: (events: readonly EntityEvent[]) => void): () => void {
    this.readers.add(reader);
    return () => this.readers.delete(reader);
  }

  /**
   * The models whose tails have not read a row committed more than `maxLagMs` ago (/readyz): for each tailed model,
   * its oldest unread row, one primary-key lookup each.
   */
  async behind(maxLagMs: number): Promise<string[]> {
    const late: string[] = [];
    for (const tail of this.tails.values()) {
      const [oldest] = await this.store.db
        .select({ committedAt: changes.committedAt })
        .from(changes)
        .where(and(eq(changes.modelId, tail.modelId), gt(changes.revision, tail.head)))
        .orderBy(asc(changes.revision))
        .limit(1);
      if (oldest && Date.now() - oldest.committedAt.getTime() > maxLagMs) late.push(tail.modelId);
    }
    return late;
  }

  /** Other feeds heard listening on the database lately (presence.ts), for diagnostics and tests; 0 on PGlite. */
  get peers(): number {
    return this.presence?.peers ?? 0;
  }

  /** Streams open on this process, for diagnostics and tests. */
  get streamCount(): number {
    let n = 0;
    for (const tail of this.tails.values()) n += tail.streams.size;
    return n;
  }

  /**
   * Opens a stream. A resume checks the log still holds everything after `since`; a
   * fresh stream reads its snapshot and the revision it stands at in one read-only
   * snapshot transaction, so the snapshot and the changes after it fit exactly.
   */
  async open({ modelId, watcher, since }: OpenStream): Promise<ChangeStream> {
    if (this.stopped) throw new Error("the change feed has stopped");
    const db = this.store.db;
    let start: { after: number; reach: number };
    let initial: ChangeEvent[] = [];
    if (since != null) {
      const window = await logWindow(db, modelId);
      checkResumable(since, window);
      // A resume replays from `since`; the watcher may still need to learn the current state.
      if (watcher.primedBySnapshot) await this.snapshot(modelId, watcher, "resume");
      // Its replay goes at least as far as the model was when asked, however far this process's tail has read.
      start = { after: since, reach: window.revision };
    } else {
      const fresh = await this.freshStart(modelId, watcher);
      start = { after: fresh.revision, reach: fresh.revision };
      initial = [...fresh.events]; // the stream consumes its own copy; the events themselves are shared
    }
    let tail = await this.tailOf(modelId);
    // The last stream of a tail may have closed while this one was opening: use a live tail.
    while (this.tails.get(modelId) !== tail) tail = await this.tailOf(modelId);
    const stream = new ChangeStream(db, modelId, tail, watcher, this.options, start, initial, (s) => this.detach(tail, s));
    tail.attach(stream);
    return stream;
  }

  /**
   * A fresh stream's start: STATE events at the snapshot's revision, then a bookmark at
   * it. Streams that open together with equal share keys get the same start (and the
   * same event objects, so each event is also executed once for them all).
   */
  private freshStart(modelId: string, watcher: Watcher): Promise<{ revision: number; events: readonly ChangeEvent[] }> {
    const key = watcher.shareKey === undefined ? null : `${modelId}\u0000${watcher.shareKey}`;
    const pending = key === null ? undefined : this.starts.get(key);
    if (pending) return pending;
    const start = this.snapshot(modelId, watcher, "snapshot").then(({ revision, states }) => ({
      revision,
      events: [...states.map((s) => ({ ...s, revision })), bookmark(revision)],
    }));
    if (key !== null) {
      this.starts.set(key, start);
      const forget = () => this.starts.delete(key);
      start.then(forget, forget);
    }
    return start;
  }

  /** The watcher's state and the revision it stands at, read in one snapshot (with those of the streams opening beside it). */
  private snapshot(modelId: string, watcher: Watcher, purpose: "snapshot" | "resume") {
    return this.snapshots.read(modelId, watcher, purpose);
  }

  private async tailOf(modelId: string): Promise<ModelTail> {
    const existing = this.tails.get(modelId);
    if (existing) return existing;
    let starting = this.starting.get(modelId);
    if (!starting) {
      starting = (async () => {
        const tail = new ModelTail(this.store.db, modelId, this.options, this.counts, (events) => {
          for (const reader of this.readers) reader(events);
        });
        // A new tail starts at the model's current revision: streams catch up to it from the table.
        tail.head = (await logWindow(this.store.db, modelId)).revision;
        this.tails.set(modelId, tail);
        return tail;
      })().finally(() => this.starting.delete(modelId));
      this.starting.set(modelId, starting);
    }
    return starting;
  }

  private detach(tail: ModelTail, stream: ChangeStream): void {
    tail.detach(stream);
    if (tail.streams.size === 0 && this.tails.get(tail.modelId) === tail) this.tails.delete(tail.modelId);
  }

  /**
   * The timer's and the reconnect's read: one query for the revisions of every tailed
   * model, then a read of only those that moved, so an idle feed costs one query a tick
   * however many models it tails.
   */
  private readAll(): void {
    if (this.tails.size === 0) return;
    this.store.db
      .select({ id: models.id, revision: models.revision })
      .from(models)
      .where(inArray(models.id, [...this.tails.keys()]))
      .then((rows) => {
        for (const { id, revision } of rows) {
          const tail = this.tails.get(id);
          if (tail && revision > tail.head) tail.read().catch(this.report);
        }
      })
      .catch(this.report);
  }

  /** How often streams are looked at for a bookmark: as soon as a stream behind the head only by changes it does not cover hears of it. */
  private get tickMs(): number {
    return Math.max(10, Math.min(1000, this.options.bookmarkIntervalMs / 4));
  }

  /** Gives streams their bookmarks (stream.ts, `tick`), and says how many (the feed's timer calls it; tests may, with a `now` of their own). */
  tickBookmarks(now = Date.now()): number {
    const budget = Math.max(1, Math.round((this.options.bookmarkRate * this.tickMs) / 1000));
    let given = 0;
    for (const tail of this.tails.values()) given += tail.tick(now, budget - given);
    return given;
  }

  /** The database out of reach: said once every few seconds. */
  private readonly reportOutage = outageReporter((cause) =>
    log.error({ cause }, `the database is out of reach (${cause}); reading again every ${this.options.pollIntervalMs} ms`),
  );

  private readonly report = (error: unknown) => {
    // A failed read is retried by the next wake-up or tick; the streams lose nothing.
    if (this.stopped) return;
    if (isOutage(error)) this.reportOutage(error);
    else log.error({ err: error }, "a read failed (will retry)");
  };
}
