// Hooks a unit's charm does not ship (Juju's uniter logs "skipped missing hook" and commits its state): its agent moves
// past them in one call, which saves its progress and records no run, as Juju records none. The agents one process
// hosts send theirs together (recordUnitsMissingHooks), so what a call reads and writes takes a statement each however
// many units it stands for.
import { and, eq, sql } from "drizzle-orm";
import { hookRunRecorded, unitAgentChanged } from "../changes/change.js";
import { LifelineError, tooManyACall } from "../core/errors.js";
import { Life } from "../core/life.js";
import { UnitAgentStatus } from "../core/machine.js";
import { applicationOfUnit } from "../core/unit-name.js";
import { relationScopes, units } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import { type CheckedAgentState, checkAgentState, saveAgentStates } from "./agent-state.js";
import { agentChanges, idle } from "./agent-status.js";
import { entity, touching } from "./footprint.js";
import { groupedBy } from "./grouped.js";
import { parseHookName } from "./hook-names.js";
import {
  checkHookTarget,
  endpointsOfApplications,
  type HookTarget,
  interruptedAt,
  interruptRunsOf,
  leaveBrokenScopes,
  relationIdsNamed,
  runningRunsOfUnits,
} from "./hook-runs.js";
import { getUnits, relationsByIds } from "./lookup.js";
import type { HookRunRow, ModelRow, UnitRow } from "./rows.js";
import { ScopeLeavings, type ScopeToLeave } from "./scope.js";
import { transactionTime } from "./sequences.js";
import { charmsOfUnits } from "./unit-agent-reads.js";
import { charmHooksOf, charmHooksRead, knowsCharmOf } from "./unit-charms.js";
import { type InModel, type ModelKey, modelOperationReading, type Tx } from "./write/index.js";

/** The most hooks one unit passes in a call. */
export const MAX_MISSING_HOOKS = 1000;
/** The most hooks one call records for all its units together. */
export const MAX_MISSING_HOOKS_OF_UNITS = 5000;

/** The hooks one unit's agent moves past. */
export interface UnitMissingHooks {
  unit: string;
  /** In the order the agent passed them. */
  hooks: readonly HookTarget[];
  /** The agent's state document after the last of them. */
  state?: Record<string, unknown> | null;
}

export interface RecordMissingHooksInput extends InModel, UnitMissingHooks {}

export interface RecordUnitsMissingHooksInput extends InModel {
  units: readonly UnitMissingHooks[];
}

/**
 * The agent came to hooks its charm does not ship, and moved past them
 * (Juju's uniter logs "skipped missing hook" and commits its state). One
 * transaction checks them all, in order, makes the agent idle and saves its
 * state; a -relation-broken among them leaves its scope, as its commit would.
 * No run is recorded: nothing ran, and Juju's status log shows nothing either.
 * A hook-less unit's seven runs settling and six removing, each a row, a change
 * and its deliveries, were about a quarter of the machine's CPU a unit at
 * 10,000 units (docs/benchmarks.md). Refused, with nothing changed, for a hook
 * the charm does ship (that one must run), for a hook the charm cannot have,
 * for a Dead unit and for a unit in error (its failed hook comes first). The
 * one-unit case of recordUnitsMissingHooks: the unit as it stands after.
 */
export const recordMissingHooks = modelOperationReading(
  "any",
  (tx, model, input: RecordMissingHooksInput) => missingReads(tx, model, [input]),
  async (tx, model, input, reads) => (await missingRecorded(tx, model, reads, [input]))[0]!,
  (input) => missingFootprint([input]),
);

/**
 * recordMissingHooks for several units in one transaction, in the order named: all or nothing, the first refusal in
 * that order refusing the call. Their agents' calls gathered into one (src/agents/gathered-calls.ts). The units as they
 * stand after, in that order.
 */
export const recordUnitsMissingHooks = modelOperationReading(
  "any",
  (tx, model, input: RecordUnitsMissingHooksInput) => missingReads(tx, model, input.units),
  (tx, model, input, reads) => missingRecorded(tx, model, reads, input.units),
  (input) => missingFootprint(input.units),
);

/**
 * Its footprint (footprint.ts): each unit's interrupted runs, agent status and state are its own; of each relation named, the row
 * and endpoints are read; a -broken hook's relation has one taken from its member count, as leaveScope does (the last
 * member of a Dying relation, which removes it, takes a turn alone).
 */
function missingFootprint(calls: readonly UnitMissingHooks[]) {
  const targets = calls.flatMap((c) => c.hooks);
  return touching(
    ...calls.map((c) => [entity.unit(c.unit), "write"] as const),
    ...relationIdsNamed(targets).map((id) => [entity.relation(id), "read"] as const),
    ...relationIdsNamed(brokenOf(targets)).map((id) => [entity.relationMembers(id), "add"] as const),
  );
}

