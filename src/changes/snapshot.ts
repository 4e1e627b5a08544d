// The current state of entities, as STATE events: what a fresh stream sends before
// its first CHANGE. The fields are typed by the same kinds the change rows use
// (change.ts), so a client applies a STATE event and a CHANGE event with the same code.
import { type AnyColumn, and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { effectiveConfig } from "../core/config.js";
import {
  applications,
  charms,
  cleanups,
  hookRuns,
  machines,
  models,
  relationEndpoints,
  relationScopes,
  relationSettings,
  relations,
  units,
} from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { DbTx } from "./append.js";
import {
  cleanupFields,
  configIfSmall,
  type EntityKind,
  hookRunFields,
  machineStartFields,
  machineStatusFields,
  memberId,
  unitAgentFields,
  unitWorkloadFields,
} from "./change.js";
import { type EntityEvent, stateEvent } from "./stream-event.js";

/** Entities of one kind, restricted by `where`, at most `limit` of them. */
export type StateReader = (q: DbTx, modelId: string, where: StateFilter, limit: number) => Promise<EntityEvent[]>;

export interface StateFilter {
  /** Entity ids as change rows spell them ("wordpress/0", "3", "3:wordpress/0"). */
  ids?: readonly string[];
}

const spell = (e: { application: string; name: string }) => `${e.application}:${e.name}`;

/** "3:wordpress/0" → [3, "wordpress/0"], or null when it is not a member id. */
export function parseMemberId(id: string): [number, string] | null {
  const at = id.indexOf(":");
  const relationId = Number(id.slice(0, at));
  return at > 0 && Number.isInteger(relationId) ? [relationId, id.slice(at + 1)] : null;
}

/**
 * `column = any($1)`: a list as one array parameter. `inArray` sends a parameter an element, and a stream naming
 * 100,000 entities went past PostgreSQL's 65,535 parameters a statement and overflowed the stack building them.
 */
const anyOf = (column: AnyColumn, values: readonly unknown[]): SQL => sql`${column} = any(${sql.param(values)})`;

function memberCondition(table: typeof relationScopes | typeof relationSettings, ids: readonly string[] | undefined): SQL | undefined {
  if (!ids) return undefined;
  const members = memberUnits(ids);
  return members.length === 0 ? sql`false` : anyOf(table.unit, members);
}

/** The units that member ids ("<relation id>:<unit>") name: rows are narrowed by unit, and the exact pairs matched on them. */
function memberUnits(ids: readonly string[]): string[] {
  return ids.map(parseMemberId).flatMap((pair) => (pair ? [pair[1]] : []));
}

/**
 * Rows read by id, put in creation order here rather than by `ORDER BY seq LIMIT n`: with that, the planner walked
 * the model's whole seq index looking for the few ids (stale statistics, autovacuum off), so every machine agent's
 * snapshot read every machine (N² at 10,000 machines). By id, the primary key finds them.
 */
function inCreationOrder<T>(rows: T[], seq: (row: T) => number, limit: number): T[] {
  return rows.sort((a, b) => seq(a) - seq(b)).slice(0, limit);
}

// Reads by id as statements built once (src/db/statement.ts): a list goes as one array parameter (`= any($n)`), so
// each has one text whatever the list's length. Every agent's stream starts with one of these.
const modelById = statement(["id"], (db, p) => db.select().from(models).where(eq(models.id, p.id)));
const machinesByIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = any(${p.ids})`)),
);
export const unitsByNames = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`)),
);
export const relationsByIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(relations)
    .where(and(eq(relations.modelId, p.modelId), sql`${relations.id} = any(${p.ids})`)),
);
export const endpointsOfRelations = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, p.modelId), sql`${relationEndpoints.relationId} = any(${p.ids})`)),
);

/** Applications by name, each with its charm's config options. */
const applicationsByNames = statement(["modelId", "names"], (db, p) =>
  db
    .select({ a: applications, options: charms.config })
    .from(applications)
    .innerJoin(charms, and(eq(charms.modelId, applications.modelId), eq(charms.url, applications.charmUrl)))
    .where(and(eq(applications.modelId, p.modelId), sql`${applications.name} = any(${p.names})`)),
);

