// Which hook a unit agent runs next, and what its progress becomes once that
// hook is committed: Juju's uniter resolver (worker/uniter/relation/resolver.go
// nextHookForRelation; Juju's worker/uniter), as pure
// functions over the agent's progress (kept on the server, so an agent with
// nothing local resumes exactly) and what its streams say now.
//
// Order: install, config-changed, start; then, relation by relation, in this
// order of precedence:
//   1. a -changed pending after a -joined (so -joined is always followed by
//      -changed for that unit, even if it has left meanwhile);
//   2. -departed for a unit known locally but gone remotely (sorted by name);
//      when the relation or the unit is Dying, remote membership counts as
//      empty, so every member departs;
//   3. -broken once every member has departed from a relation that is Dying
//      (or that the unit is leaving because it is Dying); never for a peer
//      relation (as Juju's uniter does); committing it leaves the scope;
//   4. -joined for remote units not yet known (sorted by name); a unit that
//      joined and left before its -joined ran gets neither hook;
//   5. -changed for known units whose settings version moved;
// then config-changed when the application's config moved; and, Dying with no
// relation left, stop, then remove.
//
// Around the hooks, the same pure style decides the rest of a pass (Juju's
// uniterResolver.NextOp): which scopes to enter, whether a subordinate must go
// Dying, which hook to run when its last one failed, and when the unit may be
// set Dead.
import type { Life, RelationInfoFieldsFragment, ResolvedMode } from "../../client/graphql.js";
import { applicationOfUnit } from "../../core/unit-name.js";
import type { EntityView } from "../stream-view.js";

/** One relation's progress: the remote units the unit has run -joined for, with the settings version last seen. */
export type RelationProgress = {
  endpoint: string;
  /** Remote unit → the settings version its last -joined or -changed saw. */
  members: Record<string, number>;
  /** A -joined ran for this unit and its -changed has not yet. */
  changedPending: string | null;
};

/** The agent's progress: the state document it keeps on the server (Juju's uniter state). */
export type UniterProgress = {
  installed: boolean;
  /** The application config version the last config-changed ran for, null before the first. */
  configVersion: number | null;
  started: boolean;
  stopped: boolean;
  removed: boolean;
  /** By relation id: every relation whose scope the unit is in (entered, not yet left). */
  relations: Record<string, RelationProgress>;
};

export const freshProgress = (): UniterProgress => ({
  installed: false,
  configVersion: null,
  started: false,
  stopped: false,
  removed: false,
  relations: {},
});

/** A relation whose scope the unit is in, as the agent's streams show it now. */
export interface RelationNow {
  life: Life;
  peer: boolean;
  /** Counterpart units in the unit's scope (seed 002: providers see requirers, peers each other), with their settings versions. */
  remote: Record<string, number>;
}

export interface Situation {
  unitLife: Life;
  /** The application's config version now. */
  configVersion: number;
  /** By relation id; a relation missing here is gone (removed under the agent). */
  relations: Record<string, RelationNow>;
}

export interface Hook {
  name: string;
  relation?: { id: number; endpoint: string };
  remoteUnit?: string;
  /** For -departed: the unit departing (Juju's JUJU_DEPARTING_UNIT). */
  departingUnit?: string;
}

/** Unit names ("app/N") in Juju's order: by application, then by number (not as text: wordpress/10 after wordpress/9). */
export function byName(a: string, b: string): number {
  const slashA = a.lastIndexOf("/");
  const slashB = b.lastIndexOf("/");
  const appA = a.slice(0, slashA);
  const appB = b.slice(0, slashB);
  if (appA !== appB) return appA < appB ? -1 : 1;
  return Number(a.slice(slashA + 1)) - Number(b.slice(slashB + 1));
}

/**
 * The first by name of the units `keep` accepts: one pass, no sort. A hub that many units join asks this once per
 * hook, so a sort here made a batch of N joins cost N² log N.
 */
function firstByName(units: Iterable<string>, keep: (unit: string) => boolean): string | null {
  let first: string | null = null;
  for (const unit of units) if (keep(unit) && (first === null || byName(unit, first) < 0)) first = unit;
  return first;
}

