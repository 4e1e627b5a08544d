// What a stream covers. Each stream is served from the same log; a Watcher decides
// which rows belong to it and reads the current state of what it covers for the
// snapshot. `covers` sees every CHANGE of the model on the watcher's routes (routes.ts),
// in revision order, exactly once, so a watcher may learn as it goes (a unit created on the machine it watches joins
// the set it covers). Rows carry their identifying fields (see change.ts),
// which is what lets a resumed stream recognise rows about entities long gone.
import { and, asc, eq, getTableColumns, inArray, type SQL, sql, type Table } from "drizzle-orm";
import { LifelineError, notFound } from "../core/errors.js";
import type { Life } from "../core/life.js";
import { AGENT_LOST } from "../core/presence.js";
import { counterpartRole, type Role, roleInKey, Scope } from "../core/relation.js";
import { applicationOfUnit } from "../core/unit-name.js";
import { machines, relationEndpoints, relationScopes, relationSettings, relations, units } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import type { Last } from "../db/transaction-runner.js";
import type { DbTx } from "./append.js";
import { type EntityKind, entityKinds, memberId } from "./change.js";
import { Routes, route, routesTogether } from "./routes.js";
import {
  endpointsOfRelations,
  machineState,
  relationStatesOf,
  relationsByIds,
  scopeState,
  settingsState,
  stateReaders,
  unitState,
  unitsByNames,
} from "./snapshot.js";
import type { EntityEvent } from "./stream-event.js";

export interface Watcher {
  /** Whether a CHANGE belongs in the stream. Called once per change of the model on its routes (all, without routes), in order. */
  covers(event: EntityEvent): boolean;
  /**
   * The current state of what the stream covers, read inside the snapshot's
   * read-only transaction. `changes` holds at most `limit` entities (its client can narrow it); a focused stream
   * covers what one agent watches, which it cannot narrow, and holds all of it, as Juju's watchers send it whole
   * (a hub's unit sees every member of a relation with 10,000 units). It also primes whatever the
   * watcher tracks, so a resumed stream (which discards these) starts informed.
   * Its final reads, once started, go through `last`, which sends the COMMIT with them.
   */
  snapshot(q: DbTx, modelId: string, limit: number, purpose: "snapshot" | "resume", last: Last): Promise<EntityEvent[]>;
  /**
   * Whether `covers` depends on what `snapshot` learned, so a resume must read it too.
   * A resume must not refuse an entity that is gone: the client resumes to learn that.
   */
  readonly primedBySnapshot: boolean;
  /**
   * Set when the watcher learns nothing from its snapshot: streams of one model with
   * equal keys cover the same entities, so streams that open together (a reconnect
   * storm after a restart, say) can share one snapshot.
   */
  readonly shareKey?: string;
  /**
   * The routes of the changes it can cover (routes.ts): the feed offers it only the
   * changes on one of them. Without routes it is offered every change of the model.
   */
  readonly routes?: Routes;
}

function tooBig(limit: number): never {
  throw new LifelineError(
    "INVALID_ARGUMENT",
    `the snapshot would hold more than ${limit} entities: narrow the stream (kinds, entities), or read the model in pages and subscribe with "since"`,
    { limit },
  );
}

/** `changes`: a model's rows, optionally of some kinds, some entity ids, some lives. */
export function modelChanges(filter: {
  kinds?: readonly EntityKind[] | null;
  entities?: readonly string[] | null;
  life?: readonly Life[] | null;
}): Watcher {
  const kinds = filter.kinds?.length ? new Set(filter.kinds) : null;
  const entities = filter.entities ? new Set(filter.entities) : null;
  const lives = filter.life ? new Set(filter.life) : null;
  // A removal always passes the life filter: a client must learn that what it holds is gone.
  const lifeMatches = (e: EntityEvent) => !lives || e.removed || (e.life !== null && lives.has(e.life));
  const sorted = (values: Set<string> | null) => (values ? [...values].sort() : null);
  const kindsCovered = [...(kinds ?? entityKinds)];
  const routes = entities
    ? new Routes(kindsCovered.flatMap((kind) => [...entities].map((id) => route.entity(kind, id))))
    : kinds
      ? new Routes(kindsCovered.map(route.kind))
      : undefined;
  return {
    primedBySnapshot: false,
    shareKey: JSON.stringify(["changes", sorted(kinds), sorted(entities), sorted(lives)]),
    ...(routes ? { routes } : {}),
    covers: (e) => (kinds ? kinds.has(e.kind) : e.kind !== "cleanup") && (!entities || entities.has(e.entity)) && lifeMatches(e),
    async snapshot(q, modelId, limit, _purpose, last) {
      const out: EntityEvent[] = [];
      const covered = [...(kinds ?? entityKinds)];
      for (const [i, kind] of covered.entries()) {
        const read = stateReaders[kind](q, modelId, entities ? { ids: [...entities] } : {}, limit - out.length + 1);
        const states = await (i === covered.length - 1 ? last(read) : read);
        for (const state of states) if (lifeMatches(state)) out.push(state);
        if (out.length > limit) tooBig(limit);
      }
      return out;
    },
  };
}

