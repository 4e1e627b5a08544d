// PostgreSQL's own code for a failure it reported (SQLSTATE), wherever a driver or Drizzle put it.

/** The SQLSTATE of a failure PostgreSQL reported, on the error or one of its causes. */
export function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * A failure as a log line wants it: the innermost cause's message (Drizzle's own repeats the statement and every
 * parameter, and hides what PostgreSQL said), with its SQLSTATE when it has one.
 */
export function failureText(error: unknown): string {
  let e = error as { message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e?.cause && typeof e.cause === "object" && depth < 8; depth++) e = e.cause as typeof e;
  const state = sqlState(error);
  const message = typeof e?.message === "string" ? e.message : String(error);
  return state ? `${message} (SQLSTATE ${state})` : message;
}