/** Remote members as the agent must treat them: none once the relation or the unit is on its way out (every member then departs). */
function effectiveRemote(relation: RelationNow | undefined, unitLife: Life): Record<string, number> {
  if (relation?.life !== "ALIVE" || unitLife !== "ALIVE") return {};
  return relation.remote;
}

/** The next relation hook for one relation, or null when it is settled. */
function nextRelationHook(id: number, progress: RelationProgress, now: RelationNow | undefined, unitLife: Life): Hook | null {
  const relation = { id, endpoint: progress.endpoint };
  const hook = (kind: string) => `${progress.endpoint}-relation-${kind}`;
  if (progress.changedPending) return { name: hook("changed"), relation, remoteUnit: progress.changedPending };
  const remote = effectiveRemote(now, unitLife);
  const members = Object.keys(progress.members);
  const departed = firstByName(members, (unit) => !(unit in remote));
  if (departed !== null) return { name: hook("departed"), relation, remoteUnit: departed, departingUnit: departed };
  const leaving = now?.life !== "ALIVE" || unitLife !== "ALIVE";
  if (leaving) return now?.peer ? null : { name: hook("broken"), relation };
  const joined = firstByName(Object.keys(remote), (unit) => !(unit in progress.members));
  if (joined !== null) return { name: hook("joined"), relation, remoteUnit: joined };
  const changed = firstByName(members, (unit) => remote[unit] !== progress.members[unit]);
  if (changed !== null) return { name: hook("changed"), relation, remoteUnit: changed };
  return null;
}

/** Relations the unit should now leave without a hook: a peer relation whose members have all departed while it is leaving. */
export function relationsToLeave(progress: UniterProgress, situation: Situation): number[] {
  return Object.entries(progress.relations)
    .filter(([id, relation]) => {
      const now = situation.relations[id];
      const leaving = now?.life !== "ALIVE" || situation.unitLife !== "ALIVE";
      return leaving && now?.peer === true && !relation.changedPending && Object.keys(relation.members).length === 0;
    })
    .map(([id]) => Number(id));
}

/** The next hook to run, or null when there is nothing to do now. */
export function nextHook(progress: UniterProgress, situation: Situation): Hook | null {
  if (progress.removed) return null;
  if (!progress.installed) return { name: "install" };
  if (progress.configVersion === null) return { name: "config-changed" };
  if (!progress.started) return { name: "start" };
  const ids = Object.keys(progress.relations)
    .map(Number)
    .sort((a, b) => a - b);
  for (const id of ids) {
    const hook = nextRelationHook(id, progress.relations[id]!, situation.relations[id], situation.unitLife);
    if (hook) return hook;
  }
  if (progress.configVersion !== situation.configVersion && situation.unitLife === "ALIVE") return { name: "config-changed" };
  if (situation.unitLife !== "ALIVE" && ids.length === 0) {
    if (!progress.stopped) return { name: "stop" };
    return { name: "remove" };
  }
  return null;
}

/**
 * The hooks nextHook gives one after another while the situation stands still, as nextHook would give them if the
 * caller applied each (applyHook) before asking for the next, which the caller must do. Each relation's members are
 * sorted once here instead of scanned once per hook by nextHook: a hub that N units join passes 2N hooks, and
 * scanning its N members for each made that N² (a third of the agents' CPU at 10,000 units).
 */
export function* hookSequence(progress: UniterProgress, situation: Situation): Generator<Hook, void, undefined> {
  // install, config-changed and start come before any relation, without scanning one.
  while (!progress.removed && (!progress.installed || progress.configVersion === null || !progress.started))
    yield nextHook(progress, situation)!;
  if (progress.removed) return;
  const ids = Object.keys(progress.relations)
    .map(Number)
    .sort((a, b) => a - b);
  for (const id of ids) yield* relationHookSequence(id, progress, situation);
  // What follows the relations (config-changed, stop, remove): a few hooks, each found by nextHook.
  for (let hook = nextHook(progress, situation); hook; hook = nextHook(progress, situation)) yield hook;
}

