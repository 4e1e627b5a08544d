// Hook runs: a unit agent begins each hook before running it and commits it
// after (Juju's uniter records a hook as pending, then done: operation/state.go),
// so the server knows what every unit did and where each agent got to. A
// commit is one transaction: the run's end, the hook's relation-set writes
// (only if it succeeded), the agent's status and its state document.
import { and, eq, isNull, type Placeholder, sql } from "drizzle-orm";
import { hookRunRecorded } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { HookResult, type ResolvedMode } from "../core/hooks.js";
import { Life } from "../core/life.js";
import { applicationOfUnit } from "../core/unit-name.js";
import { hookRuns, relationEndpoints, relationScopes, relations } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { type CheckedAgentState, checkAgentState, saveAgentState } from "./agent-state.js";
import { checkResolutionNamed, executing, hookFailed, idle, updateAgent } from "./agent-status.js";
import { entity, type Footprint, touching } from "./footprint.js";
import { hookHistoryPerUnit } from "./hook-history-bounds.js";
import { parseHookName } from "./hook-names.js";
import { applySettingsWrites, type SettingsWrite } from "./hook-settings.js";
import { unitOperationReading } from "./lookup.js";
import { parseUnitName } from "./names.js";
import type { HookRunRow, ModelRow, UnitRow } from "./rows.js";
import { ScopeLeavings, type ScopeToLeave } from "./scope.js";
import { nextSerials } from "./sequences.js";
import { charmsOfUnits } from "./unit-agent-reads.js";
import { type CharmHooks, charmHooksOf, charmHooksRead, knowsCharmOf } from "./unit-charms.js";
import type { InModel, Tx } from "./write/index.js";

/**
 * Runs kept per unit name, newest first, its removed units' included; older ones are deleted as new ones begin (the
 * change log keeps them while it retains). LIFELINE_HOOK_HISTORY_PER_UNIT sets it (hook-history.ts).
 */
export const HOOK_RUNS_KEPT = hookHistoryPerUnit();

/** The longest message a commit keeps. */
const MESSAGE_LIMIT = 1000;

/** Runs of the unit as it lives now: a removed unit's of the same name are history (retire-hook-runs.ts). */
const ofLiveUnit = (modelId: Placeholder, unit: Placeholder) =>
  and(eq(hookRuns.modelId, modelId), eq(hookRuns.unit, unit), isNull(hookRuns.unitRemovedAt));

/** The units' runs still `running`: a new run ends them `interrupted` (their agent restarted mid-hook). */
export const runningRunsOfUnits = statement(["modelId", "units"], (db, p) =>
  db
    .select()
    .from(hookRuns)
    .where(
      and(
        eq(hookRuns.modelId, p.modelId),
        sql`${hookRuns.unit} = any(${p.units}::text[])`,
        isNull(hookRuns.unitRemovedAt),
        eq(hookRuns.result, HookResult.Running),
      ),
    ),
);

/** Relations (by id), if they exist, each with the endpoint of each of `applications` in it (a row with none when none is). */
export const endpointsOfApplications = statement(["modelId", "relations", "applications"], (db, p) =>
  db
    .select({ relation: relations.id, application: relationEndpoints.application, endpoint: relationEndpoints.name })
    .from(relations)
    .leftJoin(
      relationEndpoints,
      and(
        eq(relationEndpoints.modelId, relations.modelId),
        eq(relationEndpoints.relationId, relations.id),
        sql`${relationEndpoints.application} = any(${p.applications}::text[])`,
      ),
    )
    .where(and(eq(relations.modelId, p.modelId), sql`${relations.id} = any(${p.relations}::int[])`)),
);

/** What a hook operation reads with the model's lock, beside the unit. */
interface HookReads {
  charm: CharmHooks;
  /** The unit's runs still running, as the new run will leave them (ended `interrupted`). */
  interrupted: HookRunRow[];
  /** An id for each run the operation records, in order, and the transaction's time. */
  ids: number[];
  now: Date;
  /** The relations the input names, each with the unit's application's endpoint in it; a relation gone is absent. */
  relations: Map<number, string | null>;
}