/**
 * A unit's own changes and its application's (what a unit agent watches first). Not the rows that say its agent is
 * lost: the agent reading them is connected, so such a row is stale (it was marked while its process could not reach
 * the database, and is about to be taken back), and it would hide the status the agent acts on (an error). The row
 * that says it is back carries that status again.
 */
export function unitLife(unit: string): Watcher {
  const application = unit.slice(0, unit.indexOf("/"));
  return {
    primedBySnapshot: false, // its snapshot only refuses a unit that does not exist; a resume must not
    // It learns nothing from its snapshot: one agent's streams opened a thousand times at once read it once.
    shareKey: JSON.stringify(["unitLife", unit]),
    routes: new Routes([route.entity("unit", unit), route.entity("application", application)]),
    covers: (e) =>
      (e.kind === "unit" && e.entity === unit && e.fields.agentStatus !== AGENT_LOST) ||
      (e.kind === "application" && e.entity === application),
    async snapshot(q, modelId, _limit, _purpose, last) {
      // Sent together: neither needs the other's answer.
      const [app, self] = await last(
        Promise.all([stateReaders.application(q, modelId, { ids: [application] }, 1), stateReaders.unit(q, modelId, { ids: [unit] }, 1)]),
      );
      if (self.length === 0) throw notFound("unit", unit);
      return [...app, ...self];
    },
  };
}

/**
 * A machine and every container nested in it, walked down `parent_id` (its index): `id LIKE '1/%'` could use no index
 * under the database's collation, and read every machine of the model for each machine agent's snapshot. Each step
 * is fenced (a lateral subquery with OFFSET 0) to its index lookup: while a new model's statistics still say it has
 * no machines, the planner otherwise read all of them for each snapshot (4 ms at 10,000 machines, against 0.02 ms).
 */
const machineAndNested = statement(["modelId", "id"], (db, p) =>
  db.select(columnsOf(machines, "tree")).from(
    sql`(with recursive tree as (
      select m.* from ${machines} m where m.model_id = ${p.modelId} and m.id = ${p.id}
      union all
      select c.* from tree t cross join lateral (select * from ${machines} c where c.model_id = ${p.modelId} and c.parent_id = t.id offset 0) c
    ) select * from tree) as tree`,
  ),
);

/** A table's columns read from `alias` (a subquery of its rows), each mapped as Drizzle maps the table's. */
function columnsOf<T extends Table>(table: T, alias: string) {
  const columns = getTableColumns(table);
  type Columns = typeof columns;
  return Object.fromEntries(
    Object.entries(columns).map(([key, column]) => [key, sql`${sql.identifier(alias)}.${sql.identifier(column.name)}`.mapWith(column)]),
  ) as { [K in keyof Columns]: SQL<Columns[K]["_"]["data"] | (Columns[K]["_"]["notNull"] extends true ? never : null)> };
}

/**
 * A machine's own changes and its containers' (all nested under it): what its
 * machine agent watches to know when it is Dying and when it holds nothing.
 * Juju's machine agent watches its machine and its containers, not the model's
 * machines: with N machine agents, a stream of every machine cost N².
 */
export function machineLife(machine: string): Watcher {
  const nested = `${machine}/`;
  return {
    primedBySnapshot: false,
    routes: new Routes([route.entity("machine", machine), route.containersOf(machine)]),
    covers: (e) => e.kind === "machine" && (e.entity === machine || e.entity.startsWith(nested)),
    async snapshot(q, modelId, _limit, _purpose, last) {
      // The rows themselves, in one read: a read of their ids and then of the rows took a round trip more.
      const rows = await last(machineAndNested(q, { modelId, id: machine }));
      if (!rows.some((m) => m.id === machine)) throw notFound("machine", machine);
      return rows.sort((a, b) => a.seq - b.seq).map(machineState);
    },
  };
}