/** nextRelationHook's answers for one relation, in order, the caller applying each before asking for the next. */
function* relationHookSequence(id: number, progress: UniterProgress, situation: Situation): Generator<Hook, void, undefined> {
  const relation = progress.relations[id];
  if (!relation) return;
  const now = situation.relations[id];
  const ref = { id, endpoint: relation.endpoint };
  const hook = (kind: string, remoteUnit: string): Hook => ({ name: `${relation.endpoint}-relation-${kind}`, relation: ref, remoteUnit });
  if (relation.changedPending) yield hook("changed", relation.changedPending);
  const remote = effectiveRemote(now, situation.unitLife);
  const departing = Object.keys(relation.members)
    .filter((unit) => !(unit in remote))
    .sort(byName);
  for (const unit of departing) yield { ...hook("departed", unit), departingUnit: unit };
  if (now?.life !== "ALIVE" || situation.unitLife !== "ALIVE") {
    if (!now?.peer) yield { name: `${relation.endpoint}-relation-broken`, relation: ref };
    return;
  }
  const joining = Object.keys(remote)
    .filter((unit) => !(unit in relation.members))
    .sort(byName);
  for (const unit of joining) {
    yield hook("joined", unit);
    yield hook("changed", unit);
  }
  const changing = Object.keys(relation.members)
    .filter((unit) => remote[unit] !== relation.members[unit])
    .sort(byName);
  for (const unit of changing) yield hook("changed", unit);
}

/** The progress once `hook` has been committed (run and succeeded, or skipped by resolved --no-retry). */
export function afterHook(progress: UniterProgress, hook: Hook, situation: Situation): UniterProgress {
  const next = copyProgress(progress);
  applyHook(next, hook, situation);
  return next;
}

/** A copy of the progress that applyHook may change without touching the original. */
export function copyProgress(progress: UniterProgress): UniterProgress {
  const relations: Record<string, RelationProgress> = {};
  for (const [id, relation] of Object.entries(progress.relations)) relations[id] = { ...relation, members: { ...relation.members } };
  return { ...progress, relations };
}

/**
 * afterHook's rule, applied in place: for an agent passing many hooks in a row (a hub joined by many units), where a
 * copy per hook would cost as much as the members.
 */
export function applyHook(progress: UniterProgress, hook: Hook, situation: Situation): void {
  switch (hook.name) {
    case "install":
      progress.installed = true;
      return;
    case "config-changed":
      progress.configVersion = situation.configVersion;
      return;
    case "start":
      progress.started = true;
      return;
    case "stop":
      progress.stopped = true;
      return;
    case "remove":
      progress.removed = true;
      return;
  }
  if (!hook.relation) return;
  const key = String(hook.relation.id);
  const relation = progress.relations[key];
  if (!relation) return;
  const remote = situation.relations[key]?.remote ?? {};
  const kind = hook.name.slice(hook.relation.endpoint.length + "-relation-".length);
  const unit = hook.remoteUnit!;
  if (kind === "joined") {
    relation.members[unit] = remote[unit] ?? 0;
    relation.changedPending = unit;
  } else if (kind === "changed") {
    if (relation.changedPending === unit) relation.changedPending = null;
    // A unit that left after its -joined keeps its last version: its -departed comes next.
    if (unit in relation.members) relation.members[unit] = remote[unit] ?? relation.members[unit]!;
  } else if (kind === "departed") delete relation.members[unit];
  else if (kind === "broken") delete progress.relations[key];
}

/** The agent's progress as kept on the server (a JSON document): the resolver's, plus a hook begun and not yet committed. */
export type StoredProgress = UniterProgress & { pending: Hook | null };

/** A relation of the unit's application, as its applicationRelations stream shows it. */
export type RelationView = EntityView<RelationInfoFieldsFragment>;

/**
 * What a pass does about hooks: run one (or skip it, resolved with no retry), nothing, or wait in error. A run of the
 * failed hook says what allowed it: a person's resolution or the retry timer, each good for one run.
 */
