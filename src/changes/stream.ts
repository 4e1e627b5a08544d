// One subscriber's stream: the events a Watcher selects from one model's log,
// after a starting revision, in order, each once.
//
// The log itself is the buffer. A stream keeps at most `maxQueue` events in memory;
// when its consumer (a socket) falls behind, or it joins late, or it sees a gap, it
// stops taking events from the feed ("lagging") and reads the table page by page from
// the last revision it accounted for, then rejoins the feed through the feed's recent
// events. So a slow client costs a bounded amount of memory and never loses an event;
// only a client that falls behind the retention window is told to resync.
//
// A stream also tells its consumer how far it has read when the rows it passed over
// were none of its own (a cleanup, another unit's change), so a client always learns
// the model's revision: a BOOKMARK at once when a catch-up ends, and at the feed's next
// tick when live. That is what lets a client tell "caught up" from "behind".
import type { Database } from "../db/connect.js";
import { readChanges } from "./replay.js";
import { bookmark, type ChangeEvent, type EntityEvent } from "./stream-event.js";
import type { Watcher } from "./watchers.js";

/** What a stream needs from the feed's tail of its model. */
export interface TailView {
  /** The last revision the tail has read. */
  readonly head: number;
  /** The tail's most recent events, oldest first, ending at `head`. */
  readonly recent: readonly EntityEvent[];
  /** The feed's counts, which each stream adds its deliveries to. */
  readonly counts: FeedCounts;
}

/** What a feed has done since it started, for /metrics: plain numbers, read when scraped. */
export interface FeedCounts {
  /** Rows read from the log by the model tails. */
  eventsRead: number;
  /** Events handed to subscribers (each subscriber's copy counts): snapshots, changes and bookmarks. */
  delivered: number;
}

export interface StreamLimits {
  /** Events held in memory for a consumer that is not keeping up. */
  maxQueue: number;
  /** Rows read from the table at a time while catching up. */
  pageSize: number;
  /** A stream that has emitted nothing for this long sends a bookmark. */
  bookmarkIntervalMs: number;
}

/**
 * A consumer that takes a live event as the feed offers it, synchronously (the server writes it to its socket there
 * and then), or says it cannot now (false), and the stream queues it as it would otherwise. It is offered an event only
 * while the stream's iterating consumer waits with nothing queued, so the two never reorder events.
 */
export type LiveConsumer = (event: ChangeEvent) => boolean;

/** A failure the stream reports as its last event (the GraphQL layer turns it into an error). */
export class StreamFailure {
  constructor(readonly error: Error) {}
}

export class ChangeStream implements AsyncIterableIterator<ChangeEvent | StreamFailure> {
  private queue: (ChangeEvent | StreamFailure)[];
  /** Every revision up to this one has been taken into account (queued, or not covered). */
  private through: number;
  /**
   * The revision the consumer is told it stands at: its last event's (queued), or where it started. Behind `through`
   * only by changes it does not cover, which a bookmark then tells it of.
   */
  private told: number;
  private lagging = true; // a new stream first joins the feed, reading the table for whatever lies between
  /** The model's revision when the stream opened: it reads at least that far before it joins the feed. */
  private readonly reach: number;
  private closed = false;
  private waiting: (() => void) | null = null;
  private lastEmitAt = Date.now();
  private live: LiveConsumer | null = null;

  constructor(
    private readonly db: Database,
    readonly modelId: string,
    private readonly tail: TailView,
    private readonly watcher: Watcher,
    private readonly limits: StreamLimits,
    start: { after: number; reach: number },
    initial: ChangeEvent[],
    private readonly detach: (stream: ChangeStream) => void,
  ) {
    this.through = start.after;
    this.told = start.after;
    this.reach = start.reach;
    this.queue = initial;
  }

  /** Events held in memory, waiting for the consumer. */
  get buffered(): number {
    return this.queue.length;
  }

  /** What the feed routes to it by (none: every change is offered). */
  get routes() {
    return this.watcher.routes;
  }

  /**
   * The feed offers each new change of the model it may cover, in order, with the revision its tail
   * had read before it. Never blocks, never buffers past the limit.
   */
  offer(event: EntityEvent, previous: number): void {
    if (this.closed || this.lagging || event.revision <= this.through) return;
    // A stream taking from the feed has accounted for every change the tail read meanwhile: those not
    // offered were on no route of its watcher, so not covered.
    if (previous > this.through) this.through = previous;
    if (event.revision !== this.through + 1 || this.queue.length >= this.limits.maxQueue) {
      // A gap, or a consumer that is not keeping up: fall back to reading the table.
      this.lagging = true;
      this.wake();
      return;
    }
    const next = this.take(event);
    if (next) this.emit(next);
  }

