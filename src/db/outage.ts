// When the database is out of reach: a connection terminated, reset or refused, the server
// restarting or shutting down, a standby that cannot take writes. These are not bugs in a
// request and not refusals of it: the client is told UNAVAILABLE, that it may retry, and
// (for a write whose COMMIT was already on its way) that nobody knows whether it committed.
import { LifelineError } from "../core/errors.js";
import { causes, type Wrapping } from "./sql-state.js";

/** postgres.js's own codes for a connection it lost or could not make. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT"]);

/** The operating system's, for a socket that broke or never connected. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/**
 * PostgreSQL's: connection exceptions (class 08), the server shutting down, crashing or
 * starting (57P01-57P03), and a write sent to a server in recovery (25006, read_only_sql_transaction: after
 * a failover, a connection that reached the old primary now a standby, or the standby before its promotion).
 */
const outageState = (state: string) => state.startsWith("08") || /^57P0[123]$/.test(state) || state === "25006";

/** The code an error itself carries (not one it wraps): the driver's, the system's, or PostgreSQL's SQLSTATE. */
const codeOf = (e: Wrapping) => (typeof e.code === "string" ? e.code : typeof e.errno === "string" ? e.errno : undefined);

const outageCode = (code: string | undefined) =>
  code !== undefined && (DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && outageState(code)));

/** Whether `error` (or an error it wraps) says the database is out of reach rather than refusing the request. */
export function isOutage(error: unknown): boolean {
  return [...causes(error)].some((e) => e instanceof CommitInDoubt || outageCode(codeOf(e)));
}

/** The failures of a connection that was never made: whatever was to be sent on it was not. */
const NOT_CONNECTED = new Set(["CONNECT_TIMEOUT", "ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/** Whether `error` says the connection a statement was to go on was never made (so the statement never reached the server). */
export function neverConnected(error: unknown): boolean {
  return [...causes(error)].some((e) => NOT_CONNECTED.has(codeOf(e) ?? ""));
}

/** How often a process says the database is out of reach, at most: during an outage every request and read fails alike. */
export const OUTAGE_REPORT_MS = 5000;

/** The outage's cause in a few words (the driver's or the system's code and message), for a log line. */
export function outageCause(error: unknown): string {
  const coded = [...causes(error)].find((e) => outageCode(codeOf(e)));
  if (coded) return `${codeOf(coded)}: ${(coded as { message?: string }).message ?? ""}`.trim();
  return error instanceof Error ? error.message : String(error);
}

/**
 * What a part of the process (the API, the change feed, the election, presence) says of an outage: `say` gets its
 * cause at most once every OUTAGE_REPORT_MS, since while it lasts every request and read fails alike.
 */
export function outageReporter(say: (cause: string) => void): (error: unknown) => void {
  let saidAt = Number.NEGATIVE_INFINITY;
  return (error) => {
    if (Date.now() - saidAt < OUTAGE_REPORT_MS) return;
    saidAt = Date.now();
    say(outageCause(error));
  };
}

/** A write's connection was lost after its COMMIT had been sent: it may have committed or not. */
export class CommitInDoubt extends Error {
  constructor(cause: unknown) {
    super("the database connection was lost while the write's COMMIT was on its way", { cause });
    this.name = "CommitInDoubt";
  }
}

/** The refusal a client gets for an outage, or undefined when `error` is not one. */
export function unavailable(error: unknown): LifelineError | undefined {
  if (!isOutage(error)) return undefined;
  const inDoubt = [...causes(error)].some((e) => e instanceof CommitInDoubt);
  return new LifelineError(
    "UNAVAILABLE",
    inDoubt
      ? "the database connection was lost while this write was committing: it may have taken effect; read before retrying it"
      : "the database is unavailable (its connection was lost or refused); nothing was changed: retry shortly",
    inDoubt ? { retryable: true, committed: "unknown" } : { retryable: true },
  );
}
