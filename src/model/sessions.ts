// Browser sessions and the login links that begin them. `npm start` prints a login link, as Jupyter does: opened, it
// logs the browser in as an admin, with a session token in a cookie. Both live briefly, as credentials a browser
// holds should:
//
//   a login link   one at a time (each start prints one and revokes the last), opened once, within minutes;
//   a session      ends once unused for `idleMs`, and `maxMs` after its login however much it is used (Grafana's two
//                  limits), so a cookie that leaks is good for a while at most.
//
// People's tokens are noted as used, coarsely and off every request's path, so a person can tell which are in use;
// a session's end moves with it. Agents' tokens are not: they are no sessions, and there are thousands.
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { credentials } from "../db/schema.js";
import { hash, newToken } from "./secrets.js";
import { transact } from "./write/index.js";

export interface SessionLifetimes {
  /** How long a login link may be opened. */
  loginLinkMs: number;
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after its login, however much it is used. */
  maxMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every session is an admin's, so both limits are shorter than Grafana's (7 days idle, 30 in all), whose sessions are
 * mostly viewers': a browser left overnight is still logged in, one left for a weekend is not, and no cookie is good
 * for more than a week. A login link is opened right after the start that printed it; a quarter of an hour leaves
 * time for that, and one left in a terminal's scrollback or a log is dead by the time anyone reads it there.
 */
export const defaultSessionLifetimes: SessionLifetimes = { loginLinkMs: 15 * MINUTE, idleMs: 24 * HOUR, maxMs: 7 * 24 * HOUR };

type CredentialsRow = typeof credentials.$inferSelect;

/** A browser's session, including one begun before tokens kept their source (its description said what it was). */
const isSession = (row: Pick<CredentialsRow, "source" | "description">) =>
  row.source === "session" || (row.source === null && row.description === "browser session");

/** When credentials stop working: a session at its idle or its absolute end, whichever comes first; others when they expire, if they do. */
export function workingUntil(
  row: Pick<CredentialsRow, "source" | "description" | "createdAt" | "lastUsedAt" | "expiresAt">,
  lifetimes: SessionLifetimes,
): Date | null {
  if (!isSession(row)) return row.expiresAt;
  const used = (row.lastUsedAt ?? row.createdAt).getTime();
  return new Date(Math.min(row.createdAt.getTime() + lifetimes.maxMs, used + lifetimes.idleMs));
}

/** A token's use is written at most this often: a session's idle end is as coarse. */
const NOTE_USE_EVERY_MS = MINUTE;

/**
 * Notes that a person's token was used, at most once a minute (a tenth of the idle time, if that is less); a session's
 * end moves with it. Nothing waits for the write: a use it fails to note (the database out of reach) is noted at the next.
 */
export function noteUse(db: Database, row: CredentialsRow, lifetimes: SessionLifetimes, now: number): void {
  const every = Math.min(NOTE_USE_EVERY_MS, lifetimes.idleMs / 10);
  if (row.lastUsedAt && now - row.lastUsedAt.getTime() < every) return;
  const lastUsedAt = new Date(now);
  const expiresAt = isSession(row) ? workingUntil({ ...row, lastUsedAt }, lifetimes) : row.expiresAt;
  db.update(credentials)
    .set({ lastUsedAt, expiresAt })
    .where(eq(credentials.id, row.id))
    .then(undefined, () => {});
}

/**
 * Who a code printed at start is for: the browser's login link, or the `lifeline login … --code` line. Each has its
 * own, so opening the link does not spend the line printed beside it.
 */
export type LoginCodeFor = "browser" | "command line";

/**
 * A login code: the only one for its purpose (a previous start's is revoked), good once within `loginLinkMs`.
 */
export async function createLoginCode(
  db: Database,
  lifetimes = defaultSessionLifetimes,
  now = Date.now(),
  purpose: LoginCodeFor = "browser",
): Promise<string> {
  const code = newToken("login");
  const description = purpose === "browser" ? "login link printed at start" : "command line login printed at start";
  await transact(db, async (tx) => {
    // Starts that run together each print a link: only the last one's is left.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext('lifeline_login_link'))`);
    await tx.db.delete(credentials).where(and(eq(credentials.kind, "login"), eq(credentials.description, description)));
    await tx.db.insert(credentials).values({
      tokenHash: hash(code),
      kind: "login",
      description,
      createdAt: new Date(now),
      expiresAt: new Date(now + lifetimes.loginLinkMs),
    });
  });
  return code;
}

/** Ended sessions, and those begun before sessions ended (no end was ever written for them). */
const endedSessions = (at: Date) =>
  and(
    eq(credentials.kind, "person"),
    or(
      and(eq(credentials.source, "session"), lte(credentials.expiresAt, at)),
      and(isNull(credentials.source), eq(credentials.description, "browser session")),
    ),
  );

/** Opens a login link, once: a new admin session's token, or null when the code is unknown, used, revoked or expired. */
export async function redeemLoginCode(
  db: Database,
  code: string,
  lifetimes = defaultSessionLifetimes,
  now = Date.now(),
): Promise<string | null> {
  if (!code || code.length > 200) return null;
  const at = new Date(now);
  const used = await db
    .delete(credentials)
    .where(and(eq(credentials.tokenHash, hash(code)), eq(credentials.kind, "login"), gt(credentials.expiresAt, at)))
    .returning({ id: credentials.id });
  if (!used.length) return null;
  // Sessions that have ended go as a new one begins: they cannot pile up.
  await db.delete(credentials).where(endedSessions(at));
  const token = newToken("llt");
  const session = { source: "session" as const, description: "browser session", createdAt: at, lastUsedAt: at, expiresAt: null };
  await db
    .insert(credentials)
    .values({ ...session, tokenHash: hash(token), kind: "person", role: "admin", expiresAt: workingUntil(session, lifetimes) });
  return token;
}
