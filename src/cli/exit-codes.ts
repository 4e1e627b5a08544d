// What `lifeline` exits with, for scripts (documented in --help and the README).
export const ExitCode = {
  ok: 0,
  /** The API refused the request (a GraphQL error with its code). */
  refused: 1,
  /** The command line was wrong, or there is no server to talk to. */
  usage: 2,
  /** The server could not be reached. */
  unreachable: 3,
  /** What `wait-for` (or `destroy-model`) waited for did not happen: it timed out, or the entity was removed. */
  notMet: 4,
} as const;

export const exitCodesHelp = `Exit codes:
  0  done
  1  refused by the API (its code and message are printed)
  2  usage error (unknown command or option, missing argument, no server configured)
  3  cannot reach the server
  4  timed out waiting (wait-for, destroy-model), or what was waited for was removed: what was seen last is printed`;

/** A mistake on the command line: exit 2. */
export class UsageError extends Error {}

/** A wait that ended without its condition: exit 4, with what was seen (`details`, one line each). */
export class NotMet extends Error {
  constructor(
    readonly code: "TIMED_OUT" | "REMOVED",
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}
