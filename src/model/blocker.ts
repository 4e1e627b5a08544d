// "Why is it still here?" What keeps an entity that is not Alive from going
// away, in words a person can act on (Juju's most common complaint is entities
// stuck Dying with no explanation). A Hold is a blocker that is also an
// operation's precondition: the operation refuses with its code while it holds,
// and the entity's blockers list it, from the same check.
import { type ErrorCode, LifelineError } from "../core/errors.js";

export type BlockerKind =
  | "in-scope"
  | "units-in-scope"
  | "subordinates"
  | "assigned-units"
  | "containers"
  | "units"
  | "relations"
  | "applications"
  | "machines"
  | "pending-cleanup"
  | "hook-failed"
  | "agent-lost"
  | "agent";

export interface Blocker {
  kind: BlockerKind;
  message: string;
  /** The ids of what holds it (the first 20, when there are more). */
  entities: string[];
}

export interface Hold extends Blocker {
  /** The refusal an operation gives while this holds. */
  code: ErrorCode;
  /** Why, as the end of the refusal "cannot <verb>: <reason>". */
  reason: string;
  details: Record<string, unknown>;
}

/** The refusal for an operation ("remove machine 1") that `hold` stops. */
export const refusal = (hold: Hold, verb: string) => new LifelineError(hold.code, `cannot ${verb}: ${hold.reason}`, hold.details);

/** Blockers shown per entity: the first this many ids. */
export const SHOWN = 20;

/** "a, b, c" (and "and N more" when only some of `total` are listed). */
export const listed = (names: string[], total = names.length) =>
  names.join(", ") + (total > names.length ? ` and ${total - names.length} more` : "");