const brokenOf = (targets: readonly HookTarget[]) => targets.filter((t) => t.hook.endsWith("-relation-broken"));

function checkHookCounts(calls: readonly UnitMissingHooks[]): void {
  for (const { hooks } of calls) {
    if (hooks.length === 0) throw new LifelineError("INVALID_ARGUMENT", "recordMissingHooks needs at least one hook");
    if (hooks.length > MAX_MISSING_HOOKS) throw tooManyACall("hooks", MAX_MISSING_HOOKS, hooks.length);
  }
  const total = calls.reduce((sum, c) => sum + c.hooks.length, 0);
  if (total > MAX_MISSING_HOOKS_OF_UNITS) throw tooManyACall("hooks of all units", MAX_MISSING_HOOKS_OF_UNITS, total);
}

/**
 * Everything the checks and the change rows need, read with the model's lock in one round trip: the units, the charms
 * this process does not know yet, their running runs, the transaction's time, the relations named (each with every unit's
 * application's endpoint in it) and the memberships the -broken hooks leave. So the writes go out with the COMMIT.
 */
async function missingReads(tx: Tx, model: ModelKey, calls: readonly UnitMissingHooks[]) {
  checkHookCounts(calls);
  const names = calls.map((c) => c.unit);
  const modelId = model.id;
  const targets = calls.flatMap((c) => c.hooks);
  const relationIds = relationIdsNamed(targets);
  const broken = calls.flatMap((c) => relationIdsNamed(brokenOf(c.hooks)).map((relation) => ({ relation, unit: c.unit })));
  const unknown = names.filter((name) => !knowsCharmOf(modelId, name));
  const none = Promise.resolve([]);
  return {
    units: sentAhead(getUnits(tx, model, names)),
    charms: unknown.length ? sentAhead(charmsOfUnits(tx.db, { modelId, names: unknown })) : none,
    running: sentAhead(runningRunsOfUnits(tx.db, { modelId, units: names })),
    now: sentAhead(transactionTime(tx)),
    endpoints: relationIds.length
      ? sentAhead(
          endpointsOfApplications(tx.db, { modelId, relations: relationIds, applications: [...new Set(names.map(applicationOfUnit))] }),
        )
      : none,
    members: broken.length
      ? sentAhead(membersOfPairs(tx.db, { modelId, relations: broken.map((b) => b.relation), units: broken.map((b) => b.unit) }))
      : none,
    brokenRelations: broken.length ? sentAhead(relationsByIds(tx.db, { modelId, ids: relationIdsNamed(brokenOf(targets)) })) : none,
  };
}

type MissingReads = Awaited<ReturnType<typeof missingReads>>;

/** Each unit's hooks checked and passed, in order; its agent idle and its state saved. Refused at the first unit that may not. */
async function missingRecorded(tx: Tx, model: ModelRow, reads: MissingReads, calls: readonly UnitMissingHooks[]): Promise<UnitRow[]> {
  const rows = await reads.units;
  const charms = new Map((await reads.charms).map((c) => [c.unit, c.charm]));
  // Remembered for another unit of that name (never, in practice): read now.
  const stale = rows.filter((unit) => !charmHooksOf(unit) && !charms.has(unit.name)).map((unit) => unit.name);
  if (stale.length) for (const c of await charmsOfUnits(tx.db, { modelId: model.id, names: stale })) charms.set(c.unit, c.charm);
  const running = groupedBy(await reads.running, (r) => r.unit);
  const now = await reads.now;
  const endpointRows = await reads.endpoints;
  const relationsFound = new Set(endpointRows.map((r) => r.relation));
  const endpointOf = new Map(endpointRows.filter((r) => r.application).map((r) => [`${r.relation} ${r.application}`, r.endpoint]));
  const members = new Map((await reads.members).map((m) => [`${m.relationId} ${m.unit}`, m]));
  const brokenRelations = new Map((await reads.brokenRelations).map((r) => [r.id, r]));

  const passed: PassedHook[][] = [];
  const states: { unit: string; state: CheckedAgentState }[] = [];
  for (const [i, unit] of rows.entries()) {
    const call = calls[i]!;
    const named = new Map([...relationsFound].map((id) => [id, endpointOf.get(`${id} ${unit.application}`) ?? null]));
    passed.push(passedHooks(unit, charms.get(unit.name), named, call.hooks));
    if (call.state != null) states.push({ unit: unit.name, state: checkAgentState(call.state) });
  }

  // Sent together with the COMMIT: the interrupted runs' end, the agents' status and state. Each unit's changes
  // recorded in that order: its interrupted runs, the scopes it left, its agent. A Dying relation its last member left
  // goes after them all (ScopeLeavings).
  const interrupted = rows.flatMap((unit) => running.get(unit.name) ?? []);
  if (interrupted.length) tx.defer(interruptRunsOf(tx.db, { ids: interrupted.map((r) => r.id) }));
  const after: UnitRow[] = [];
  const idled: string[] = [];
  const restamped: string[] = [];
  const leavings = new ScopeLeavings(tx, model);
  for (const [i, unit] of rows.entries()) {
    for (const run of running.get(unit.name) ?? []) tx.record(model.id, hookRunRecorded(interruptedAt(run, now)));
    const leaving = new Map<number, ScopeToLeave>(
      relationIdsNamed(brokenOf(calls[i]!.hooks)).map((id) => [
        id,
        { member: members.get(`${id} ${unit.name}`), relation: brokenRelations.get(id) },
      ]),
    );
    leaveBrokenScopes(leavings, unit.name, passed[i]!, leaving);
    // Its agent idle, its resolution cleared, as updateAgent would; written for all the units in one statement below.
    const changes = agentChanges(unit, idle, null, now);
    const idleUnit = changes ? { ...unit, ...changes } : unit;
    after.push(idleUnit);
    if (changes) {
      tx.record(model.id, unitAgentChanged(idleUnit));
      idled.push(unit.name);
      if ("agentSince" in changes) restamped.push(unit.name);
    }
  }
  await leavings.done();
  if (idled.length)
    tx.defer(
      agentsIdled(tx.db, {
        modelId: model.id,
        names: idled,
        restamped,
        since: now.toISOString(),
      }),
    );
  saveAgentStates(tx, model, states);
  return after;
}

