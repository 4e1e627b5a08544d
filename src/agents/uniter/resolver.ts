// Which hook a unit agent runs next, and what its progress becomes once that
// hook is committed: Juju's uniter resolver (worker/uniter/relation/resolver.go
// nextHookForRelation; ../shared/JUJU-AGENTS.md "Unit agent"), as pure
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
//      relation (../shared/JUJU-AGENTS.md); committing it leaves the scope;
//   4. -joined for remote units not yet known (sorted by name); a unit that
//      joined and left before its -joined ran gets neither hook;
//   5. -changed for known units whose settings version moved;
// then config-changed when the application's config moved; and, Dying with no
// relation left, stop, then remove.
import type { Life } from "../../client/graphql.js";

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

const byName = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

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
  const departed = Object.keys(progress.members)
    .filter((unit) => !(unit in remote))
    .sort(byName);
  if (departed.length) return { name: hook("departed"), relation, remoteUnit: departed[0]!, departingUnit: departed[0]! };
  const leaving = now?.life !== "ALIVE" || unitLife !== "ALIVE";
  if (leaving) return now?.peer ? null : { name: hook("broken"), relation };
  const joined = Object.keys(remote)
    .filter((unit) => !(unit in progress.members))
    .sort(byName);
  if (joined.length) return { name: hook("joined"), relation, remoteUnit: joined[0]! };
  const changed = Object.keys(progress.members)
    .filter((unit) => remote[unit] !== progress.members[unit])
    .sort(byName);
  if (changed.length) return { name: hook("changed"), relation, remoteUnit: changed[0]! };
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

/** The progress once `hook` has been committed (run and succeeded, or skipped by resolved --no-retry). */
export function afterHook(progress: UniterProgress, hook: Hook, situation: Situation): UniterProgress {
  const next: UniterProgress = { ...progress, relations: { ...progress.relations } };
  switch (hook.name) {
    case "install":
      return { ...next, installed: true };
    case "config-changed":
      return { ...next, configVersion: situation.configVersion };
    case "start":
      return { ...next, started: true };
    case "stop":
      return { ...next, stopped: true };
    case "remove":
      return { ...next, removed: true };
  }
  if (!hook.relation) return next;
  const key = String(hook.relation.id);
  const relation = next.relations[key];
  if (!relation) return next;
  const remote = situation.relations[key]?.remote ?? {};
  const kind = hook.name.slice(hook.relation.endpoint.length + "-relation-".length);
  const unit = hook.remoteUnit!;
  if (kind === "joined")
    next.relations[key] = { ...relation, members: { ...relation.members, [unit]: remote[unit] ?? 0 }, changedPending: unit };
  else if (kind === "changed")
    next.relations[key] = {
      ...relation,
      changedPending: relation.changedPending === unit ? null : relation.changedPending,
      // A unit that left after its -joined keeps its last version: its -departed comes next.
      members: unit in relation.members ? { ...relation.members, [unit]: remote[unit] ?? relation.members[unit]! } : relation.members,
    };
  else if (kind === "departed") {
    const { [unit]: _gone, ...members } = relation.members;
    next.relations[key] = { ...relation, members };
  } else if (kind === "broken") delete next.relations[key];
  return next;
}
