// The read side `juju status` needs: batch look-ups by key (one query per
// batch, for the API's dataloaders) and keyset pages in creation order, so a
// model with 100,000 units is read a page at a time.

import { and, asc, desc, eq, gt, type InferSelectModel, inArray, isNull, lt, ne, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { LifelineError, notFound } from "../core/errors.js";
import type { Database } from "../db/connect.js";
import { readTogether } from "../db/read-together.js";
import {
  applications,
  charms,
  machines,
  models,
  relationEndpoints,
  relationScopes,
  relationSettings,
  relations,
  units,
} from "../db/schema.js";
import { statement } from "../db/statement.js";
import { cursorValue } from "./cursor.js";
import { checkApplicationName, checkModelName } from "./names.js";
import type { ApplicationRow, CharmRow, MachineRow, ModelRow, RelationRow, ScopeRow, SettingsRow, UnitRow } from "./rows.js";

/** Keys of model-scoped entities: "<model uuid>:<id>" (uuids hold no colon; ids may hold slashes). */
export const entityKey = (modelId: string, id: string | number) => `${modelId}:${id}`;
const splitKey = (key: string) => {
  const at = key.indexOf(":");
  return { modelId: key.slice(0, at), id: key.slice(at + 1) };
};

/** Entity keys grouped by model: one query per model keeps each on one index range. */
function keysByModel(keys: readonly string[]): Map<string, string[]> {
  const byModel = new Map<string, string[]>();
  for (const key of keys) {
    const { modelId, id } = splitKey(key);
    const ids = byModel.get(modelId);
    if (ids) ids.push(id);
    else byModel.set(modelId, [id]);
  }
  return byModel;
}

/** Rows for keys that share a model per query; returned grouped by model to keep each query on one index range. */
async function byKeys<R>(
  keys: readonly string[],
  fetch: (modelId: string, ids: string[]) => Promise<R[]>,
  keyOf: (row: R) => string,
): Promise<(R | null)[]> {
  const found = new Map<string, R>();
  for (const [modelId, ids] of keysByModel(keys)) for (const row of await fetch(modelId, ids)) found.set(keyOf(row), row);
  return keys.map((key) => found.get(key) ?? null);
}

// The loaders' statements: a batch's keys go as one array parameter, so each has one text whatever the batch's size.
const modelsWithIds = statement(["ids"], (db, p) => db.select().from(models).where(sql`${models.id} = any(${p.ids})`));
const modelsWithNames = statement(["names"], (db, p) => db.select().from(models).where(sql`${models.name} = any(${p.names})`));
const machinesWithIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = any(${p.ids})`)),
);
const applicationsWithNames = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(applications)
    .where(and(eq(applications.modelId, p.modelId), sql`${applications.name} = any(${p.names})`)),
);
const unitsWithNames = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`)),
);
const relationsWithIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(relations)
    .where(and(eq(relations.modelId, p.modelId), sql`${relations.id} = any(${p.ids})`)),
);
const charmsWithUrls = statement(["modelId", "urls"], (db, p) =>
  db
    .select()
    .from(charms)
    .where(and(eq(charms.modelId, p.modelId), sql`${charms.url} = any(${p.urls})`)),
);

export const loadModels = async (db: Database, ids: readonly string[]): Promise<(ModelRow | null)[]> => {
  const rows = new Map((await modelsWithIds(db, { ids: [...ids] })).map((r) => [r.id, r]));
  return ids.map((id) => rows.get(id) ?? null);
};

export const loadModelsByName = async (db: Database, names: readonly string[]): Promise<(ModelRow | null)[]> => {
  const rows = new Map((await modelsWithNames(db, { names: [...names] })).map((r) => [r.name, r]));
  return names.map((name) => rows.get(name) ?? null);
};

export const loadMachines = (db: Database, keys: readonly string[]) =>
  byKeys<MachineRow>(
    keys,
    (modelId, ids) => machinesWithIds(db, { modelId, ids }),
    (r) => entityKey(r.modelId, r.id),
  );

