// Finding an entity by its Juju id inside an operation: the row, or NOT_FOUND
// (INVALID_ID first when the id is malformed); the `Alive` variants refuse an
// entity that is Dying or Dead, for operations that add to it.
import { and, eq, sql } from "drizzle-orm";
import { LifelineError, notAlive, notFound, shortQuote, tooManyACall } from "../core/errors.js";
import { Life } from "../core/life.js";
import { applications, machines, relations, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Footprint } from "./footprint.js";
import { checkApplicationName, checkMachineId, parseUnitName } from "./names.js";
import type { ApplicationRow, MachineRow, ModelRow, RelationRow, UnitRow } from "./rows.js";
import { type InModel, type ModelKey, type ModelLifeNeeded, modelOperationReading, type Operation, type Tx } from "./write/index.js";

const machineRow = statement(["modelId", "id"], (db, p) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), eq(machines.id, p.id))),
);
const machineRows = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = any(${p.ids}::text[])`)),
);
const applicationRow = statement(["modelId", "name"], (db, p) =>
  db
    .select()
    .from(applications)
    .where(and(eq(applications.modelId, p.modelId), eq(applications.name, p.name))),
);
/** The relations of these ids in the model, in no order; one statement however many. */
export const relationsByIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(relations)
    .where(and(eq(relations.modelId, p.modelId), sql`${relations.id} = any(${p.ids}::int[])`)),
);
const unitRow = statement(["modelId", "name"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), eq(units.name, p.name))),
);

export async function getMachine(tx: Tx, model: ModelKey, id: string): Promise<MachineRow> {
  checkMachineId(id);
  const [machine] = await machineRow(tx.db, { modelId: model.id, id });
  if (!machine) throw notFound("machine", id, model.name);
  return machine;
}

/** Machines by id, in the order named, in one read: INVALID_ID for the first malformed id, else NOT_FOUND for the first missing. */
export async function getMachines(tx: Tx, model: ModelKey, ids: readonly string[]): Promise<MachineRow[]> {
  for (const id of ids) checkMachineId(id);
  const byId = new Map((await machineRows(tx.db, { modelId: model.id, ids: [...ids] })).map((m) => [m.id, m]));
  return ids.map((id) => {
    const machine = byId.get(id);
    if (!machine) throw notFound("machine", id, model.name);
    return machine;
  });
}

export async function getAliveMachine(tx: Tx, model: ModelKey, id: string): Promise<MachineRow> {
  const machine = await getMachine(tx, model, id);
  if (machine.life !== Life.Alive) throw notAlive("machine", id, machine.life);
  return machine;
}

export async function getApplication(tx: Tx, model: ModelKey, name: string): Promise<ApplicationRow> {
  checkApplicationName(name);
  const [app] = await applicationRow(tx.db, { modelId: model.id, name });
  if (!app) throw notFound("application", name, model.name);
  return app;
}

export async function getAliveApplication(tx: Tx, model: ModelKey, name: string): Promise<ApplicationRow> {
  const app = await getApplication(tx, model, name);
  if (app.life !== Life.Alive) throw notAlive("application", name, app.life);
  return app;
}

export async function getUnit(tx: Tx, model: ModelKey, name: string): Promise<UnitRow> {
  parseUnitName(name);
  const [unit] = await unitRow(tx.db, { modelId: model.id, name });
  if (!unit) throw notFound("unit", name, model.name);
  return unit;
}

/** Units by name, in any order. */
const unitRows = statement(["modelId", "names"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`)),
);

/** The most units one call of a bulk unit operation names (several agents' calls gathered: src/agents/request-slots.ts). */
export const MAX_UNITS_A_CALL = 100;

/** Units by name, in the order named, read in one statement: NOT_FOUND for the first one missing in that order. */
export async function getUnits(tx: Tx, model: ModelKey, names: readonly string[]): Promise<UnitRow[]> {
  namedOnce("unit", names, MAX_UNITS_A_CALL, parseUnitName);
  const found = new Map((await unitRows(tx.db, { modelId: model.id, names })).map((unit) => [unit.name, unit]));
  return names.map((name) => {
    const unit = found.get(name);
    if (!unit) throw notFound("unit", name, model.name);
    return unit;
  });
}

export async function getRelation(tx: Tx, model: ModelKey, id: number): Promise<RelationRow> {
  if (!Number.isInteger(id) || id < 0) throw new LifelineError("INVALID_ID", `invalid relation id ${id}: expected a non-negative integer`);
  const relation = await findRelation(tx, model, id);
  if (!relation) throw notFound("relation", String(id), model.name);
  return relation;
}

/** A relation by a well-formed id, or undefined when there is none. */
export async function findRelation(tx: Tx, model: ModelKey, id: number): Promise<RelationRow | undefined> {
  const [relation] = await relationsByIds(tx.db, { modelId: model.id, ids: [id] });
  return relation;
}

