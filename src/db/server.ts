// How every connection Lifeline opens to a PostgreSQL server behaves when the server goes
// away: the pool's, the upkeep's, the LISTEN one and the agents' election lock. postgres.js
// replaces a lost connection by itself on its next query; these options bound how long that
// takes once the server answers again, and how long a connection attempt to a server that
// does not answer may hold a request.
//
// A connection string may name several hosts (`postgres://a:5432,b:5432/db`), as libpq's
// do, with `target_session_attrs=read-write` to pick the primary among them: after a
// failover, connections are made to whichever host is the primary then. As patched
// (patches/postgres+3.4.9.patch), postgres.js does that as libpq does: a hot standby is
// never taken for the primary, and once every host has been tried for a query (none
// answering, or none read-write: the primary gone, its standby not yet promoted), the
// query fails as an outage instead of waiting while the connection goes round them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";

/**
 * Seconds between attempts to reconnect after failed ones: postgres.js grows the wait as 3^n/100 s, up to 20 s by
 * default, which after a restart of a few seconds left requests waiting that long for a server that was back.
 * Capped at 1 s, jittered so a pool's connections do not come back in lockstep.
 */
export const reconnectBackoff = (retries: number) => (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, 1);

/** What every Lifeline connection is opened with, beside its own options. */
export const resilient = {
  backoff: reconnectBackoff,
  // A host that does not answer (down, or a failover's old primary) fails the attempt after this, not postgres.js's 30 s.
  connect_timeout: 10,
  // TCP keepalive from 10 s idle (postgres.js: 60 s), so a server that vanished without a word is noticed sooner.
  keep_alive: 10,
  onnotice: () => {},
} satisfies postgres.Options<Record<string, postgres.PostgresType>>;

/**
 * A connection string as postgres.js is given it, and the options every Lifeline connection opens with. libpq's `host`
 * parameter (`postgres:///lifeline?host=/var/run/postgresql`: a Unix socket's directory, or a host name) becomes the
 * driver's `host` option: postgres.js would send it to the server as a setting, which refuses it.
 */
export function driverConnection(url: string): { url: string; options: typeof resilient & { host?: string } } {
  const { url: rest, value: host } = takeParameter(url, "host");
  return { url: rest, options: host ? { ...resilient, host } : resilient };
}

/** The hosts part of a connection string, which may list several (`a:5432,b:5433`) and so is not a WHATWG URL host. */
function hostsOf(url: string): { start: number; end: number } {
  const afterScheme = url.indexOf("://") + 3;
  const end = afterScheme + url.slice(afterScheme).search(/[/?]|$/);
  const at = url.lastIndexOf("@", end);
  return { start: at >= afterScheme ? at + 1 : afterScheme, end };
}

/** Where a connection string points, for log lines: its hosts and database, never its credentials. */
export function describeServer(url: string): string {
  const { start, end } = hostsOf(url);
  const path = url.slice(end).split("?")[0] ?? "";
  return `postgres://${url.slice(start, end)}${path}`;
}

/**
 * Whether postgres.js can read a connection string: a PostgreSQL scheme, and with only the first of its hosts a WHATWG
 * URL, as the driver parses it (`postgres://user@/db`, a user with no host, is not one; `postgres:///db` is, localhost).
 */
export function driverReads(url: string): boolean {
  if (!/^postgres(?:ql)?:\/\//.test(url)) return false;
  const { start, end } = hostsOf(url);
  return URL.canParse(url.slice(0, start) + url.slice(start, end).split(",")[0] + url.slice(end));
}

/** The connection string with its password, if it has one, shown as ***: for a message that quotes it. */
export function withoutPassword(url: string): string {
  const { start } = hostsOf(url);
  const colon = url.indexOf(":", url.indexOf("://") + 3);
  return colon !== -1 && colon < start - 1 ? `${url.slice(0, colon + 1)}***${url.slice(start - 1)}` : url;
}

/** The connection string with one query parameter removed, and that parameter's value. */
export function takeParameter(url: string, name: string): { url: string; value: string | null } {
  const q = url.indexOf("?");
  if (q === -1) return { url, value: null };
  const params = new URLSearchParams(url.slice(q + 1));
  const value = params.get(name);
  params.delete(name);
  const rest = params.toString();
  return { url: rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q), value };
}

/**
 * Whether the installed postgres.js carries Lifeline's patch (patches/, applied by patch-package on `npm install`):
 * without it a lost connection can end the process. An install that skipped the project's own scripts lacks it.
 */
export function driverPatched(): boolean {
  try {
    const connection = fileURLToPath(new URL("./connection.js", import.meta.resolve("postgres")));
    return readFileSync(connection, "utf8").includes("lifeline:");
  } catch {
    return false;
  }
}
