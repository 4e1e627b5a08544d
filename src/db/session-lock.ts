// A PostgreSQL session-level advisory lock on a connection of its own. The
// server releases such a lock when its session ends, however it ends (the
// process exits or is killed, the connection drops), which is what makes it
// fit for electing one process among several: whoever holds it leads, and a
// leader that dies frees it without anyone's help. The connection is kept out
// of the pool so that no other statement can end or reuse the session.
import { hostname } from "node:os";
import postgres from "postgres";
import { driverConnection, takeParameter } from "./server.js";

/** The two-int form of an advisory key (pg_locks shows it as classid, objid, objsubid 2); both non-negative. */
export type AdvisoryKey = readonly [number, number];

export interface SessionLockOptions {
  /** Called once when the connection holding the lock closes: the lock is gone with its session. */
  onLost?: () => void;
  /** Shown in pg_stat_activity for this session, so other processes can say who holds the lock. */
  purpose: string;
}

export class SessionLock {
  readonly #sql: postgres.Sql;
  readonly #key: AdvisoryKey;
  #held = false;
  #closing = false;

  constructor(url: string, key: AdvisoryKey, options: SessionLockOptions) {
    this.#key = key;
    // The url's application_name would override ours (postgres.js lets the url win); keep it as a prefix instead.
    const { url: rest, value: prefix } = takeParameter(url, "application_name");
    const driver = driverConnection(rest);
    this.#sql = postgres(driver.url, {
      ...driver.options,
      max: 1,
      // postgres.js recycles connections after 30 to 60 minutes by default, which would drop the lock; 0 never does.
      max_lifetime: 0,
      connection: { application_name: `${prefix ?? "lifeline"} ${options.purpose} ${hostname()} pid ${process.pid}`.slice(0, 63) },
      onclose: () => {
        if (!this.#held || this.#closing) return;
        this.#held = false;
        options.onLost?.();
      },
    });
  }

  /** Takes the lock if no other session holds it; true when this session holds it now. */
  async tryAcquire(): Promise<boolean> {
    if (this.#held) return true;
    const [row] = await this.#sql<{ taken: boolean }[]>`select pg_try_advisory_lock(${this.#key[0]}::int, ${this.#key[1]}::int) as taken`;
    this.#held = !!row?.taken;
    return this.#held;
  }

  /**
   * Whether this session still holds the lock, asked of the server: a connection that dropped and came back
   * (postgres.js reconnects by itself) is a new session, which holds nothing.
   */
  async held(): Promise<boolean> {
    if (!this.#held) return false;
    const [row] = await this.#sql<{ held: boolean }[]>`
      select exists (select 1 from pg_locks where locktype = 'advisory' and granted and pid = pg_backend_pid()
        and classid = ${this.#key[0]}::int::oid and objid = ${this.#key[1]}::int::oid and objsubid = 2) as held`;
    this.#held = !!row?.held;
    return this.#held;
  }

  /** Who holds the lock (their session's application_name), or null when nobody does. */
  async holder(): Promise<string | null> {
    const [row] = await this.#sql<{ name: string }[]>`
      select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and l.classid = ${this.#key[0]}::int::oid
        and l.objid = ${this.#key[1]}::int::oid and l.objsubid = 2 and l.database = (select oid from pg_database where datname = current_database())`;
    return row?.name ?? null;
  }

  /** Gives the lock up, keeping the connection for a later try. */
  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    await this.#sql`select pg_advisory_unlock(${this.#key[0]}::int, ${this.#key[1]}::int)`;
  }

  /** Ends the session, and with it the lock. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#held = false;
    await this.#sql.end({ timeout: 5 });
  }
}