export const INTERRUPTED_MESSAGE = "interrupted: its agent began another hook before committing this one";

/** Relation ids an input names that can be looked up (a malformed one is refused by the checks, in their order). */
export const relationIdsNamed = (targets: readonly HookTarget[]) => [
  ...new Set(targets.map((t) => t.relation).filter((r): r is number => Number.isInteger(r) && r! >= 0 && r! <= 2 ** 31 - 1)),
];

/**
 * A unit agent's operation on its hooks. Everything its checks and its change rows need is read with the model's
 * lock, in one round trip: the unit, its charm, its running runs, the new runs' ids and the relations it names. So the
 * writes go out together with the COMMIT, their answers unawaited (the lock keeps other writers off the unit's runs).
 * Its footprint (footprint.ts): the unit's runs, agent status and state are its own; of each relation it names, the
 * row and endpoints are read. One that leaves the scope of a -broken hook takes one from the relation's member count
 * too, as leaveScope does (the last member of a Dying relation, which removes it, takes a turn alone).
 */
function hookOperation<I extends InModel & { unit: string }, R>(
  targets: (input: I) => readonly HookTarget[],
  body: (tx: Tx, model: ModelRow, unit: UnitRow, reads: HookReads, input: I) => Promise<R>,
  check?: (input: I) => void,
) {
  const footprint = (input: I): Footprint => {
    return touching(
      [entity.unit(input.unit), "write"],
      ...relationIdsNamed(targets(input)).map((id) => [entity.relation(id), "read"] as const),
    );
  };

  return unitOperationReading(
    "any",
    (tx, model, input: I) => {
      const named = targets(input);
      const relationIds = relationIdsNamed(named);
      const application = applicationOfUnit(input.unit);
      return Promise.all([
        // The charm as this process knows it, else read: it needs no earlier read, so it goes with the unit's.
        knowsCharmOf(model.id, input.unit) ? undefined : charmsOfUnits(tx.db, { modelId: model.id, names: [input.unit] }),
        runningRunsOfUnits(tx.db, { modelId: model.id, units: [input.unit] }),
        // Ids for the runs it records, with the time their rows take (nextSerials).
        nextSerials(tx, "hook_runs", "id", Math.max(1, named.length)),
        relationIds.length
          ? endpointsOfApplications(tx.db, { modelId: model.id, relations: relationIds, applications: [application] })
          : [],
      ]);
    },
    async (tx, model, unit, input, [charmRead, running, ids, named]) => {
      const now = ids[0]!.now;
      // Remembered for another unit of that name (never, in practice): read now.
      const charm =
        charmHooksOf(unit) ??
        charmHooksRead(unit, (charmRead ?? (await charmsOfUnits(tx.db, { modelId: model.id, names: [input.unit] })))[0]!.charm);
      return body(
        tx,
        model,
        unit,
        {
          charm,
          interrupted: running.map((run) => interruptedAt(run, now)),
          ids: ids.map((r) => r.value),
          now,
          relations: new Map(named.map((r) => [r.relation, r.endpoint])),
        },
        input,
      );
    },
    check,
    footprint,
  );
}

/** A hook as an agent names it: which, and for relation hooks the relation and remote unit. */
export interface HookTarget {
  hook: string;
  /** For relation hooks: the relation's id. */
  relation?: number | null;
  /** For -joined, -changed and -departed: the unit the hook is about. */
  remoteUnit?: string | null;
}

