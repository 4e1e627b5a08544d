// How a failed command reads on stderr, and what it exits with.

import { Refusal, Unreachable } from "./api.js";
import { ExitCode, NotMet, UsageError } from "./exit-codes.js";

/** What to do next, for the refusals where the fix is not in the message. */
const hints: Record<string, (refusal: Refusal) => string> = {
  HAS_UNITS: () => "or repeat with --force to remove its units with it",
  HAS_CONTAINERS: () => "or repeat with --force to remove its containers with it",
  AMBIGUOUS_RELATION: () => "name the endpoints: lifeline integrate <app>:<endpoint> <app>:<endpoint>",
  UNAUTHENTICATED: () => "run `lifeline login <url> --token <token>` (or --code from the login link npm start prints)",
  FORBIDDEN: () => "your token's role or models do not reach this: ask an admin for one that does",
  NOT_IN_ERROR: (refusal) =>
    refusal.message.startsWith("machine")
      ? "only a machine whose provisioning failed (status error) can be resolved: lifeline show-machine says why it is not"
      : "only a unit whose hook failed (agent status error) can be resolved",
  NOT_FOUND: (refusal) => {
    const kind = refusal.extensions.kind;
    if (kind === "model") return "lifeline models lists the models your token reaches (-m picks one)";
    if (kind === "unit" || kind === "machine" || kind === "application")
      return `lifeline status lists the model's ${kind}s (-m picks the model: default unless given)`;
    return "";
  },
  INVALID_CONSTRAINTS: () => "constraints are key=value words, as Juju's: mem=2G cores=2 arch=amd64 root-disk=16G tags=ssd",
  INVALID_ARGUMENT: (refusal) =>
    typeof refusal.extensions.key === "string" ? "lifeline config <application> lists its options, their types and defaults" : "",
  ALREADY_RESOLVED: () => "its agent has not yet acted on the last `lifeline resolved`",
};

/** Prints the error and returns the exit code. */
export function reportFailure(error: unknown, write: (line: string) => void = (line) => console.error(line)): number {
  if (error instanceof Refusal) {
    write(`ERROR ${error.code}: ${error.message}`);
    const hint = hints[error.code]?.(error);
    if (hint) write(`hint: ${hint}`);
    return ExitCode.refused;
  }
  if (error instanceof Unreachable) {
    write(`ERROR ${error.message}`);
    return ExitCode.unreachable;
  }
  if (error instanceof NotMet) {
    write(`ERROR ${error.code}: ${error.message}`);
    for (const line of error.details) write(`  ${line}`);
    return ExitCode.notMet;
  }
  if (error instanceof UsageError) {
    write(`error: ${error.message}`);
    return ExitCode.usage;
  }
  write(`ERROR ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return ExitCode.refused;
}