const unitsOnMachine = statement(["modelId", "machine"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), eq(units.machineId, p.machine))),
);
/**
 * The subordinates of the units on a machine: in one statement with the principals' lookup, so that it goes with the
 * principals' read. Each principal's subordinates are fenced (a lateral subquery with OFFSET 0) to their index lookup,
 * as machineAndNested's steps are: asked as `principal in (select …)` or `= any(array(select …))`, a table without
 * statistics yet (a fresh PGlite store's, any store's before its first ANALYZE) was planned through every unit of the
 * model, one way or the other (18 ms a snapshot at 1,000 units on PGlite; test/machine-snapshot-reads.test.ts).
 */
const subordinatesOnMachine = statement(["modelId", "machine"], (db, p) =>
  db.select(columnsOf(units, "subordinate")).from(
    sql`(select s.* from ${units} principal
      cross join lateral (select * from ${units} s where s.model_id = ${p.modelId} and s.principal = principal.name offset 0) s
      where principal.model_id = ${p.modelId} and principal.machine_id = ${p.machine}) as subordinate`,
  ),
);

/** The units assigned to a machine: its principals, and their subordinates (what a machine agent deploys). */
export function machineUnits(machine: string): Watcher {
  const assigned = new Set<string>();
  // A unit's later rows name neither machine nor principal: once assigned, it is followed by name.
  const routes = new Routes([route.unitsOnMachine(machine)]);
  const assign = (unit: string) => {
    assigned.add(unit);
    routes.add(route.entity("unit", unit));
    routes.add(route.unitsOfPrincipal(unit));
  };
  const unassign = (unit: string) => {
    assigned.delete(unit);
    routes.delete(route.entity("unit", unit));
    routes.delete(route.unitsOfPrincipal(unit));
  };
  return {
    primedBySnapshot: true,
    routes,
    covers(e) {
      if (e.kind !== "unit") return false;
      const { machineId, principal } = e.fields;
      const ours = assigned.has(e.entity) || machineId === machine || (typeof principal === "string" && assigned.has(principal));
      if (!ours) return false;
      if (e.removed) unassign(e.entity);
      else assign(e.entity);
      return true;
    },
    async snapshot(q, modelId, _limit, _purpose, last) {
      // Sent together: the subordinates' read finds the principals itself.
      const [principals, subordinates] = await last(
        Promise.all([unitsOnMachine(q, { modelId, machine }), subordinatesOnMachine(q, { modelId, machine })]),
      );
      const all = [...principals, ...subordinates];
      for (const u of all) assign(u.name);
      // A subordinate here runs on this machine, its principal's.
      return all.map((u) => unitState(u, u.principal === null ? null : machine));
    },
  };
}

/** The relations an application takes part in (what the uniter watches to join and depart). */
export function applicationRelations(application: string): Watcher {
  const ours = new Set<string>();
  const ofApplication = (endpoint: string) => endpoint.startsWith(`${application}:`);
  // A relation's life rows name no endpoints: once known, it is followed by id.
  const routes = new Routes([route.relationsOf(application)]);
  const know = (relation: string) => {
    ours.add(relation);
    routes.add(route.entity("relation", relation));
  };
  return {
    primedBySnapshot: true,
    routes,
    covers(e) {
      if (e.kind !== "relation") return false;
      // A relation's key names its endpoints ("wordpress:db mysql:db"), and removal rows carry it.
      const { endpoints, key } = e.fields;
      const named = endpoints?.some(ofApplication) || key?.split(" ").some(ofApplication);
      if (!(ours.has(e.entity) || named)) return false;
      if (e.removed) {
        ours.delete(e.entity);
        routes.delete(route.entity("relation", e.entity));
      } else know(e.entity);
      return true;
    },
    async snapshot(q, modelId, _limit, _purpose, last) {
      // Sent together: the endpoints' read finds the application's relations itself.
      const [rows, ends] = await last(
        Promise.all([relationsOfApplication(q, { modelId, application }), endpointsOfApplicationRelations(q, { modelId, application })]),
      );
      const states = relationStatesOf(
        rows.map((r) => r.relation),
        ends,
      );
      for (const s of states) know(s.entity);
      return states;
    },
  };
}