/** A relation hook names a relation of its endpoint; a unit hook names none. A relation already gone is taken on trust (-departed and -broken run after a forced removal). */
export function checkHookTarget(
  relationsRead: ReadonlyMap<number, string | null>,
  unit: UnitRow,
  input: HookTarget,
  endpoint: string | undefined,
  kind?: string,
  /** The relation is known to be the unit's, on this endpoint (checked for an earlier hook of the same call). */
  relationChecked = false,
) {
  const { relation, remoteUnit } = input;
  if (!endpoint) {
    if (relation != null || remoteUnit != null)
      throw new LifelineError("INVALID_ARGUMENT", `hook "${input.hook}" is not a relation hook: it has no relation or remote unit`);
    return;
  }
  if (relation == null) throw new LifelineError("INVALID_ARGUMENT", `relation hook "${input.hook}" needs its relation's id`);
  if (!Number.isInteger(relation) || relation < 0)
    throw new LifelineError("INVALID_ID", `invalid relation id ${relation}: expected a non-negative integer`);
  if (remoteUnit != null) {
    parseUnitName(remoteUnit);
    if (kind === "broken") throw new LifelineError("INVALID_ARGUMENT", `"${input.hook}" is about the relation, not a remote unit`);
  }
  if (relationChecked || !relationsRead.has(relation)) return;
  const endpointOfUnit = relationsRead.get(relation);
  const own = endpointOfUnit == null ? undefined : { name: endpointOfUnit };
  if (own?.name !== endpoint)
    throw new LifelineError(
      "INVALID_ARGUMENT",
      own
        ? `relation ${relation} is ${unit.application}'s "${own.name}" relation, not "${endpoint}": hook "${input.hook}" does not run for it`
        : `${unit.application} is not in relation ${relation}`,
      { relation },
    );
}

const runKeys = ["id", "modelId", "unit", "hook", "relationId", "remoteUnit"] as const;

/** A run begun: `running` until the agent commits it. */
const insertRunningHookRun = statement(runKeys, (db, p) =>
  db
    .insert(hookRuns)
    .values({ id: p.id, modelId: p.modelId, unit: p.unit, hook: p.hook, relationId: p.relationId, remoteUnit: p.remoteUnit }),
);

/** A new run's row, as its insert writes it: its id read ahead, begun at the transaction's time. */
function newRun(unit: UnitRow, id: number, now: Date, run: Pick<HookRunRow, "hook" | "relationId" | "remoteUnit">): HookRunRow {
  return {
    id,
    modelId: unit.modelId,
    unit: unit.name,
    ...run,
    result: HookResult.Running,
    message: "",
    startedAt: now,
    endedAt: null,
    unitRemovedAt: null,
    logLines: 0,
  };
}

/** A run its agent never committed, as its interruption at `now` leaves it (interruptRunsOf writes it so). */
export const interruptedAt = (run: HookRunRow, now: Date): HookRunRow => ({
  ...run,
  result: HookResult.Interrupted,
  message: INTERRUPTED_MESSAGE,
  endedAt: now,
});

/** Runs their agents never committed (read with the lock): each restarted mid-hook and began again. */
export const interruptRunsOf = statement(["ids"], (db, p) =>
  db
    .update(hookRuns)
    .set({ result: HookResult.Interrupted, message: INTERRUPTED_MESSAGE, endedAt: sql`now()` })
    .where(sql`${hookRuns.id} = any(${p.ids}::bigint[])`),
);

/** Ends the unit's running runs (read with the lock: `reads.interrupted`) and records them, without waiting. */
function interruptRunning(tx: Tx, model: ModelRow, reads: HookReads): void {
  if (reads.interrupted.length === 0) return;
  tx.defer(interruptRunsOf(tx.db, { ids: reads.interrupted.map((r) => r.id) }));
  for (const run of reads.interrupted) tx.record(model.id, hookRunRecorded(run));
}

/** Keeps each unit name's latest HOOK_RUNS_KEPT runs (its removed units' among them: one bound per name). */
const pruneRunsOf = statement(["modelId", "units"], (db, p) =>
  db.delete(hookRuns).where(
    and(
      eq(hookRuns.modelId, p.modelId),
      sql`${hookRuns.id} in (
        select old.id from (
          select h.id, row_number() over (partition by h.unit order by h.id desc) as n
          from ${hookRuns} h where h.model_id = ${p.modelId} and h.unit = any(${p.units}::text[])
        ) old where old.n > ${HOOK_RUNS_KEPT})`,
    ),
  ),
);

/** Prunes the units' runs, sent with the next statement: nothing waits for the answer. */
export function prune(tx: Tx, model: ModelRow, units: readonly string[]): void {
  tx.defer(pruneRunsOf(tx.db, { modelId: model.id, units }));
}

