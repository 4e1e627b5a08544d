// When is a deployment settled, and when is an application gone? Both read off
// the model's stream (model-watch.ts), and the first is then confirmed exactly
// against each unit agent's progress as the server keeps it.
//
// Settled: every unit's agent is idle and every unit of a relation's
// applications is in its scope. Then, exactly: each agent's progress document
// lists, per relation, precisely the counterparts in scope (seed 002: providers
// see requirers, peers each other) at their current settings versions, with
// nothing pending; that is when Juju's resolver (src/agents/uniter/resolver.ts)
// has no hook left to run. The stream alone cannot say so: a hook the charm does
// not ship is passed without a run (src/model/missing-hooks.ts).
import type { Api } from "./api.js";
import type { Entity, ModelWatch } from "./model-watch.js";

const applicationsOf = (relation: Entity): string[] => (relation.info.endpoints ?? []).map((e) => e.applicationName);

/** A relation's members (units in scope) with their roles, and the members of each role. */
interface Members {
  role: Map<string, string>;
  byRole: Map<string, string[]>;
}

/** Each relation's members, by relation id. */
function membersByRelation(watch: ModelWatch): Map<string, Members> {
  const members = new Map<string, Members>();
  for (const scope of watch.all("SCOPE")) {
    const relation = String(scope.info.relationId);
    if (!members.has(relation)) members.set(relation, { role: new Map(), byRole: new Map() });
    const m = members.get(relation)!;
    const [unit, role] = [String(scope.info.unitName), String(scope.info.role)];
    m.role.set(unit, role);
    if (!m.byRole.has(role)) m.byRole.set(role, []);
    m.byRole.get(role)!.push(unit);
  }
  return members;
}

/** The counterparts a member sees (seed 002): the other role's members, or, in a peer relation, the other members. */
function counterparts(members: Members, unit: string): string[] {
  const role = members.role.get(unit);
  if (role === "PEER") return (members.byRole.get("PEER") ?? []).filter((other) => other !== unit);
  return [...members.byRole].filter(([r]) => r !== role && r !== "PEER").flatMap(([, units]) => units);
}