/** Settings versions of these units (every unit agent's relation streams read their members'), in key order. */
const settingsOfUnits = statement(["modelId", "units", "limit"], (db, p) =>
  db
    .select({ relationId: relationSettings.relationId, unit: relationSettings.unit, version: relationSettings.version })
    .from(relationSettings)
    .where(and(eq(relationSettings.modelId, p.modelId), sql`${relationSettings.unit} = any(${p.units})`))
    .orderBy(asc(relationSettings.relationId), asc(relationSettings.unit))
    .limit(p.limit),
);

export const stateReaders: Record<EntityKind, StateReader> = {
  async model(q, modelId, where) {
    const rows = await modelById(q, { id: modelId });
    return rows
      .filter((m) => !where.ids || where.ids.includes(m.name))
      .map((m) =>
        stateEvent("model", m.name, m.life, {
          defaultSeries: m.defaultSeries,
          constraints: m.constraints,
          automaticallyRetryHooks: m.automaticallyRetryHooks,
        }),
      );
  },
  async machine(q, modelId, where, limit) {
    const rows = where.ids
      ? inCreationOrder(await machinesByIds(q, { modelId, ids: [...where.ids] }), (m) => m.seq, limit)
      : await q.select().from(machines).where(eq(machines.modelId, modelId)).orderBy(asc(machines.seq)).limit(limit);
    return rows.map(machineState);
  },
  async charm(q, modelId, where, limit) {
    const columns = {
      seq: charms.seq,
      url: charms.url,
      name: charms.name,
      revision: charms.revision,
      subordinate: charms.subordinate,
      series: charms.series,
    };
    const select = (condition?: SQL) =>
      q
        .select(columns)
        .from(charms)
        .where(and(eq(charms.modelId, modelId), condition));
    const rows = where.ids
      ? inCreationOrder(await select(anyOf(charms.url, where.ids)), (c) => c.seq, limit)
      : await select().orderBy(asc(charms.seq)).limit(limit);
    return rows.map((c) =>
      stateEvent("charm", c.url, null, { name: c.name, revision: c.revision, subordinate: c.subordinate, series: c.series }),
    );
  },
  async application(q, modelId, where, limit) {
    const rows = where.ids
      ? inCreationOrder(await applicationsByNames(q, { modelId, names: [...where.ids] }), (r) => r.a.seq, limit)
      : await q
          .select({ a: applications, options: charms.config })
          .from(applications)
          .innerJoin(charms, and(eq(charms.modelId, applications.modelId), eq(charms.url, applications.charmUrl)))
          .where(eq(applications.modelId, modelId))
          .orderBy(asc(applications.seq))
          .limit(limit);
    return rows.map(({ a, options }) =>
      stateEvent("application", a.name, a.life, {
        charmUrl: a.charmUrl,
        series: a.series,
        subordinate: a.subordinate,
        constraints: a.constraints,
        unitCount: a.unitCount,
        relationCount: a.relationCount,
        configVersion: a.configVersion,
        ...configIfSmall(effectiveConfig(options, a.config)),
      }),
    );
  },
  async unit(q, modelId, where, limit) {
    const rows = where.ids
      ? inCreationOrder(await unitsByNames(q, { modelId, names: [...where.ids] }), (u) => u.seq, limit)
      : await q.select().from(units).where(eq(units.modelId, modelId)).orderBy(asc(units.seq)).limit(limit);
    return unitStates(q, modelId, rows);
  },
  async relation(q, modelId, where, limit) {
    const ids = where.ids?.map(Number).filter(Number.isInteger);
    const rows = ids
      ? inCreationOrder(await relationsByIds(q, { modelId, ids }), (r) => r.seq, limit)
      : await q.select().from(relations).where(eq(relations.modelId, modelId)).orderBy(asc(relations.seq)).limit(limit);
    return relationStates(q, modelId, rows);
  },
  async scope(q, modelId, where, limit) {
    const rows = await q
      .select()
      .from(relationScopes)
      .where(and(eq(relationScopes.modelId, modelId), memberCondition(relationScopes, where.ids)))
      .orderBy(asc(relationScopes.relationId), asc(relationScopes.unit))
      .limit(limit);
    return rows.map(scopeState).filter((e) => !where.ids || where.ids.includes(e.entity));
  },
  async settings(q, modelId, where, limit) {
    const members = where.ids && memberUnits(where.ids);
    const rows = members
      ? await settingsOfUnits(q, { modelId, units: members, limit })
      : await q
          .select({ relationId: relationSettings.relationId, unit: relationSettings.unit, version: relationSettings.version })
          .from(relationSettings)
          .where(eq(relationSettings.modelId, modelId))
          .orderBy(asc(relationSettings.relationId), asc(relationSettings.unit))
          .limit(limit);
    return rows.map(settingsState).filter((e) => !where.ids || where.ids.includes(e.entity));
  },
  /** The model's queued cleanups, oldest first: what a starting cleaner has to run. */
  async cleanup(q, modelId, where, limit) {
    const ids = where.ids?.map(Number).filter(Number.isSafeInteger);
    const rows = await q
      .select({ id: cleanups.id, kind: cleanups.kind, target: cleanups.target, dueAt: cleanups.dueAt })
      .from(cleanups)
      .where(and(eq(cleanups.modelId, modelId), ids ? anyOf(cleanups.id, ids) : undefined))
      .orderBy(asc(cleanups.id))
      .limit(limit);
    return rows.map((c) => stateEvent("cleanup", String(c.id), null, cleanupFields(c)));
  },
  /** Each living unit's latest run only: a snapshot is bounded by the units, not by how many hooks ran. */
  async hook(q, modelId, where, limit) {
    const rows = await q
      .selectDistinctOn([hookRuns.unit])
      .from(hookRuns)
      .where(
        and(
          eq(hookRuns.modelId, modelId),
          // A removed unit's runs are history (Model.hookHistory), not a unit's latest.
          isNull(hookRuns.unitRemovedAt),
          where.ids ? anyOf(hookRuns.unit, where.ids) : undefined,
        ),
      )
      .orderBy(asc(hookRuns.unit), desc(hookRuns.id))
      .limit(limit);
    return rows.map((r) => stateEvent("hook", r.unit, null, hookRunFields(r)));
  },
};