export type HookChoice = { hook: Hook; skip: boolean; by?: "resolution" | "timer" } | null | "wait";

/** Where the unit stands with a failed hook: what its own row says (its stream), and what the agent knows ahead of it. */
export interface FailureNow {
  /** Its unit's row says its agent is in error. */
  inError: boolean;
  /** The resolution a person asked for on that row (resolveUnit), if any. */
  resolved: ResolvedMode | null;
  /** The agent committed its pending hook FAILED itself, whether or not its stream has said so yet (local-state.ts). */
  pendingFailed: boolean;
  /** The retry timer fired since the failure: one run of the failed hook is allowed (local-state.ts). */
  retryDue: boolean;
}

/**
 * The hook to run now: a failed one once resolved or due for a retry, one begun and never committed, or nextHook's. In
 * error, nothing else runs: the failed hook waits (Juju's uniter, resolver.go nextOpHookError).
 */
export function nextHookChoice(progress: StoredProgress, failure: FailureNow, situation: Situation): HookChoice {
  if ((failure.inError || failure.pendingFailed) && progress.pending) {
    // A resolution shows on a row of the agent in error; rows its own runs wrote meanwhile may still be on their way.
    const resolved = failure.inError ? failure.resolved : null;
    if (resolved) return { hook: progress.pending, skip: resolved === "SKIP_HOOK", by: "resolution" };
    if (failure.retryDue) return { hook: progress.pending, skip: false, by: "timer" };
    return "wait";
  }
  // A hook begun but never committed (the agent stopped mid-hook) is run again, as Juju treats it as failed.
  const hook = progress.pending ?? nextHook(progress, situation);
  return hook ? { hook, skip: false } : null;
}

/** The unit's own endpoint name in a relation (the endpoint of its application); "" while the relation is unknown. */
export function ownEndpoint(relation: RelationInfoFieldsFragment | undefined, application: string): string {
  return relation?.endpoints?.find((e) => e.applicationName === application)?.name ?? "";
}

/** A subordinate takes part only in its principal's container-scoped relations, and in global ones. */
export function belongsIn(relation: RelationInfoFieldsFragment, principal: string | null): boolean {
  if (principal === null || relation.scope !== "CONTAINER") return true;
  return (relation.endpoints ?? []).some((e) => e.applicationName === applicationOfUnit(principal));
}

/** The Alive relations of its application the unit belongs in and whose scope it is not in yet, in the stream's order. */
export function scopesToEnter(relations: readonly RelationView[], progress: UniterProgress, principal: string | null): RelationView[] {
  return relations.filter((r) => r.life === "ALIVE" && !progress.relations[Number(r.entity)] && belongsIn(r.info, principal));
}

/**
 * Seed 001: a subordinate becomes Dying once no Alive container-scoped relation between its application and its
 * principal's remains. Its own agent owns this rule, as Juju's does (relation/statetracker.go
 * maybeSetSubordinateDying): it sees the relation go Dying first, and goes Dying before it departs. The server's
 * dying-subordinates cleanup, queued when such a relation is removed, is the backstop: for a subordinate whose agent
 * never ran, or a relation removed by force. A principal is never cut off.
 *
 * That units go Dying with their application is not the agent's rule: the cleaner's dying-units cleanup makes them
 * so, in batches (src/model/cleanups.ts), and the agent only sees its unit's life change.
 */
export function cutOffFromPrincipal(relations: readonly RelationView[], principal: string | null): boolean {
  if (principal === null) return false;
  const principalApp = applicationOfUnit(principal);
  return !relations.some(
    (r) => r.life === "ALIVE" && r.info.scope === "CONTAINER" && (r.info.endpoints ?? []).some((e) => e.applicationName === principalApp),
  );
}

/** Dying, with remove committed, no scope left and no subordinate left: the agent may set its unit Dead (seed 001). */
export function readyToBeDead(unitLife: Life | null, progress: UniterProgress, subordinates: number): boolean {
  return unitLife !== "ALIVE" && progress.removed && Object.keys(progress.relations).length === 0 && subordinates === 0;
}