// Every unit agent's streams start with these reads: statements built once (src/db/statement.ts).
const relationsOfApplication = statement(["modelId", "application"], (db, p) =>
  db
    .select({ relation: relations })
    .from(relations)
    .innerJoin(relationEndpoints, and(eq(relationEndpoints.modelId, relations.modelId), eq(relationEndpoints.relationId, relations.id)))
    .where(and(eq(relations.modelId, p.modelId), eq(relationEndpoints.application, p.application))),
);
/** Every endpoint of the relations an application takes part in (its own and their counterparts'); at most two each. */
const endpointsOfApplicationRelations = statement(["modelId", "application"], (db, p) =>
  db
    .select()
    .from(relationEndpoints)
    .where(
      and(
        eq(relationEndpoints.modelId, p.modelId),
        inArray(
          relationEndpoints.relationId,
          db
            .select({ id: relationEndpoints.relationId })
            .from(relationEndpoints)
            .where(and(eq(relationEndpoints.modelId, p.modelId), eq(relationEndpoints.application, p.application))),
        ),
      ),
    ),
);
/** A role's members with their settings' versions (null before any settings): one read, where two took a round trip each. */
const membersOfRoleWithSettings = (container: boolean) =>
  statement(["modelId", "relationId", "role", "container"], (db, p) =>
    db
      .select({ ...getTableColumns(relationScopes), settingsVersion: relationSettings.version })
      .from(relationScopes)
      .leftJoin(
        relationSettings,
        and(
          eq(relationSettings.modelId, relationScopes.modelId),
          eq(relationSettings.relationId, relationScopes.relationId),
          eq(relationSettings.unit, relationScopes.unit),
        ),
      )
      .where(
        and(
          eq(relationScopes.modelId, p.modelId),
          eq(relationScopes.relationId, p.relationId),
          eq(relationScopes.role, p.role),
          container ? eq(relationScopes.container, p.container) : undefined,
        ),
      )
      .orderBy(asc(relationScopes.unit)),
  );
const membersOfRole = membersOfRoleWithSettings(false);
const membersOfRoleIn = membersOfRoleWithSettings(true);
type MemberRow = Awaited<ReturnType<typeof membersOfRole>>[number];

/** Members as a snapshot holds them: each one's scope, then the settings of those that have any. */
const memberStates = (members: readonly MemberRow[]): EntityEvent[] => [
  ...members.map(scopeState),
  ...members.flatMap((m) =>
    m.settingsVersion === null ? [] : [settingsState({ relationId: m.relationId, unit: m.unit, version: m.settingsVersion })],
  ),
];

/**
 * A relation as one unit of it sees it (Juju's RelationUnitsWatcher): the relation's
 * own changes, the counterpart units entering and leaving its scope (only the
 * counterpart role, and for container-scoped relations only its own container), and
 * the settings versions of those units while they are in scope.
 */
