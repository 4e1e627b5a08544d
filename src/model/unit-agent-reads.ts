// What the API reads of unit agents: what one starts from (handed with its
// credentials), their state documents (batched, for the dataloader), their hook
// runs, in keyset pages newest first, the hook history of units alive or removed,
// and the runs' juju-log lines (batched).

import { and, asc, desc, eq, gt, inArray, isNull, like, lt, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { applications, charms, hookLog, hookRuns, relationScopes, relations, unitAgentStates, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { AgentState } from "./agent-state.js";
import { cursorValue } from "./cursor.js";
import type { CharmRow, HookRunRow, Queryable, UnitRow } from "./rows.js";

/** Keys of model-scoped entities, as read.ts spells them: "<model uuid>:<id>". */
const keyOf = (modelId: string, id: string) => `${modelId}:${id}`;

// One text whatever the number of units (an array parameter), built once: every unit agent reads its own at start.
const agentStateRows = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(unitAgentStates)
    .where(and(eq(unitAgentStates.modelId, p.modelId), sql`${unitAgentStates.unit} = any(${p.names})`)),
);

/** Unit keys ("<model uuid>:<unit>") → each unit agent's state document, null when its agent has saved none. */
export async function agentStatesOf(db: Database, unitKeys: readonly string[]): Promise<(AgentState | null)[]> {
  const byModel = new Map<string, string[]>();
  for (const key of unitKeys) {
    const at = key.indexOf(":");
    byModel.set(key.slice(0, at), [...(byModel.get(key.slice(0, at)) ?? []), key.slice(at + 1)]);
  }
  const found = new Map<string, AgentState>();
  for (const [modelId, names] of byModel) {
    const rows = await agentStateRows(db, { modelId, names });
    for (const row of rows) found.set(keyOf(row.modelId, row.unit), row.state);
  }
  return unitKeys.map((key) => found.get(key) ?? null);
}

/**
 * The relations whose scope each of the units is in, by id, with their keys (what keeps a unit from becoming Dead, what
 * its agent departs). Read by the unit, so an agent in a relation of 10,000 members reads its own rows, not the members.
 */
export const scopesOfUnits = statement(["modelId", "names"], (db, p) =>
  db
    .select({ unit: relationScopes.unit, id: relations.id, key: relations.key })
    .from(relationScopes)
    .innerJoin(relations, and(eq(relations.modelId, relationScopes.modelId), eq(relations.id, relationScopes.relationId)))
    .where(and(eq(relationScopes.modelId, p.modelId), sql`${relationScopes.unit} = any(${p.names})`))
    .orderBy(asc(relations.id)),
);

/** Each of the units' charm, through its application (its hooks: what the agent runs, and what recordMissingHooks checks). */
export const charmsOfUnits = statement(["modelId", "names"], (db, p) =>
  db
    .select({ unit: units.name, charm: charms })
    .from(units)
    .innerJoin(applications, and(eq(applications.modelId, units.modelId), eq(applications.name, units.application)))
    .innerJoin(charms, and(eq(charms.modelId, applications.modelId), eq(charms.url, applications.charmUrl)))
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`)),
);

/** The ids of the relations whose scope a unit is in (Juju's RelationsInScope): what its agent must still depart. */
export async function relationsInScopeOf(q: Queryable, unit: Pick<UnitRow, "modelId" | "name">): Promise<number[]> {
  return (await scopesOfUnits(q, { modelId: unit.modelId, names: [unit.name] })).map((s) => s.id);
}

/** What a unit's agent starts from: its state document, the relations whose scope it is in, its charm. */
export interface UnitAgentStartup {
  agentState: AgentState | null;
  relationsInScope: number[];
  charm: CharmRow | null;
}

/**
 * The units' agents' start-up reads, in the order named: three statements however many units, sent together (to go
 * with the model's lock in the deployer's issueUnitCredentials and issueUnitsCredentials).
 */
export async function unitAgentStartupsOf(db: Queryable, modelId: string, names: readonly string[]): Promise<UnitAgentStartup[]> {
  const [states, scopes, charmRows] = await Promise.all([
    agentStateRows(db, { modelId, names }),
    scopesOfUnits(db, { modelId, names }),
    charmsOfUnits(db, { modelId, names }),
  ]);
  const state = new Map(states.map((row) => [row.unit, row.state]));
  const charm = new Map(charmRows.map((row) => [row.unit, row.charm]));
  const inScope = new Map<string, number[]>();
  for (const { unit, id } of scopes) inScope.set(unit, [...(inScope.get(unit) ?? []), id]);
  return names.map((unit) => ({
    agentState: state.get(unit) ?? null,
    relationsInScope: inScope.get(unit) ?? [],
    charm: charm.get(unit) ?? null,
  }));
}

type Window = { after?: string | undefined; before?: string | undefined; limit: number; inverted: boolean };

/** A keyset page of runs by id: newest first, or oldest first when `oldestFirst`; reversed when `inverted`. */
function runsPage(db: Database, where: (SQL | undefined)[], window: Window, oldestFirst = false): Promise<HookRunRow[]> {
  const bounds = [...where];
  const after = cursorValue(window.after);
  const before = cursorValue(window.before);
  // Newest first: "after" a run means older than it; oldest first, newer.
  if (after !== undefined) bounds.push(oldestFirst ? gt(hookRuns.id, after) : lt(hookRuns.id, after));
  if (before !== undefined) bounds.push(oldestFirst ? lt(hookRuns.id, before) : gt(hookRuns.id, before));
  return db
    .select()
    .from(hookRuns)
    .where(and(...bounds))
    .orderBy(window.inverted !== oldestFirst ? asc(hookRuns.id) : desc(hookRuns.id))
    .limit(window.limit);
}

/**
 * A page of a model's hook runs, or one unit's, newest first (oldest first when `inverted`); cursors are run ids. Only
 * living units' runs: a removed unit's are history (hookHistoryPage).
 */
export function hookRunsPage(db: Database, of: { modelId: string; unit?: string | null }, window: Window): Promise<HookRunRow[]> {
  return runsPage(
    db,
    [eq(hookRuns.modelId, of.modelId), of.unit ? eq(hookRuns.unit, of.unit) : undefined, isNull(hookRuns.unitRemovedAt)],
    window,
  );
}

/** Escapes LIKE's wildcards in a name used as a prefix. */
const likePrefix = (name: string) => `${name.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;

/**
 * A page of a model's hook history (Juju's show-status-log, debug-log --replay): the runs of units alive or removed,
 * of one unit name or one application's units when given, newest first or oldest first; cursors are run ids.
 */
export function hookHistoryPage(
  db: Database,
  of: { modelId: string; unit?: string | null; application?: string | null },
  window: Window,
  oldestFirst: boolean,
): Promise<HookRunRow[]> {
  return runsPage(
    db,
    [
      eq(hookRuns.modelId, of.modelId),
      of.unit ? eq(hookRuns.unit, of.unit) : undefined,
      of.application ? like(hookRuns.unit, likePrefix(of.application)) : undefined,
    ],
    window,
    oldestFirst,
  );
}

/** One juju-log line of a run. */
export type HookLogLine = typeof hookLog.$inferSelect;

/** Runs (by id) → their juju-log lines, in the order they were sent: for the dataloader, one statement a batch. */
export async function hookLogsOf(db: Database, runIds: readonly number[]): Promise<HookLogLine[][]> {
  const rows = await db
    .select()
    .from(hookLog)
    .where(inArray(hookLog.runId, runIds.map(Number)))
    .orderBy(asc(hookLog.runId), asc(hookLog.seq));
  const byRun = new Map<number, HookLogLine[]>();
  for (const row of rows) {
    const lines = byRun.get(row.runId);
    if (lines) lines.push(row);
    else byRun.set(row.runId, [row]);
  }
  return runIds.map((id) => byRun.get(Number(id)) ?? []);
}
