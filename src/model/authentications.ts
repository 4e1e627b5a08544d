// Who a bearer token stands for, remembered for a moment. Every request names its token,
// and looking it up was a round trip of its own on each (as many statements as all the
// agents' other reads). An answer is kept for AUTHENTICATION_TTL_MS at most, and forgotten
// by this process as soon as one of its transactions commits a change that could alter
// it: a person's token revoked, an agent's credentials replaced or removed, or its machine
// or unit going Dead or away (an agent's credentials end with its entity). Only the tokens
// of what changed are forgotten: with thousands of agents, units die all the time. Another
// process (PostgreSQL, several servers) learns of such a change within
// AUTHENTICATION_TTL_MS, as Kubernetes' API servers do of a token review they cache.
import type { PendingChange } from "../changes/append.js";
import { Life } from "../core/life.js";
import type { Database } from "../db/connect.js";

export const AUTHENTICATION_TTL_MS = 1000;
/** Past this many remembered tokens everything is forgotten: the maps stay bounded whatever the traffic. */
const MAX_REMEMBERED = 50_000;

/** Who a token stands for, as far as forgetting it goes (credentials.ts's Actor). */
type Holder =
  | { kind: "person"; id: number }
  | { kind: "machine"; modelId: string; machine: string }
  | { kind: "unit"; modelId: string; unit: string };

interface Remembered {
  actor: Holder;
  until: number;
}

/** A store's remembered tokens, and the tokens of each person or agent. */
interface Memory {
  tokens: Map<string, Remembered>;
  holders: Map<string, Set<string>>;
}

const byStore = new WeakMap<Database, Memory>();

const holderOf = (actor: Holder) =>
  actor.kind === "person"
    ? personKey(actor.id)
    : agentKey(actor.modelId, actor.kind, actor.kind === "machine" ? actor.machine : actor.unit);
const personKey = (id: number) => `person:${id}`;
const agentKey = (modelId: string, kind: "machine" | "unit", entity: string) => `${modelId}:${kind}:${entity}`;

function memoryOf(db: Database): Memory {
  const memory = byStore.get(db) ?? { tokens: new Map(), holders: new Map() };
  byStore.set(db, memory);
  return memory;
}

/** The actor remembered for a token's hash, if still fresh. */
export function remembered<A extends Holder>(db: Database, tokenHash: string, now = Date.now()): A | undefined {
  const entry = byStore.get(db)?.tokens.get(tokenHash);
  if (!entry) return undefined;
  if (entry.until > now) return entry.actor as A;
  byStore.get(db)!.tokens.delete(tokenHash);
  return undefined;
}

/** Remembers a token's actor until `expiresAt` (the credentials' own expiry) or the TTL, whichever comes first. */
export function remember(db: Database, tokenHash: string, actor: Holder, expiresAt: Date | null, now = Date.now()): void {
  const memory = memoryOf(db);
  if (memory.tokens.size >= MAX_REMEMBERED) {
    memory.tokens.clear();
    memory.holders.clear();
  }
  memory.tokens.set(tokenHash, { actor, until: Math.min(now + AUTHENTICATION_TTL_MS, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY) });
  const key = holderOf(actor);
  const held = memory.holders.get(key) ?? new Set<string>();
  memory.holders.set(key, held.add(tokenHash));
}

function forget(db: Database, key: string): void {
  const memory = byStore.get(db);
  const held = memory?.holders.get(key);
  if (!memory || !held) return;
  for (const tokenHash of held) memory.tokens.delete(tokenHash);
  memory.holders.delete(key);
}

/** Forgets a person's token (revoked). */
export const forgetPerson = (db: Database, id: number) => forget(db, personKey(id));

/** Forgets an agent's tokens (its credentials replaced or removed). */
export const forgetAgentTokens = (db: Database, modelId: string, kind: "machine" | "unit", entity: string) =>
  forget(db, agentKey(modelId, kind, entity));

/** After a commit: forgets the tokens of every machine or unit that went Dead or away, which ends its agent's credentials. */
export function committed(db: Database, pending: readonly PendingChange[]): void {
  for (const { modelId, change } of pending)
    if ((change.kind === "machine" || change.kind === "unit") && (change.removed || change.life === Life.Dead))
      forgetAgentTokens(db, modelId, change.kind, change.entity);
}
