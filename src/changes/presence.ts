// Who else listens for a database's changes. A commit's NOTIFY (append.ts) wakes every
// feed listening on the database, its own process's included, and costs PostgreSQL
// about a sixth of a single mutation's CPU (the notify queue's database-wide lock, and a
// wake-up of every listening backend): measured in issue 11's fifteenth session, an
// 8-model write benchmark run without it took PostgreSQL's CPU a mutation from 1.29 to
// 1.07 ms. When a server's feed is the only one listening, nobody else needs it: its
// commits go without NOTIFY and wake its own feed in process.
//
// The feeds find each other on the channel itself. A feed that (re)starts listening
// announces itself ("join"), every feed that hears a join answers ("here"), and each
// says "here" again every HEARTBEAT_MS. A feed is alone once it has listened for
// JOIN_GRACE_MS, long enough for answers to come back, and has heard no other within
// PEER_TTL_MS. Any doubt means NOTIFY, as before: a process without a feed (a script
// writing through src/model) always notifies, and so does a feed not yet sure.
//
// What it costs when it errs: a feed that starts while another's LISTEN connection is
// down is not heard by it until its next heartbeat, and the quiet commits of that other
// reach the new feed's streams by its poll (FeedOptions.pollIntervalMs, 1 s), not at
// once. The changes themselves are never lost: a notification is only a wake-up.
import { randomUUID } from "node:crypto";
import type { Database } from "../db/connect.js";
import type { EntityEvent } from "./stream-event.js";

export const HEARTBEAT_MS = 5000;
export const PEER_TTL_MS = 3 * HEARTBEAT_MS;
export const JOIN_GRACE_MS = 1000;

/** A notification's payload is a model's id (a UUID) or one of these, which no id can be. */
const PREFIX = "feed:";

export type Announcement = { feed: string; kind: "join" | "here" };

export function announcement(feed: string, kind: Announcement["kind"]): string {
  return `${PREFIX}${kind}:${feed}`;
}

/** The announcement a payload carries, or null when it names a model. */
export function parseAnnouncement(payload: string): Announcement | null {
  if (!payload.startsWith(PREFIX)) return null;
  const [kind, feed] = payload.slice(PREFIX.length).split(":");
  return (kind === "join" || kind === "here") && feed ? { feed, kind } : null;
}

/** One feed's view of the others listening on its database. */
export class Presence {
  readonly id = randomUUID();
  private listeningSince: number | null = null;
  /** Other feeds, by id, with when each was last heard. */
  private readonly others = new Map<string, number>();

  constructor(
    /** Wakes this feed for a model's new rows (its NOTIFY handler). */
    readonly wake: (modelId: string) => void,
    /** Hands this feed a model's rows that a commit of this process just appended, as events. */
    readonly handOff: (modelId: string, events: readonly EntityEvent[]) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The feed's LISTEN has just been (re)established: it starts its grace, and must announce itself. */
  listening(): void {
    this.listeningSince = this.now();
  }

  /** The feed stopped listening: it is alone no more (its commits must notify, were there any). */
  stopped(): void {
    this.listeningSince = null;
  }

  /** Takes in another feed's announcement; true when it asks for an answer. */
  heard({ feed, kind }: Announcement): boolean {
    if (feed === this.id) return false;
    this.others.set(feed, this.now());
    return kind === "join";
  }

  /** How many other feeds were heard within the TTL (diagnostics, and tests); those unheard longer are forgotten. */
  get peers(): number {
    const now = this.now();
    for (const [feed, heard] of this.others) if (now - heard >= PEER_TTL_MS) this.others.delete(feed);
    return this.others.size;
  }

  /** Whether nobody but this feed listens, as far as it can tell. */
  get alone(): boolean {
    return this.listeningSince !== null && this.now() - this.listeningSince >= JOIN_GRACE_MS && this.peers === 0;
  }
}

const byStore = new WeakMap<Database, Presence>();

/** Makes `presence` the one the store's commits consult (one feed a store); undone by `forgetPresence`. */
export function registerPresence(db: Database, presence: Presence): void {
  byStore.set(db, presence);
}

export function forgetPresence(db: Database, presence: Presence): void {
  if (byStore.get(db) === presence) byStore.delete(db);
}

/** The feed a commit on `db` wakes in process instead of notifying, or null when the commit must NOTIFY. */
export function quietFeed(db: Database): Presence | null {
  const presence = byStore.get(db);
  return presence?.alone ? presence : null;
}