export interface BeginHookInput extends InModel, HookTarget {
  unit: string;
  /** The resolution this run acts on, as the unit showed it pending; none for any other run (checkResolutionNamed). */
  resolved?: ResolvedMode | null;
  /** The agent's state document, saved with the run (unchanged when omitted). */
  state?: Record<string, unknown> | null;
}

/**
 * The agent is about to run a hook: the run is recorded `running`, the agent
 * status becomes `executing`, and its state document is saved. A run of the
 * unit still running is ended `interrupted` (its agent restarted mid-hook).
 * A run of a failed hook names the resolution pending, if any, and takes it
 * (checkResolutionNamed: RESOLUTION_MISMATCH otherwise, nothing begun).
 * Refused for a hook the unit's charm cannot have, and for a Dead unit.
 */
export const beginHook = hookOperation(
  (input: BeginHookInput) => [input],
  async (tx, model, unit, reads, input: BeginHookInput): Promise<HookRunRow> => {
    const { charm, endpoints } = reads.charm;
    if (unit.life === Life.Dead)
      throw new LifelineError("NOT_ALIVE", `unit ${unit.name} is dead: its agent runs no more hooks`, { life: unit.life });
    const parsed = parseHookName(input.hook, endpoints, charm);
    checkHookTarget(reads.relations, unit, input, parsed.relation?.endpoint, parsed.relation?.kind);
    const state = input.state == null ? null : checkAgentState(input.state);
    const run = newRun(unit, reads.ids[0]!, reads.now, {
      hook: parsed.name,
      relationId: parsed.relation ? input.relation! : null,
      remoteUnit: parsed.relation ? (input.remoteUnit ?? null) : null,
    });
    checkResolutionNamed(unit, run, input.resolved ?? null);

    // Sent together with the COMMIT: the interrupted runs' end, the new run, the prune. Their changes are recorded in that order.
    interruptRunning(tx, model, reads);
    tx.defer(insertRunningHookRun(tx.db, run));
    prune(tx, model, [unit.name]);
    tx.record(model.id, hookRunRecorded(run));
    // The resolution it acts on, if any, is taken: Juju's ClearResolved as the resolved operation starts.
    await updateAgent(tx, model, unit, executing(run), null);
    if (state) saveAgentState(tx, model, unit.name, state);
    return run;
  },
);

/**
 * Juju's relationer commits -broken by leaving the relation's scope: so does the commit (succeeded or skipped) or the
 * record of a missing -broken, in the same transaction, so no crash falls between the hook and the leaving. A unit
 * already out of the scope (an agent that left first) changes nothing.
 */
export function leaveBrokenScopes(
  leavings: ScopeLeavings,
  unit: string,
  runs: readonly Pick<HookRunRow, "hook" | "relationId">[],
  /** What each leaving decides on, by relation, read with the lock: so its writes go with the COMMIT. */
  scopes: ReadonlyMap<number, ScopeToLeave>,
): void {
  const left = new Set<number>();
  for (const { relationId, hook } of runs) {
    if (relationId === null || !hook.endsWith("-relation-broken") || left.has(relationId)) continue;
    left.add(relationId);
    const { member, relation } = scopes.get(relationId) ?? {};
    if (relation) leavings.leave(unit, { member, relation }); // a relation gone took its memberships with it
  }
}

/** How the agent ends a run. */
export type HookCommitResult = typeof HookResult.Succeeded | typeof HookResult.Failed | typeof HookResult.Skipped;

export interface CommitHookInput extends InModel {
  unit: string;
  /** The run's id, as beginHook returned it. */
  run: string;
  result: HookCommitResult;
  message?: string | null;
  /** The hook's relation-set writes: applied only when it succeeded. */
  settings?: readonly SettingsWrite[] | null;
  state?: Record<string, unknown> | null;
}

/**
 * A run of the unit, by its id (parsed): it needs no earlier read, so it goes with the unit's. With the transaction's
 * `now()`, the time a commit ends it at, and the scope a -broken hook's commit leaves (ScopeToLeave: the unit's
 * membership of the run's relation, and the relation).
 */
