// What a unit agent knows that its streams do not say, or do not say yet (Juju's
// uniter keeps the same split: the remote-state snapshot its watchers build, and
// the local state its operations write). Its progress is the part kept on the
// server, so an agent redeployed with nothing local resumes exactly; the rest is
// what the agent learns of itself before its own stream brings it back, each
// field named for what it is and why the stream is not enough.
import type { UnitInfoFieldsFragment } from "../../client/graphql.js";
import { type FailureNow, freshProgress, type StoredProgress } from "./resolver.js";
import type { HookRetry } from "./retry.js";

export class LocalState {
  /**
   * It committed its pending hook FAILED, and has committed nothing since: it is in error whether or not its own
   * stream has said so yet. A pass that ran before the stream delivered `error` would take the failed hook for one
   * begun and never committed (what a restart leaves) and run it again at once (seen in CI, with automatic retries off).
   */
  pendingFailed = false;

  /**
   * It set its unit Dying (a subordinate cut off from its principal) and its stream may still say Alive: a pass woken
   * by another change meanwhile would send it again. Life only moves on, so it is never unset.
   */
  dyingSent = false;

  constructor(
    /** Its progress as the server keeps it: every begin and commit sends it (Juju's uniter state). */
    public progress: StoredProgress,
    /**
     * Its unit's agent still shows `allocating`, the status a unit has until its agent first reports (as start() read
     * it). The first hook call ends it (executing, or idle once hooks the charm does not ship are passed), as Juju's
     * uniter goes from allocating to running its install hook; only a pass with no hook to run reports idle by itself.
     */
    public allocating: boolean,
    /** The automatic retry of the failed hook it is in (retry.ts). */
    readonly retry: HookRetry,
  ) {}

  /** What the resolver needs to know of a failure: its unit's row (from its stream), and what the agent knows ahead of it. */
  failureNow(unit: UnitInfoFieldsFragment): FailureNow {
    return {
      inError: unit.agentStatus?.current === "error",
      resolved: unit.resolved,
      pendingFailed: this.pendingFailed,
      retryDue: this.retry.step === "due",
    };
  }

  /** The server began a run (beginHook) with this progress, its hook pending; what allowed a run of the failed hook is spent. */
  begun(progress: StoredProgress, by?: "resolution" | "timer"): void {
    this.progress = progress;
    if (by) this.retry.take(by);
  }

  /** The run was committed FAILED (its progress stays as begun): in error, by its own knowledge. */
  failed(): void {
    this.pendingFailed = true;
    this.retry.failedAgain();
  }

  /** Hooks committed succeeded or skipped, or passed missing: the progress moves on; out of error, the retry starts over. */
  committed(progress: StoredProgress): void {
    this.progress = progress;
    this.retry.reset();
    this.pendingFailed = false;
  }
}

/**
 * The progress an agent starts from: the state document the server kept (JSON the agent itself wrote, empty for a new
 * unit), with an empty entry for each scope the server says the unit is in that the document lacks.
 */
export function progressFrom(
  document: Record<string, unknown> | null | undefined,
  relationsInScope: readonly number[],
  endpointOf: (relation: number) => string,
): StoredProgress {
  const stored = document as Partial<StoredProgress> | null | undefined; // the agent's own document, as it wrote it
  const progress: StoredProgress = { ...freshProgress(), pending: null, ...stored, relations: { ...stored?.relations } };
  for (const id of relationsInScope) {
    const key = String(id);
    if (progress.relations[key]) continue;
    progress.relations[key] = { endpoint: endpointOf(id), members: {}, changedPending: null };
  }
  return progress;
}
