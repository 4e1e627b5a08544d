// A unit agent's status (Juju's agent status: allocating, idle, executing,
// error) with the hook it is about, and `juju resolved`: what a person asks of
// an agent whose hook failed, taken when the run it allows begins. A failed
// hook stops the unit's progress until a hook commit ends the error: the
// retried hook succeeding, or the skip asked for with `resolved --no-retry`
// (hook-runs.ts).
import { unitAgentChanged } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { type AgentStatusData, ResolvedMode } from "../core/hooks.js";
import { Life } from "../core/life.js";
import { UnitAgentStatus } from "../core/machine.js";
import type { Blocker } from "./blocker.js";
import { unitAlone } from "./footprint.js";
import { unitOperation } from "./lookup.js";
import type { ModelRow, UnitRow } from "./rows.js";
import { setUnitFields } from "./unit-fields.js";
import type { InModel, Tx } from "./write/index.js";

/** What a unit agent's status says: the status, Juju's message for it, and the hook it is about. */
export interface AgentStatus {
  status: UnitAgentStatus;
  message: string;
  data: AgentStatusData;
}

/** The hook a run is about, as status data (only the fields it has). */
export const hookData = (run: { hook: string; relationId: number | null; remoteUnit: string | null }): AgentStatusData => ({
  hook: run.hook,
  ...(run.relationId !== null ? { relationId: run.relationId } : {}),
  ...(run.remoteUnit !== null ? { remoteUnit: run.remoteUnit } : {}),
});

/** Juju's words (worker/uniter/operation RunningHookMessage, uniter.go's hook failure). */
export const executing = (run: Parameters<typeof hookData>[0]): AgentStatus => ({
  status: UnitAgentStatus.Executing,
  message: `running ${run.hook} hook${run.remoteUnit ? ` for ${run.remoteUnit}` : ""}`,
  data: hookData(run),
});
export const hookFailed = (run: Parameters<typeof hookData>[0]): AgentStatus => ({
  status: UnitAgentStatus.Error,
  message: `hook failed: "${run.hook}"`,
  data: hookData(run),
});
export const idle: AgentStatus = { status: UnitAgentStatus.Idle, message: "", data: {} };

const sameData = (a: AgentStatusData, b: AgentStatusData) => JSON.stringify(hookDataOrder(a)) === JSON.stringify(hookDataOrder(b));
const hookDataOrder = (d: AgentStatusData) => [d.hook ?? null, d.relationId ?? null, d.remoteUnit ?? null];

/**
 * What setting the unit's agent status and, when given, its resolved mode changes: the fields to write (the status's
 * with its time, `since`), or null when nothing changes.
 */
export function agentChanges(unit: UnitRow, status: AgentStatus | null, resolved?: ResolvedMode | null, since = new Date()) {
  const statusChanged =
    status !== null &&
    (status.status !== unit.agentStatus || status.message !== unit.agentMessage || !sameData(status.data, unit.agentStatusData));
  const resolvedChanged = resolved !== undefined && resolved !== unit.resolved;
  if (!statusChanged && !resolvedChanged) return null;
  return {
    ...(statusChanged ? { agentStatus: status.status, agentMessage: status.message, agentStatusData: status.data, agentSince: since } : {}),
    ...(resolvedChanged ? { resolved } : {}),
  };
}

/**
 * Sets the unit's agent status and, when given, its resolved mode; records one
 * unit row carrying all of the agent's fields. Nothing is written when nothing changes.
 */
export async function updateAgent(
  tx: Tx,
  model: ModelRow,
  unit: UnitRow,
  status: AgentStatus | null,
  resolved?: ResolvedMode | null,
): Promise<UnitRow> {
  const set = agentChanges(unit, status, resolved);
  if (!set) return unit;
  const updated = setUnitFields(tx, model, unit, set);
  tx.record(model.id, unitAgentChanged(updated));
  return updated;
}

export interface UnitAgentStatusInput extends InModel {
  unit: string;
  status: UnitAgentStatus;
}

/**
 * A unit agent reports what it is doing (`allocating` until it first does).
 * An agent in error stays so: only a hook commit ends the error (resolveUnit
 * asks the agent for one), so a restarted agent reporting `idle` does not
 * hide a failed hook. Error itself comes with the failed hook (commitHook).
 */
export const setUnitAgentStatus = unitOperation(
  "any",
  async (tx, model, unit, input: UnitAgentStatusInput) => {
    if (unit.agentStatus === UnitAgentStatus.Error) return unit;
    return updateAgent(tx, model, unit, { status: input.status, message: "", data: {} });
  },
  (input) => {
    if (input.status === UnitAgentStatus.Error)
      throw new LifelineError("INVALID_ARGUMENT", "a unit agent's error status comes with its failed hook: commit the run with FAILED");
  },
  unitAlone,
);

export interface ResolveUnitInput extends InModel {
  unit: string;
  /** Run the failed hook again (the default); false marks it done without running it (`--no-retry`). */
  retry?: boolean | null;
}