/**
 * An operation on one unit (`input.unit`): its row is read with the model's lock (modelOperationReading). `check`
 * refuses bad input before the unit is read, so its refusal comes before NOT_FOUND, as when checked first in `body`.
 */
export function unitOperation<I extends InModel & { unit: string }, R>(
  needs: ModelLifeNeeded,
  body: (tx: Tx, model: ModelRow, unit: UnitRow, input: I) => Promise<R>,
  check: (input: I) => void = () => {},
  footprint?: (input: I) => Footprint | undefined,
): Operation<I, R> {
  return unitOperationReading(
    needs,
    async () => undefined,
    (tx, model, unit, input) => body(tx, model, unit, input),
    check,
    footprint,
  );
}

/**
 * As unitOperation, with more read with the unit behind the model's lock: `alsoRead`, which needs only the model's
 * id and the input (what holds the unit, its charm, a run of it). Its result goes to `body` beside the unit's row.
 */
export function unitOperationReading<I extends InModel & { unit: string }, P, R>(
  needs: ModelLifeNeeded,
  alsoRead: (tx: Tx, model: ModelKey, input: I) => Promise<P>,
  body: (tx: Tx, model: ModelRow, unit: UnitRow, input: I, read: P) => Promise<R>,
  check: (input: I) => void = () => {},
  footprint?: (input: I) => Footprint | undefined,
): Operation<I, R> {
  return modelOperationReading(
    needs,
    (tx, model, input: I) => {
      check(input);
      return Promise.all([getUnit(tx, model, input.unit), alsoRead(tx, model, input)] as const);
    },
    (tx, model, input, [unit, read]) => body(tx, model, unit, input, read),
    footprint,
  );
}

/** An operation on one machine (`input.machine`): its row is read with the model's lock (modelOperationReading). */
export function machineOperation<I extends InModel & { machine: string }, R>(
  needs: ModelLifeNeeded,
  body: (tx: Tx, model: ModelRow, machine: MachineRow, input: I) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
): Operation<I, R> {
  return machineOperationReading(
    needs,
    async () => undefined,
    (tx, model, machine, input) => body(tx, model, machine, input),
    footprint,
  );
}

/** The most machines one call of a bulk machine operation names (the provisioner's: Juju's agent API is bulk). */
export const MAX_MACHINES_A_CALL = 100;

/** A bulk call's entities of one kind: at least one, at most `most`, each once (`check`ed first, in order). */
function namedOnce(kind: "machine" | "unit", names: readonly string[], most: number, check: (name: string) => void = () => {}) {
  if (names.length === 0) throw new LifelineError("INVALID_ARGUMENT", `name at least one ${kind}`);
  if (names.length > most) throw tooManyACall(`${kind}s`, most, names.length);
  const seen = new Set<string>();
  for (const name of names) {
    check(name);
    if (seen.has(name)) throw new LifelineError("INVALID_ARGUMENT", `${kind} ${shortQuote(name)} is named twice`);
    seen.add(name);
  }
  return names;
}

/** A bulk call's machines: at least one, at most MAX_MACHINES_A_CALL, each once. */
export const machineList = (ids: readonly string[]) => namedOnce("machine", ids, MAX_MACHINES_A_CALL);

/**
 * An operation on several machines at once, all or nothing: the machines are read behind the model's lock in one
 * round trip, and refused (NOT_FOUND) in the order named.
 */
export function machinesOperation<I extends InModel, R>(
  needs: ModelLifeNeeded,
  named: (input: I) => readonly string[],
  body: (tx: Tx, model: ModelRow, machines: MachineRow[], input: I) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
): Operation<I, R> {
  return modelOperationReading(
    needs,
    // Async, so a list refused comes after the model's own refusal, as a read's would.
    async (tx, model, input: I) => getMachines(tx, model, machineList(named(input))),
    (tx, model, input, machines) => body(tx, model, machines, input),
    footprint,
  );
}

/** As machineOperation, with more read with the machine behind the model's lock: `alsoRead` (what occupies it). */
export function machineOperationReading<I extends InModel & { machine: string }, P, R>(
  needs: ModelLifeNeeded,
  alsoRead: (tx: Tx, model: ModelKey, input: I) => Promise<P>,
  body: (tx: Tx, model: ModelRow, machine: MachineRow, input: I, read: P) => Promise<R>,
  footprint?: (input: I) => Footprint | undefined,
): Operation<I, R> {
  return modelOperationReading(
    needs,
    (tx, model, input: I) => Promise.all([getMachine(tx, model, input.machine), alsoRead(tx, model, input)] as const),
    (tx, model, input, [machine, read]) => body(tx, model, machine, input, read),
    footprint,
  );
}