export function relationUnits(relationId: number, unit: string): Watcher {
  let role: Role | null = null;
  let container: string | null = null; // set for container-scoped relations only
  const inScope = new Set<string>();
  // Its members' entries come on the route of the counterpart role (and container), which the
  // snapshot learns; each member's settings on that member's own route while it is in scope.
  const routes = new Routes([route.entity("relation", String(relationId))]);
  const enter = (member: string) => {
    inScope.add(member);
    routes.add(route.entity("settings", memberId(relationId, member)));
  };
  const leave = (member: string) => {
    inScope.delete(member);
    routes.delete(route.entity("settings", memberId(relationId, member)));
  };
  // Seed 002: providers observe requirers, requirers observe providers, peers observe each other.
  const visible = (member: { unit: string; role: Role; container: string | null }) =>
    member.unit !== unit &&
    role !== null &&
    member.role === counterpartRole(role) &&
    (container === null || member.container === container);
  return {
    primedBySnapshot: true,
    routes,
    covers(e) {
      switch (e.kind) {
        case "relation":
          return e.entity === String(relationId);
        case "scope":
          if (e.fields.relationId !== relationId || !visible(e.fields)) return false;
          if (e.removed) leave(e.fields.unit);
          else enter(e.fields.unit);
          return true;
        case "settings":
          return role !== null && e.fields.relationId === relationId && inScope.has(e.fields.unit);
        default:
          return false;
      }
    },
    async snapshot(q, modelId, _limit, purpose, last) {
      const application = unit.slice(0, unit.indexOf("/"));
      // Sent together, as none needs another's answer, and awaited in the order of their refusals. The unit is read
      // whatever the relation's scope, which only its row tells: a container-scoped relation needs its principal.
      const relationRead = relationsByIds(q, { modelId, ids: [relationId] });
      const endsRead = sentAhead(endpointsOfRelations(q, { modelId, ids: [relationId] }));
      const selfRead = sentAhead(unitsByNames(q, { modelId, names: [unit] }));
      const [relation] = await relationRead;
      // Resuming after the relation (or the unit) is gone: the relation's own rows still
      // pass (its removal is what the client needs); without a role, no member rows do.
      if (!relation) {
        if (purpose === "resume") return [];
        throw notFound("relation", String(relationId));
      }
      const ends = await endsRead;
      const own = ends.find((e) => e.application === application);
      if (!own)
        throw new LifelineError(
          "INVALID_ARGUMENT",
          `unit "${unit}" is not of an application in relation ${relationId} ("${relation.key}")`,
        );
      if (relation.scope === "container") {
        const [self] = await selfRead;
        if (!self) {
          if (purpose === "resume") return [];
          throw notFound("unit", unit);
        }
        container = self.principal ?? self.name;
      }
      role = own.role;
      routes.add(route.membersOf(relationId, counterpartRole(role), container));
      // Only the counterpart role (and container) is read: a unit of an application of 10,000 units in a relation with
      // one other unit reads that one member, not its 9,999 peers (every agent's snapshot read them all: N²).
      // With their settings' versions, and the COMMIT.
      const read = container === null ? membersOfRole : membersOfRoleIn;
      const members = await last(read(q, { modelId, relationId, role: counterpartRole(role), container }));
      const seen = members.filter(visible);
      for (const m of seen) enter(m.unit);
      return [...relationStatesOf([relation], ends), ...memberStates(seen)];
    },
  };
}

/** The unit's own endpoints: each relation of its application, with the role it plays there and the relation's scope. */
const ownEndpoints = statement(["modelId", "application"], (db, p) =>
  db
    .select({ relationId: relationEndpoints.relationId, role: relationEndpoints.role, scope: relations.scope })
    .from(relationEndpoints)
    .innerJoin(relations, and(eq(relations.modelId, relationEndpoints.modelId), eq(relations.id, relationEndpoints.relationId)))
    .where(and(eq(relationEndpoints.modelId, p.modelId), eq(relationEndpoints.application, p.application))),
);
/**
 * The members of every relation of a unit's application as that unit sees them: relationUnits for all of its relations
 * in one watcher, so that a unit agent's one stream (unitAgent) carries them. It follows a relation from its creation
 * (its row's key tells the unit's role, and names the application, so it travels on the application's relations route)
 * until its removal, whether or not the unit is in its scope yet: a relation created while the stream is open starts
 * with no members, so each reaches the stream as a change and no snapshot is needed mid-stream.
 */