export const loadApplications = (db: Database, keys: readonly string[]) =>
  byKeys<ApplicationRow>(
    keys,
    (modelId, names) => applicationsWithNames(db, { modelId, names }),
    (r) => entityKey(r.modelId, r.name),
  );

export const loadUnits = (db: Database, keys: readonly string[]) =>
  byKeys<UnitRow>(
    keys,
    (modelId, names) => unitsWithNames(db, { modelId, names }),
    (r) => entityKey(r.modelId, r.name),
  );

export const loadRelations = (db: Database, keys: readonly string[]) =>
  byKeys<RelationRow>(
    keys,
    (modelId, ids) => relationsWithIds(db, { modelId, ids: ids.map(Number).filter(Number.isInteger) }),
    (r) => entityKey(r.modelId, r.id),
  );

export const loadCharms = (db: Database, keys: readonly string[]) =>
  byKeys<CharmRow>(
    keys,
    (modelId, urls) => charmsWithUrls(db, { modelId, urls }),
    (r) => entityKey(r.modelId, r.url),
  );

/** Relation keys "<model>:<id>" → that relation's endpoints. */
export const relationEndpointsFor = (db: Database, relationKeys: readonly string[]) =>
  groupBy(
    relationKeys,
    (modelId, ids) =>
      db
        .select()
        .from(relationEndpoints)
        .where(and(eq(relationEndpoints.modelId, modelId), inArray(relationEndpoints.relationId, ids.map(Number)))),
    (r) => entityKey(r.modelId, r.relationId),
  );

/** Application keys → the relations they take part in. */
export const relationsOfApplications = (db: Database, appKeys: readonly string[]) =>
  groupBy(
    appKeys,
    (modelId, names) =>
      db
        .select({ relation: relations, application: relationEndpoints.application })
        .from(relationEndpoints)
        .innerJoin(relations, and(eq(relations.modelId, relationEndpoints.modelId), eq(relations.id, relationEndpoints.relationId)))
        .where(and(eq(relationEndpoints.modelId, modelId), inArray(relationEndpoints.application, names)))
        .orderBy(asc(relations.id)),
    (r) => entityKey(r.relation.modelId, r.application),
  ).then((groups) => groups.map((rows) => rows.map((r) => r.relation)));

/** Machine keys → the principal units assigned to each. */
export const unitsOnMachines = (db: Database, machineKeys: readonly string[]) =>
  groupBy(
    machineKeys,
    (modelId, ids) =>
      db
        .select()
        .from(units)
        .where(and(eq(units.modelId, modelId), inArray(units.machineId, ids)))
        .orderBy(asc(units.seq)),
    (r) => entityKey(r.modelId, r.machineId!),
  );

/** Machine keys → their containers. */
export const containersOfMachines = (db: Database, machineKeys: readonly string[]) =>
  groupBy(
    machineKeys,
    (modelId, ids) =>
      db
        .select()
        .from(machines)
        .where(and(eq(machines.modelId, modelId), inArray(machines.parentId, ids)))
        .orderBy(asc(machines.seq)),
    (r) => entityKey(r.modelId, r.parentId!),
  );

/** Principal unit keys → their subordinate units. */
export const subordinatesOfUnits = (db: Database, unitKeys: readonly string[]) =>
  groupBy(
    unitKeys,
    (modelId, names) =>
      db
        .select()
        .from(units)
        .where(and(eq(units.modelId, modelId), inArray(units.principal, names)))
        .orderBy(asc(units.seq)),
    (r) => entityKey(r.modelId, r.principal!),
  );