/**
 * `juju resolved [--no-retry]` (Juju's Unit.Resolve and SetResolved, state/unit.go): records what the agent of a
 * unit in error is to do with its failed hook; the agent acts on it (it sees the unit row on its unitLife stream),
 * and the run it begins for it takes it (checkResolutionNamed). Refused, changing nothing: for a Dead unit (NOT_ALIVE: SetResolved asserts
 * notDead, and a Dead unit's agent runs no more hooks), for a unit whose agent is not in error (NOT_IN_ERROR), and
 * while a resolution is pending (ALREADY_RESOLVED: SetResolved asserts the mode is unset, so one asked for stands
 * until its agent acts). A Dying unit can be resolved: that is how a removal stuck on a failed hook goes on
 * (state/unit_test.go TestSetClearResolvedWhenNotAlive).
 */
export const resolveUnit = unitOperation("any", async (tx, model, unit, input: ResolveUnitInput) => {
  if (unit.life === Life.Dead)
    throw new LifelineError("NOT_ALIVE", `unit ${unit.name} is dead: its agent runs no more hooks, nothing to resolve`, {
      life: unit.life,
    });
  if (unit.agentStatus !== UnitAgentStatus.Error)
    throw new LifelineError("NOT_IN_ERROR", `unit ${unit.name}'s agent is ${unit.agentStatus}, not in error: nothing to resolve`, {
      status: unit.agentStatus,
    });
  if (unit.resolved !== null)
    throw new LifelineError(
      "ALREADY_RESOLVED",
      `unit ${unit.name} is already resolved (${unit.resolved}): its agent has yet to act on it`,
      {
        resolved: unit.resolved,
      },
    );
  return updateAgent(tx, model, unit, null, input.retry === false ? ResolvedMode.SkipHook : ResolvedMode.RetryHook);
});

/**
 * A run about to begin, against the unit's resolution. Juju's uniter clears the resolved mode as the operation it
 * allows starts (worker/uniter/resolver.go nextOpHookError: ClearResolved, then RunHook or SkipHook), and takes a
 * pending resolution before its retry timer. Here the server holds that rule, in the begin's transaction: while its
 * agent is in error, the failed hook's next run names the resolution pending (beginHook's `resolved`), if one is, and
 * only then names one; the begin takes it (its unit row says `resolved` null, with `executing`). A run naming none is
 * the retry timer's. Any other pairing begins nothing (RESOLUTION_MISMATCH): a run naming a resolution already taken
 * (its agent read a stale row of its stream: this is what makes a resolution good for one run), or a timer's run
 * while one is pending (its agent has yet to see it; it acts on it once it does). A unit not in error has none
 * pending, so a run naming one is refused the same way; a resolution allows only a run of the failed hook.
 */
export function checkResolutionNamed(unit: UnitRow, run: Parameters<typeof hookData>[0], named: ResolvedMode | null): void {
  const inError = unit.agentStatus === UnitAgentStatus.Error;
  const pending = inError ? unit.resolved : null;
  if (named !== pending) {
    const why =
      named === null
        ? `unit ${unit.name} is resolved (${pending}): the failed hook's next run acts on it, and names it`
        : pending !== null
          ? `unit ${unit.name} is resolved (${pending}), not ${named}`
          : inError
            ? `unit ${unit.name} has no resolution pending: its agent has begun the run it allowed already (one run a resolution)`
            : `unit ${unit.name}'s agent is ${unit.agentStatus}, not in error: no resolution to act on`;
    throw new LifelineError("RESOLUTION_MISMATCH", why, { resolved: pending });
  }
  if (named !== null && !sameData(hookData(run), unit.agentStatusData))
    throw new LifelineError(
      "INVALID_ARGUMENT",
      `a resolution allows a run of the failed hook only ("${unit.agentStatusData.hook ?? "unknown"}"), not of "${run.hook}"`,
      { hook: unit.agentStatusData.hook ?? null },
    );
}

/** "Why is it still here?" for a Dying unit whose hook failed: its agent has stopped, and what gets it moving. */
export function hookFailure(unit: UnitRow): Blocker | null {
  if (unit.life !== Life.Dying || unit.agentStatus !== UnitAgentStatus.Error) return null;
  const { hook, relationId, remoteUnit } = unit.agentStatusData;
  const about = [relationId !== undefined ? `relation ${relationId}` : null, remoteUnit ? `remote unit ${remoteUnit}` : null].filter(
    Boolean,
  );
  const asked =
    unit.resolved === ResolvedMode.RetryHook
      ? "; a retry was asked for (resolveUnit): waiting for its agent"
      : unit.resolved === ResolvedMode.SkipHook
        ? "; a skip was asked for (resolveUnit with retry: false): waiting for its agent"
        : "";
  return {
    kind: "hook-failed",
    message:
      `its agent stopped on a failed hook: "${hook ?? "unknown"}"${about.length ? ` (${about.join(", ")})` : ""}${asked}. ` +
      "resolveUnit runs it again, resolveUnit with retry: false skips it, removeUnit with force removes the unit anyway",
    entities: [unit.name],
  };
}