  /**
   * The feed's bookmark tick: a stream whose consumer is waiting says where it is, if the feed has a bookmark left to
   * give (`allowed`): at once when changes it does not cover have moved it past what it last told, else once it has
   * been idle for the bookmark interval. True when it sent one.
   */
  tick(shared: ChangeEvent, now: number, allowed: boolean): boolean {
    if (this.closed || this.lagging || this.queue.length > 0 || !this.waiting) return false;
    if (this.tail.head > this.through) this.through = this.tail.head; // as in offer: the rest was on none of its routes
    const untold = this.through > this.told;
    if (!allowed || (!untold && now - this.lastEmitAt < this.limits.bookmarkIntervalMs)) return false;
    this.told = this.through;
    this.emit(shared.revision === this.through ? shared : bookmark(this.through));
    return true;
  }

  /**
   * Hands the stream's live events to `consumer` as the feed offers them, while its iterating consumer waits for the
   * next event with nothing queued: then nothing of the stream is in flight, and an event taken here cannot overtake one
   * yielded before. A fan-out then costs no promise, no iterator step and no per-subscriber serialization.
   */
  deliverLive(consumer: LiveConsumer): void {
    this.live = consumer;
  }

  /** Ends the stream; a pending `next` resolves as done. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.detach(this);
    this.wake();
  }

  // Promises chained rather than awaited: a stream waits here for hours, and an async method's idle frame costs each
  // stream more than a pending `then` (docs/decisions.md, "Memory").
  next(): Promise<IteratorResult<ChangeEvent | StreamFailure>> {
    const event = this.queue.shift();
    if (event) {
      this.lastEmitAt = Date.now();
      this.tail.counts.delivered++;
      if (event instanceof StreamFailure) this.close();
      return Promise.resolve({ value: event, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    if (this.lagging)
      return this.catchUp().then(
        () => this.next(),
        (error: unknown) => {
          this.queue = [new StreamFailure(error as Error)];
          return this.next();
        },
      );
    return new Promise<void>((resolve) => (this.waiting = resolve)).then(() => this.next());
  }

  async return(): Promise<IteratorResult<ChangeEvent | StreamFailure>> {
    this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** Rejoins the feed if it can; otherwise reads one page from the table and tries again. */
  private async catchUp(): Promise<void> {
    if (this.rejoin()) {
      this.caughtUp(); // the common case for a new stream: nothing to read
      return;
    }
    const page = await readChanges(this.db, this.modelId, this.through, this.limits.pageSize);
    if (this.closed) return;
    for (const event of page) this.queueTaken(event);
    if (page.length < this.limits.pageSize && this.rejoin()) this.caughtUp();
    // Otherwise the tail's memory does not reach back to us yet: read another page.
  }

  /**
   * A catch-up (a resume's replay, a slow consumer's reading) ends where the feed is: when its last rows were none of
   * the stream's, a bookmark says so at once, as a fresh stream's snapshot ends with one. Once a catch-up, not a row.
   */
  private caughtUp(): void {
    if (this.through <= this.told) return;
    this.queue.push(bookmark(this.through));
    this.told = this.through;
  }

  /**
   * Takes events from the feed again, if nothing between us and it is missing: the tail
   * is not ahead of us (its later offers are then new to us, in order), or its recent
   * events reach back to our next revision (they fill the difference). Not before the
   * revision the model stood at when the stream opened: a tail that has not read that far
   * yet would end a resume's replay short of it, so the table is read for the rest.
   */
  private rejoin(): boolean {
    const recent = this.tail.recent;
    if (this.tail.head > this.through) {
      if (recent.length === 0 || recent[0]!.revision > this.through + 1) return false;
      // From the first event past `through` on: a new stream's snapshot is usually near the tail's head, and walking
      // the tail's memory (4,096 events) from its start for each of thousands of streams opening was 7% of the
      // server's CPU while 1,000 units settled.
      for (let i = firstAfter(recent, this.through); i < recent.length; i++) this.queueTaken(recent[i]!);
    }
    if (this.through < this.reach) return false;
    this.lagging = false;
    return true;
  }

  /** Accounts for the next change in order; returns it if the stream covers it, for the caller to emit or queue. */
  private take(event: EntityEvent): EntityEvent | null {
    if (event.revision <= this.through) return null;
    this.through = event.revision;
    if (!this.watcher.covers(event)) return null;
    this.told = event.revision;
    return event;
  }

  private queueTaken(event: EntityEvent): void {
    const taken = this.take(event);
    if (taken) this.queue.push(taken);
  }

  /** Sends an event on: to the live consumer if the iterating one waits idle and it takes it, else through the queue. */
  private emit(event: ChangeEvent): void {
    if (this.live !== null && this.waiting !== null && this.queue.length === 0 && this.live(event)) {
      this.lastEmitAt = Date.now();
      this.tail.counts.delivered++;
      return;
    }
    this.queue.push(event);
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}

/** The index of the first event of `events` (in revision order) past `revision`; their length when none is. */
function firstAfter(events: readonly EntityEvent[], revision: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (events[middle]!.revision <= revision) low = middle + 1;
    else high = middle;
  }
  return low;
}