async function groupBy<R>(
  keys: readonly string[],
  fetch: (modelId: string, ids: string[]) => Promise<R[]>,
  keyOf: (row: R) => string,
): Promise<R[][]> {
  const groups = new Map<string, R[]>();
  for (const [modelId, ids] of keysByModel(keys))
    for (const row of await fetch(modelId, ids)) {
      const key = keyOf(row);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
  return keys.map((key) => groups.get(key) ?? []);
}

/** The window of a keyset page, as Pothos' resolveCursorConnection hands it over. */
export interface PageWindow {
  after?: string | undefined;
  before?: string | undefined;
  limit: number;
  inverted: boolean;
}

type Paged = PgTable & { seq: AnyPgColumn };

/** One page of `table` in creation order (reversed when `inverted`), with `where` applied. */
async function page<T extends Paged>(db: Database, table: T, where: SQL | undefined, window: PageWindow): Promise<InferSelectModel<T>[]> {
  const bounds: (SQL | undefined)[] = [where];
  const after = cursorValue(window.after);
  const before = cursorValue(window.before);
  if (after !== undefined) bounds.push(gt(table.seq, after));
  if (before !== undefined) bounds.push(lt(table.seq, before));
  return db
    .select()
    .from(table as PgTable)
    .where(and(...bounds))
    .orderBy(window.inverted ? desc(table.seq) : asc(table.seq))
    .limit(window.limit) as unknown as Promise<InferSelectModel<T>[]>;
}

/** Models in creation order; only those named when `names` is given (the models a caller's credentials reach). */
export const modelsPage = (db: Database, window: PageWindow, names?: readonly string[] | null) =>
  page(db, models, names ? inArray(models.name, [...names]) : undefined, window);

export const machinesPage = (db: Database, model: ModelRow, filter: { topLevelOnly?: boolean | null }, window: PageWindow) =>
  page(db, machines, and(eq(machines.modelId, model.id), filter.topLevelOnly ? isNull(machines.parentId) : undefined), window);

export const applicationsPage = (db: Database, model: ModelRow, window: PageWindow) =>
  page(db, applications, eq(applications.modelId, model.id), window);

/** A model's units, or one application's. */
export const unitsPage = (db: Database, of: { modelId: string; application?: string | null }, window: PageWindow) =>
  page(
    db,
    units,
    and(eq(units.modelId, of.modelId), of.application ? eq(units.application, checkApplicationName(of.application)) : undefined),
    window,
  );

export const relationsPage = (db: Database, model: ModelRow, window: PageWindow) =>
  page(db, relations, eq(relations.modelId, model.id), window);

export const charmsPage = (db: Database, model: ModelRow, filter: { name?: string | null }, window: PageWindow) =>
  page(db, charms, and(eq(charms.modelId, model.id), filter.name ? eq(charms.name, filter.name) : undefined), window);

/** Models by name, the names asked for in the same turn read together (read-together.ts): every stream opens with one. */
const modelByName = readTogether(loadModelsByName);

/** A model by name, or NOT_FOUND. */
export async function modelNamed(db: Database, name: string): Promise<ModelRow> {
  const model = await modelByName(db, checkModelName(name));
  if (!model) throw notFound("model", name);
  return model;
}

/** A relation by its canonical key, or NOT_FOUND. */
export async function relationWithKey(db: Database, model: ModelRow, key: string): Promise<RelationRow> {
  const [row] = await db
    .select()
    .from(relations)
    .where(and(eq(relations.modelId, model.id), eq(relations.key, key)));
  if (!row) throw new LifelineError("NOT_FOUND", `relation "${key}" not found in model "${model.name}"`);
  return row;
}

/** The units in a relation's scope, by name. */
export const scopeMembers = (db: Database, relation: RelationRow): Promise<ScopeRow[]> =>
  db
    .select()
    .from(relationScopes)
    .where(and(eq(relationScopes.modelId, relation.modelId), eq(relationScopes.relationId, relation.id)))
    .orderBy(relationScopes.unit);

/** A unit's settings in a relation (relation-get), or null. */
export async function unitSettings(db: Database, relation: RelationRow, unit: string): Promise<SettingsRow | null> {
  const [row] = await db
    .select()
    .from(relationSettings)
    .where(
      and(eq(relationSettings.modelId, relation.modelId), eq(relationSettings.relationId, relation.id), eq(relationSettings.unit, unit)),
    );
  return row ?? null;
}

/** The names of the models not yet Dead, oldest first: the ones whose agents run (a Dying model needs them to take it apart). */
export async function modelsNotDead(db: Database): Promise<string[]> {
  const rows = await db.select({ name: models.name }).from(models).where(ne(models.life, "dead")).orderBy(asc(models.seq));
  return rows.map((r) => r.name);
}
