// PostgreSQL's own code for a failure it reported (SQLSTATE), wherever a driver or Drizzle put it.

/** The SQLSTATE of a failure PostgreSQL reported, on the error or one of its causes. */
export function sqlState(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}
