// Who a bearer token stands for, remembered for a moment. Every request names its token,
// and looking it up was a round trip of its own on each (as many statements as all the
// agents' other reads). An answer is kept for AUTHENTICATION_TTL_MS at most, and forgotten
// by this process as soon as one of its transactions commits a change that could alter
// it: credentials replaced or removed, or a machine or unit going Dead or away (an agent's
// credentials end with its entity). Another process (PostgreSQL, several servers) learns
// of such a change within AUTHENTICATION_TTL_MS, as Kubernetes' API servers do of a token
// review they cache.
import type { Change } from "../changes/change.js";
import { Life } from "../core/life.js";
import type { Database } from "../db/connect.js";

export const AUTHENTICATION_TTL_MS = 1000;
/** Past this many remembered tokens everything is forgotten: the map stays bounded whatever the traffic. */
const MAX_REMEMBERED = 50_000;

interface Remembered<A> {
  actor: A;
  until: number;
}

const byStore = new WeakMap<Database, Map<string, Remembered<unknown>>>();

/** The actor remembered for a token's hash, if still fresh. */
export function remembered<A>(db: Database, tokenHash: string, now = Date.now()): A | undefined {
  const entry = byStore.get(db)?.get(tokenHash);
  if (!entry) return undefined;
  if (entry.until > now) return entry.actor as A;
  byStore.get(db)!.delete(tokenHash);
  return undefined;
}

/** Remembers a token's actor until `expiresAt` (the credentials' own expiry) or the TTL, whichever comes first. */
export function remember<A>(db: Database, tokenHash: string, actor: A, expiresAt: Date | null, now = Date.now()): void {
  const map = byStore.get(db) ?? new Map<string, Remembered<unknown>>();
  byStore.set(db, map);
  if (map.size >= MAX_REMEMBERED) map.clear();
  map.set(tokenHash, { actor, until: Math.min(now + AUTHENTICATION_TTL_MS, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY) });
}

/** Forgets every token of the store (credentials changed). */
export function forgetAuthentications(db: Database): void {
  byStore.get(db)?.clear();
}

/** After a commit: forgets every token when a machine or unit went Dead or away, which ends its agent's credentials. */
export function committed(db: Database, changes: readonly Change[]): void {
  if (changes.some((c) => (c.kind === "machine" || c.kind === "unit") && (c.removed || c.life === Life.Dead))) forgetAuthentications(db);
}
