// What `lifeline` exits with, for scripts (documented in --help and the README).
export const ExitCode = {
  ok: 0,
  /** The API refused the request (a GraphQL error with its code). */
  refused: 1,
  /** The command line was wrong, or there is no server to talk to. */
  usage: 2,
  /** The server could not be reached. */
  unreachable: 3,
} as const;

export const exitCodesHelp = `Exit codes:
  0  done
  1  refused by the API (its code and message are printed)
  2  usage error (unknown command or option, missing argument, no server configured)
  3  cannot reach the server`;

/** A mistake on the command line: exit 2. */
export class UsageError extends Error {}