/** A member's settings, by their version (what an agent compares to know they changed). */
export const settingsState = (s: { relationId: number; unit: string; version: number }) =>
  stateEvent("settings", memberId(s.relationId, s.unit), null, { relationId: s.relationId, unit: s.unit, version: s.version });

export const machineState = (m: typeof machines.$inferSelect) =>
  stateEvent("machine", m.id, m.life, {
    series: m.series,
    jobs: m.jobs,
    constraints: m.constraints,
    parentId: m.parentId,
    containerType: m.containerType,
    instanceId: m.instanceId,
    ...machineStatusFields(m),
    ...machineStartFields(m),
  });

/** Units as STATE events, each subordinate with its principal's machine (one read, only when there are subordinates). */
async function unitStates(q: DbTx, modelId: string, rows: (typeof units.$inferSelect)[]): Promise<EntityEvent[]> {
  const principals = [...new Set(rows.flatMap((u) => (u.principal === null ? [] : [u.principal])))];
  const hosts = new Map(
    principals.length === 0 ? [] : (await unitsByNames(q, { modelId, names: principals })).map((p) => [p.name, p.machineId]),
  );
  return rows.map((u) => unitState(u, u.principal === null ? null : (hosts.get(u.principal) ?? null)));
}

/** A unit as a STATE event; `host`: a subordinate's principal's machine. */
export const unitState = (u: typeof units.$inferSelect, host: string | null = null) =>
  stateEvent("unit", u.name, u.life, {
    application: u.application,
    series: u.series,
    machineId: u.machineId,
    principal: u.principal,
    ...(u.principal !== null && { hostMachineId: host }),
    ...unitWorkloadFields(u),
    ...unitAgentFields(u),
  });

export const scopeState = (s: typeof relationScopes.$inferSelect) =>
  stateEvent("scope", memberId(s.relationId, s.unit), "alive", {
    relationId: s.relationId,
    unit: s.unit,
    application: s.application,
    role: s.role,
    container: s.container,
  });

export async function relationStates(q: DbTx, modelId: string, rows: (typeof relations.$inferSelect)[]): Promise<EntityEvent[]> {
  if (rows.length === 0) return [];
  return relationStatesOf(rows, await endpointsOfRelations(q, { modelId, ids: rows.map((r) => r.id) }));
}

/** Relations as STATE events, given their endpoints (read by the caller, with other reads). */
export function relationStatesOf(
  rows: (typeof relations.$inferSelect)[],
  ends: readonly (typeof relationEndpoints.$inferSelect)[],
): EntityEvent[] {
  return rows.map((r) =>
    stateEvent("relation", String(r.id), r.life, {
      key: r.key,
      scope: r.scope,
      interface: r.interface,
      endpoints: ends.filter((e) => e.relationId === r.id).map(spell),
      unitCount: r.unitCount,
    }),
  );
}
