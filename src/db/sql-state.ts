// PostgreSQL's own code for a failure it reported (SQLSTATE), wherever a driver, Drizzle or GraphQL put it, and the
// walk down the errors a failure wraps that finds it (outage.ts walks the same way).

/** What a wrapped failure may carry, as the driver, Drizzle and GraphQL wrap them. */
export interface Wrapping {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  cause?: unknown;
  /** A GraphQL error's: what a resolver threw. */
  originalError?: unknown;
}

/** `error` and the errors it wraps (Drizzle's `cause`, a GraphQL error's `originalError`), a few deep. */
export function* causes(error: unknown): Generator<Wrapping> {
  let e = error as Wrapping | undefined;
  for (let depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    yield e;
    e = (e.originalError ?? e.cause) as Wrapping | undefined;
  }
}

/** The SQLSTATE of a failure PostgreSQL reported, on the error or one of its causes. */
export function sqlState(error: unknown): string | undefined {
  for (const e of causes(error)) if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}

/**
 * A failure as a log line wants it: the innermost cause's message (Drizzle's own repeats the statement and every
 * parameter, and hides what PostgreSQL said), with its SQLSTATE when it has one.
 */
export function failureText(error: unknown): string {
  let innermost: Wrapping | undefined;
  for (const e of causes(error)) innermost = e;
  const state = sqlState(error);
  const message = typeof innermost?.message === "string" ? innermost.message : String(error);
  return state ? `${message} (SQLSTATE ${state})` : message;
}