/** "3 idle, 2 executing": how many of each value. */
function tally(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${n} ${value}`).join(", ");
}

/**
 * What keeps the model from being settled, as the stream shows it; null when nothing does. The checks go cheapest
 * first, and unless `full` it stops at the first gap: through a settle some agent is nearly always busy, so the walks
 * over every scope and hook run are left for its end.
 */
export function settleGap(watch: ModelWatch, expectedUnits: number, full = false): string | null {
  const gaps: string[] = [];
  const found = () => gaps.length > 0 && !full;
  const unitCount = watch.count("UNIT");
  if (unitCount < expectedUnits) gaps.push(`${unitCount} of ${expectedUnits} units exist`);
  if (found()) return gaps[0]!;
  const units = watch.all("UNIT");
  const busy = units.filter((u) => u.info.agentStatus?.current !== "idle");
  if (busy.length)
    gaps.push(
      `${busy.length} agents not idle (${tally(busy.map((u) => String(u.info.agentStatus?.current ?? "allocating")))}; e.g. ${busy[0]!.entity})`,
    );
  if (found()) return gaps[0]!;
  const members = membersByRelation(watch);
  for (const relation of watch.all("RELATION")) {
    const apps = new Set(applicationsOf(relation));
    const inScope = members.get(relation.entity) ?? { role: new Map<string, string>(), byRole: new Map<string, string[]>() };
    const outside = units.filter((u) => apps.has(String(u.info.applicationName)) && !inScope.role.has(u.entity));
    if (outside.length) gaps.push(`${outside.length} units not in the scope of ${String(relation.info.key)} (e.g. ${outside[0]!.entity})`);
    if (found()) return gaps[0]!;
  }
  const running = watch.all("HOOK").filter((h) => h.info.result === "RUNNING");
  if (running.length) gaps.push(`${running.length} hooks running`);
  return gaps.length ? gaps.join("; ") : null;
}

const UNITS_PAGE = `query ($model: String!, $after: String) { model(name: $model) {
  units(first: 1000, after: $after) { pageInfo { hasNextPage endCursor } edges { node { name agentState } } }
} }`;

type Progress = {
  installed?: boolean;
  started?: boolean;
  pending?: unknown;
  relations?: Record<string, { members?: Record<string, number>; changedPending?: string | null }>;
};

/** Confirms the stream's answer against every agent's progress on the server; null when each has nothing left to run. */
export async function confirmSettled(api: Api, model: string, watch: ModelWatch): Promise<string | null> {
  const members = membersByRelation(watch);
  const version = (relation: string, unit: string) => Number(watch.get("SETTINGS", `${relation}:${unit}`)?.info.version ?? 0);
  const gaps: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < 1000; page++) {
    type Page = {
      model: {
        units: { pageInfo: { hasNextPage: boolean; endCursor: string }; edges: { node: { name: string; agentState: Progress | null } }[] };
      };
    };
    const data: Page = await api<Page>(UNITS_PAGE, { model, after });
    for (const { node } of data.model.units.edges) {
      const state = node.agentState ?? {};
      if (!state.installed || !state.started || state.pending) gaps.push(`${node.name} has not finished starting`);
      for (const [relation, inScope] of members) {
        if (!inScope.role.has(node.name)) continue;
        const progress = state.relations?.[relation];
        const expected = counterparts(inScope, node.name);
        if (!progress) gaps.push(`${node.name} has no progress in relation ${relation}`);
        else if (progress.changedPending) gaps.push(`${node.name} owes -changed for ${progress.changedPending}`);
        else {
          const known = progress.members ?? {};
          const stale = expected.filter((other) => known[other] !== version(relation, other));
          const extra = Object.keys(known).filter((other) => !inScope.role.has(other));
          if (stale.length || extra.length)
            gaps.push(
              `${node.name} is behind in relation ${relation} (${stale.length} counterparts unseen or stale, ${extra.length} gone)`,
            );
        }
      }
      if (gaps.length >= 5) return gaps.join("; ");
    }
    if (!data.model.units.pageInfo.hasNextPage) break;
    after = data.model.units.pageInfo.endCursor;
  }
  return gaps.length ? gaps.join("; ") : null;
}

/**
 * What is left of `application` (its units, by life and agent status; its relations and their settings; itself); null
 * once nothing is. Unless `full`, only its units while any is left (the walks over scopes and settings wait for then).
 */
export function removalGap(watch: ModelWatch, application: string, relationIds: string[], full = false): string | null {
  const gaps: string[] = [];
  const units = watch.all("UNIT").filter((u) => u.info.applicationName === application);
  if (units.length)
    gaps.push(`${units.length} units left (${tally(units.map((u) => `${u.life ?? "?"}/${String(u.info.agentStatus?.current ?? "?")}`))})`);
  if (gaps.length && !full) return gaps[0]!;
  for (const id of relationIds) {
    const relation = watch.get("RELATION", id);
    if (relation)
      gaps.push(`relation ${String(relation.info.key)} ${relation.life}, ${membersByRelation(watch).get(id)?.role.size ?? 0} in scope`);
    // A removed relation's settings go by a cleanup, after it: until then something of it is left.
    const settings = watch.all("SETTINGS").filter((e) => String(e.info.relationId) === id).length;
    if (settings) gaps.push(`${settings} units' settings in relation ${id}`);
  }
  if (watch.get("APPLICATION", application)) gaps.push(`application ${application} still there`);
  return gaps.length ? gaps.join("; ") : null;
}

/** Which of `machines` are still there, by life and status; null once none is. */
export function machinesGap(watch: ModelWatch, machines: string[]): string | null {
  const left = machines.map((id) => watch.get("MACHINE", id)).filter((m) => m !== undefined);
  return left.length
    ? `${left.length} machines left (${tally(left.map((m) => `${m.life ?? "?"}/${String(m.info.status?.current ?? "?")}`))})`
    : null;
}