const runOfUnit = statement(["modelId", "unit", "id"], (db, p) =>
  db
    .select({ run: hookRuns, now: sql<Date>`now()`.mapWith(hookRuns.endedAt), member: relationScopes, relation: relations })
    .from(hookRuns)
    .leftJoin(relations, and(eq(relations.modelId, hookRuns.modelId), eq(relations.id, hookRuns.relationId)))
    .leftJoin(
      relationScopes,
      and(
        eq(relationScopes.modelId, hookRuns.modelId),
        eq(relationScopes.relationId, hookRuns.relationId),
        eq(relationScopes.unit, hookRuns.unit),
      ),
    )
    .where(and(ofLiveUnit(p.modelId, p.unit), eq(hookRuns.id, p.id))),
);
const endRun = statement(["id", "result", "message"], (db, p) =>
  db
    .update(hookRuns)
    .set({ result: sql`${p.result}`, message: sql`${p.message}`, endedAt: sql`now()` })
    .where(eq(hookRuns.id, p.id)),
);

function parseRunId(id: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(id))
    throw new LifelineError("INVALID_ID", `invalid hook run id "${id.slice(0, 40)}": a run's id as beginHook returned it`);
  return Number(id);
}

/**
 * The agent has run the hook (or, after `resolved --no-retry`, skipped it).
 * One transaction: succeeded applies the hook's relation-set writes and makes
 * the agent idle; failed makes it `error` (Juju's `hook failed: "<hook>"`,
 * with the relation and remote unit) and applies nothing; skipped applies
 * nothing and makes it idle; a -broken hook succeeded or skipped leaves its
 * relation's scope too (leaveBrokenScopes). A resolution was taken when
 * the run began (beginHook), so a retried hook that fails again needs another
 * resolveUnit. Every commit saves the state document. A commit repeated
 * with the run's result returns the run and changes nothing (a retry after a
 * lost response); another result is refused with HOOK_RUN_ENDED, as is a
 * commit of a run its agent interrupted.
 */
export const commitHook = unitOperationReading(
  "any",
  async (tx, model, input: CommitHookInput) =>
    (await runOfUnit(tx.db, { modelId: model.id, unit: input.unit, id: parseRunId(input.run) }))[0],
  async (tx, model, unit, input, read): Promise<HookRunRow> => {
    const id = parseRunId(input.run);
    if (!read)
      throw new LifelineError("NOT_FOUND", `hook run ${id} of unit ${unit.name} not found in model "${model.name}"`, {
        kind: "hook run",
        id: input.run,
      });
    const { run, now, member, relation } = read;
    if (run.result !== HookResult.Running) {
      if (run.result === input.result) return run;
      throw new LifelineError("HOOK_RUN_ENDED", `hook run ${id} ("${run.hook}") of unit ${unit.name} has already ended: ${run.result}`, {
        result: run.result,
      });
    }
    if (input.settings?.length && input.result !== HookResult.Succeeded)
      throw new LifelineError("INVALID_ARGUMENT", `a ${input.result} hook's settings are not committed: send settings only with SUCCEEDED`);
    const state: CheckedAgentState | null = input.state == null ? null : checkAgentState(input.state);

    if (input.result === HookResult.Succeeded) await applySettingsWrites(tx, model, unit, input.settings ?? []);
    // The row as the update writes it (now() is the transaction's, read with the run), so the update goes with the
    // COMMIT, unanswered.
    const ended: HookRunRow = { ...run, result: input.result, message: (input.message ?? "").slice(0, MESSAGE_LIMIT), endedAt: now };
    tx.defer(endRun(tx.db, { id: run.id, result: ended.result, message: ended.message }));
    tx.record(model.id, hookRunRecorded(ended));
    if (input.result !== HookResult.Failed) {
      const scopes = new Map(
        run.relationId === null ? [] : [[run.relationId, { member: member ?? undefined, relation: relation ?? undefined }]],
      );
      const leavings = new ScopeLeavings(tx, model);
      leaveBrokenScopes(leavings, unit.name, [run], scopes);
      await leavings.done();
    }
    await updateAgent(tx, model, unit, input.result === HookResult.Failed ? hookFailed(run) : idle);
    if (state) saveAgentState(tx, model, unit.name, state);
    return ended;
  },
  (input) => void parseRunId(input.run),
);