export function relationMembers(unit: string): Watcher {
  const application = applicationOfUnit(unit);
  /** The container of the unit's container-scoped relations: its principal, or itself (learnt from its row). */
  let container: string | null = null;
  /** Per relation followed: the unit's role there, and the container its members must be in (null: any). */
  const followed = new Map<number, { role: Role; container: string | null }>();
  /** The members in scope now, by member id ("<relation id>:<unit>"), each with its relation. */
  const inScope = new Map<string, number>();
  const routes = new Routes([route.relationsOf(application)]);
  const membersRoute = (relationId: number, f: { role: Role; container: string | null }) =>
    route.membersOf(relationId, counterpartRole(f.role), f.container);
  const follow = (relationId: number, role: Role, scope: Scope) => {
    if (scope === Scope.Container && container === null) return; // the unit is gone: it has no container
    const f = { role, container: scope === Scope.Container ? container : null };
    followed.set(relationId, f);
    routes.add(membersRoute(relationId, f));
  };
  const enter = (member: string, relationId: number) => {
    inScope.set(member, relationId);
    routes.add(route.entity("settings", member));
  };
  const leave = (member: string) => {
    inScope.delete(member);
    routes.delete(route.entity("settings", member));
  };
  const unfollow = (relationId: number) => {
    const f = followed.get(relationId);
    if (!f) return;
    followed.delete(relationId);
    routes.delete(membersRoute(relationId, f));
    // Its members have left its scope before it goes; should any row be missing, nothing of it stays followed.
    for (const [member, of] of inScope) if (of === relationId) leave(member);
  };
  const visible = (member: { relationId: number; unit: string; role: Role; container: string | null }) => {
    const f = followed.get(member.relationId);
    return (
      f !== undefined &&
      member.unit !== unit &&
      member.role === counterpartRole(f.role) &&
      (f.container === null || member.container === f.container)
    );
  };
  return {
    primedBySnapshot: true,
    routes,
    covers(e) {
      switch (e.kind) {
        case "relation": {
          // Its own rows are applicationRelations'; here they only start and end what is followed.
          const id = Number(e.entity);
          if (e.removed) unfollow(id);
          else if (!followed.has(id) && e.fields.key !== undefined && e.fields.scope !== undefined) {
            const role = roleInKey(e.fields.key, application);
            if (role) follow(id, role, e.fields.scope);
          }
          return false;
        }
        case "scope":
          if (!visible(e.fields)) return false;
          if (e.removed) leave(e.entity);
          else enter(e.entity, e.fields.relationId);
          return true;
        case "settings":
          return inScope.has(e.entity);
        default:
          return false;
      }
    },
    async snapshot(q, modelId, _limit, _purpose, last) {
      // Two trips, as relationUnits takes: the unit's endpoints and its row, then each relation's members of the
      // counterpart role (and container) with their settings' versions, and the COMMIT. One statement joining the
      // three was planned as a scan of every scope of the model for each unit (the role it looks up comes from a join,
      // so PostgreSQL cannot tell a hub's one member from its 10,000 counterparts): settling 10,000 units cost
      // PostgreSQL 4.6 ms a unit more.
      const [endpoints, [self]] = await Promise.all([
        ownEndpoints(q, { modelId, application }),
        unitsByNames(q, { modelId, names: [unit] }),
      ]);
      container = self ? (self.principal ?? self.name) : null;
      for (const e of endpoints) follow(e.relationId, e.role, e.scope);
      const reads = [...followed].map(([relationId, f]) => {
        const role = counterpartRole(f.role);
        return (f.container === null ? membersOfRole : membersOfRoleIn)(q, { modelId, relationId, role, container: f.container });
      });
      const seen = (await last(Promise.all(reads))).flat().filter(visible);
      for (const m of seen) enter(memberId(m.relationId, m.unit), m.relationId);
      return memberStates(seen);
    },
  };
}

/**
 * Several watchers as one stream: what any of them covers, their snapshots read in the one transaction, one after
 * another in their order. An agent that watches two things (its machine, and the units it deploys) then keeps one stream
 * open, not two: each stream costs the server about 9 KiB however little it carries (docs/decisions.md, "Memory").
 */
export function together(...parts: Watcher[]): Watcher {
  const routes = parts.map((part) => part.routes);
  return {
    primedBySnapshot: parts.some((part) => part.primedBySnapshot),
    // Without routes a part is offered every change of the model, and so is the whole.
    ...(routes.every((r) => r !== undefined) && { routes: routesTogether(routes) }),
    // Every part hears every change it may cover, in order: a part that learns as it goes must not miss one.
    covers: (event) => parts.reduce((covered, part) => part.covers(event) || covered, false),
    async snapshot(q, modelId, limit, purpose, last) {
      // A resume reads only what primes a part: a part whose snapshot refuses an entity that is gone must not refuse the
      // resume, which the client makes to learn that.
      const reading = purpose === "resume" ? parts.filter((part) => part.primedBySnapshot) : parts;
      // Started together, so that their reads travel together; the COMMIT goes behind the final reads of the part that
      // reads last (a part may read in two trips: sent behind another's, it would leave that second trip outside).
      let reads = reading.length;
      const lastOfAll: Last = (final) => (--reads === 0 ? last(final) : final);
      const states = await Promise.all(reading.map((part) => part.snapshot(q, modelId, limit, purpose, lastOfAll)));
      return states.flat();
    },
  };
}