/** A hook passed: what leaving a -broken hook's scope needs of it. */
type PassedHook = Pick<HookRunRow, "hook" | "relationId">;

/** One unit's missing hooks, checked in order: refused for a Dead unit, a unit in error, a hook its charm ships or cannot have. */
function passedHooks(
  unit: UnitRow,
  charmRead: Parameters<typeof charmHooksRead>[1] | undefined,
  relationsRead: ReadonlyMap<number, string | null>,
  hooks: readonly HookTarget[],
): PassedHook[] {
  const { charm, endpoints, ships } = charmHooksOf(unit) ?? charmHooksRead(unit, charmRead!);
  if (unit.life === Life.Dead)
    throw new LifelineError("NOT_ALIVE", `unit ${unit.name} is dead: its agent runs no more hooks`, { life: unit.life });
  if (unit.agentStatus === UnitAgentStatus.Error)
    throw new LifelineError("UNIT_IN_ERROR", `unit ${unit.name} is in error: its failed hook comes first (resolveUnit)`, {
      hook: unit.agentStatusData.hook ?? null,
    });
  const passed: PassedHook[] = [];
  // One check per distinct target: a principal's hub joins many units of one relation.
  const checked = new Set<string>();
  for (const target of hooks) {
    const parsed = parseHookName(target.hook, endpoints, charm);
    if (ships(parsed.name))
      throw new LifelineError("INVALID_ARGUMENT", `charm "${charm}" ships hook "${parsed.name}": run it (beginHook, commitHook)`, {
        hook: parsed.name,
      });
    const key = `${parsed.relation?.endpoint} ${target.relation}`;
    checkHookTarget(relationsRead, unit, target, parsed.relation?.endpoint, parsed.relation?.kind, checked.has(key));
    checked.add(key);
    passed.push({ hook: parsed.name, relationId: parsed.relation ? target.relation! : null });
  }
  return passed;
}

/** The memberships of (relation, unit) pairs, given as two arrays in step. */
const membersOfPairs = statement(["modelId", "relations", "units"], (db, p) =>
  db
    .select()
    .from(relationScopes)
    .where(
      and(
        eq(relationScopes.modelId, p.modelId),
        sql`(${relationScopes.relationId}, ${relationScopes.unit}) in (select * from unnest(${p.relations}::int[], ${p.units}::text[]))`,
      ),
    ),
);

/** The units' agents idle, their resolution cleared; the status's time moved for those whose status changed (`restamped`). */
const agentsIdled = statement(["modelId", "names", "restamped", "since"], (db, p) =>
  db
    .update(units)
    .set({
      agentStatus: UnitAgentStatus.Idle,
      agentMessage: "",
      agentStatusData: {},
      resolved: null,
      agentSince: sql`case when ${units.name} = any(${p.restamped}::text[]) then ${p.since}::timestamptz else ${units.agentSince} end`,
    })
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names}::text[])`)),
);
