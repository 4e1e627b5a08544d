// A unit from creation to removal (seed 000 "juju remove-unit", seed 001
// "Units"). Principals are created Alive with the model's and application's
// constraints merged at that moment (seed 004) and assigned by placement;
// subordinates are created when their principal enters a container-scoped
// relation (scope.ts), beside it, with no machine of their own (seed 003).
// The forced fallback (remove-unit --force) is a cleanup (cleanups.ts).
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { unitAdded, unitLifeSet, unitRemoved } from "../changes/change.js";
import { LifelineError, notAlive, tooManyACall } from "../core/errors.js";
import { advance, Life } from "../core/life.js";
import { MachineJob } from "../core/machine.js";
import { applicationOfUnit } from "../core/unit-name.js";
import { type Database, runsInProcess } from "../db/connect.js";
import { applications, hookRuns, machines, units } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import { unitAgentLostBlocker } from "./agent-presence.js";
import { hookFailure } from "./agent-status.js";
import { type Blocker, type Hold, listed, refusal } from "./blocker.js";
import { CleanupKinds, pendingCleanups, queueCleanup } from "./cleanup-queue.js";
import { mergeConstraints } from "./constraints.js";
import { forgetAgents } from "./credentials.js";
import { entity, touching, unitAlone } from "./footprint.js";
import { groupedBy } from "./grouped.js";
import { getAliveMachine, getApplication, getUnit, getUnits, unitOperation, unitOperationReading } from "./lookup.js";
import { createMachine, type DestroyOptions, type Outcome, type ReservedMachine, reserveMachine } from "./machine.js";
import { parseUnitName } from "./names.js";
import { type Placement, parsePlacements } from "./placement.js";
import { type ApplicationCounts, addUnitReferences, releaseUnitReferences } from "./references.js";
import { retireHookRuns } from "./retire-hook-runs.js";
import type { ApplicationRow, MachineRow, ModelRow, Queryable, UnitRow } from "./rows.js";
import { type CreationPlace, creationPlace, creationPlaces, nextSequence, nextSequences } from "./sequences.js";
import { scopesOfUnits } from "./unit-agent-reads.js";
import {
  type InModel,
  type ModelKey,
  modelOperationReading,
  needsTurnAlone,
  type Tx,
  UNITS_A_TRANSACTION_IN_PROCESS,
} from "./write/index.js";

/**
 * A principal unit's placement with its machine's first read, started by the caller with the unit's number to save a
 * round trip: the machine the placement names, or the new machine's id and place. A container's host is made in its
 * unit's turn (addUnits), so it has none.
 */
type PlacementAhead =
  | { kind: "new-machine"; reserved: Promise<ReservedMachine> }
  | { kind: "machine"; named: Promise<MachineRow> }
  | Extract<Placement, { kind: "container" }>;

/** The machine a new principal unit goes to: existing (checked) or made for it. */
async function machineFor(tx: Tx, model: ModelRow, unit: NewUnit, placement: PlacementAhead): Promise<MachineRow> {
  // "When a machine is being added in order to host a given unit, it copies its constraints directly from the unit." (seed 004)
  const forUnit = { series: unit.series, constraints: unit.constraints, jobs: [MachineJob.HostUnits] };
  switch (placement.kind) {
    case "new-machine":
      return createMachine(tx, model, forUnit, placement.reserved);
    case "container": {
      // A host made only to hold the container is a machine added without a unit: model constraints.
      const parent = placement.parentId
        ? await getAliveMachine(tx, model, placement.parentId)
        : await createMachine(
            tx,
            model,
            { series: unit.series, constraints: model.constraints, jobs: [MachineJob.HostUnits] },
            reserveMachine(tx, model),
          );
      const container = { id: parent.id, type: placement.type };
      return createMachine(tx, model, { ...forUnit, parent: container }, reserveMachine(tx, model, container));
    }
    case "machine": {
      const machine = await placement.named;
      if (!machine.jobs.includes(MachineJob.HostUnits))
        throw new LifelineError("INVALID_PLACEMENT", `machine ${machine.id} cannot host units (jobs: ${machine.jobs.join(", ")})`);
      // "Units ... can only be assigned to machines with matching series." (seed 004)
      if (machine.series !== unit.series)
        throw new LifelineError(
          "SERIES_MISMATCH",
          `cannot assign unit ${unit.name} (series ${unit.series}) to machine ${machine.id} (series ${machine.series})`,
          { unitSeries: unit.series, machineSeries: machine.series },
        );
      return machine;
    }
  }
}

/** A unit about to be inserted: its name, series and constraints decide its machine. */
interface NewUnit {
  name: string;
  number: number;
  series: string;
  constraints: UnitRow["constraints"];
  /** Its place in creation order, and the time its row takes. */
  seq: number;
  now: Date;
}

type UnitFields = Pick<typeof units.$inferInsert, "principal" | "machineId" | "workloadMessage">;

const insertUnitRow = statement(
  ["modelId", "name", "seq", "application", "number", "series", "constraints", "principal", "machineId", "workloadMessage", "since"],
  (db, p) =>
    db.insert(units).values({
      modelId: p.modelId,
      name: p.name,
      seq: p.seq,
      application: p.application,
      number: p.number,
      series: p.series,
      constraints: p.constraints,
      principal: p.principal,
      machineId: p.machineId,
      workloadMessage: p.workloadMessage,
      agentSince: p.since,
      statusSince: p.since,
    }),
);

/** The application's unit of this number (numbers are never reused), with its application's series. */
function newUnit(app: ApplicationRow, number: number, constraints: UnitRow["constraints"], place: CreationPlace): NewUnit {
  return { name: `${app.name}/${number}`, number, series: app.series, constraints, ...place };
}

/** The application's next unit. */
async function nextUnit(tx: Tx, model: ModelRow, app: ApplicationRow, constraints: UnitRow["constraints"]): Promise<NewUnit> {
  const place = sentAhead(creationPlace(tx, "units"));
  const number = await nextSequence(tx, model.id, `unit:${app.name}`);
  return newUnit(app, number, constraints, await place);
}

/** Writes the new unit's row without waiting (tx.defer), and answers with the row as written: a new unit's columns are known. */
function insertUnit(tx: Tx, model: ModelRow, app: ApplicationRow, unit: NewUnit, fields: UnitFields): UnitRow {
  const row: UnitRow = {
    modelId: model.id,
    name: unit.name,
    seq: unit.seq,
    application: app.name,
    number: unit.number,
    principal: fields.principal ?? null,
    machineId: fields.machineId ?? null,
    series: unit.series,
    constraints: unit.constraints,
    life: Life.Alive,
    workloadStatus: "waiting",
    workloadMessage: fields.workloadMessage ?? "",
    agentStatus: "allocating",
    agentMessage: "",
    agentStatusData: {},
    agentSince: unit.now,
    resolved: null,
    statusSince: unit.now,
    agentLostSince: null,
  };
  tx.defer(insertUnitRow(tx.db, { ...row, since: unit.now }));
  return row;
}

/** A principal unit's first reads, started: its number, and the machine its placement names or a new machine's id. */
interface StartedUnit {
  placement: PlacementAhead;
  numbered: Promise<NewUnit>;
}

function startPrincipalUnit(
  tx: Tx,
  model: ModelRow,
  app: ApplicationRow,
  placement: Placement,
  constraints: UnitRow["constraints"],
): StartedUnit {
  if (placement.kind !== "container") return startPrincipalUnits(tx, model, app, [placement], constraints)[0]!;
  // Awaited in finishPrincipalUnit, unless something before it failed first.
  return { placement, numbered: sentAhead(nextUnit(tx, model, app, constraints)) };
}

/**
 * startPrincipalUnit for units none of which goes in a container: their numbers, their new machines' ids and the
 * rows' places in creation order asked for in two statements for all of them, not four a unit.
 */
function startPrincipalUnits(
  tx: Tx,
  model: ModelRow,
  app: ApplicationRow,
  placements: readonly Exclude<Placement, { kind: "container" }>[],
  constraints: UnitRow["constraints"],
): StartedUnit[] {
  const machinesAdded = placements.filter((p) => p.kind === "new-machine").length;
  const asked = Promise.all([
    nextSequences(tx, model.id, [...placements.map(() => `unit:${app.name}`), ...Array<string>(machinesAdded).fill("machine")]),
    creationPlaces(tx, [...placements.map(() => "units" as const), ...Array<"machines">(machinesAdded).fill("machines")]),
  ]);
  let machine = placements.length; // the new machines' numbers and places follow the units'
  return placements.map((placement, i) => {
    // Each awaited in finishPrincipalUnit, unless something before it failed first.
    const numbered = sentAhead(asked.then(([numbers, places]) => newUnit(app, numbers[i]!, constraints, places[i]!)));
    if (placement.kind === "machine")
      return { placement: { kind: "machine", named: sentAhead(getAliveMachine(tx, model, placement.machineId)) }, numbered };
    const j = machine++;
    const reserved = sentAhead(asked.then(([numbers, places]) => ({ id: String(numbers[j]!), ...places[j]! })));
    return { placement: { kind: "new-machine", reserved }, numbered };
  });
}

async function finishPrincipalUnit(tx: Tx, model: ModelRow, app: ApplicationRow, { placement, numbered }: StartedUnit): Promise<UnitRow> {
  const unit = await numbered;
  // Its machine first, so the unit is inserted once, already assigned (an update after would write every index again).
  const machine = await machineFor(tx, model, unit, placement);
  const created = insertUnit(tx, model, app, unit, { machineId: machine.id, workloadMessage: "waiting for machine" });
  tx.record(model.id, unitAdded(created));
  return created;
}

export const MAX_UNITS_PER_REQUEST = 1000;

/**
 * The most units one call adds on a store that runs in this process (PGlite), where its transaction holds every other
 * client until it commits (UNITS_A_TRANSACTION_IN_PROCESS): addUnit(count: 1000) held everyone 4 s there.
 * PostgreSQL's readers do not wait for a writer: there the bound is MAX_UNITS_PER_REQUEST.
 */
export const MAX_UNITS_PER_REQUEST_IN_PROCESS = UNITS_A_TRANSACTION_IN_PROCESS;

/** Refuses, before anything runs, a call adding more units than one transaction of this store should. */
export function checkUnitsPerCall(db: Database, count: number | null | undefined): void {
  if (count != null && count > MAX_UNITS_PER_REQUEST_IN_PROCESS && runsInProcess(db))
    throw tooManyACall("units", MAX_UNITS_PER_REQUEST_IN_PROCESS, count, "this store (PGlite) runs one transaction at a time for everyone");
}

/**
 * Units whose first reads go together (their numbers and places, two statements for all of them, and each named
 * machine's row). postgres.js keeps at most 100 statements in flight on a connection (`max_pipeline`) and sends each
 * one more only as an answer frees a place: past that, every statement became a socket write of its own. 16 leaves
 * room for the previous ones' inserts, still unanswered.
 */
const UNITS_TOGETHER = 16;

/** Validates a unit count and its placement directives before anything is written. */
export function checkedPlacements(count: number, directives?: readonly string[] | null): Placement[] {
  if (!Number.isInteger(count) || count < 0)
    throw new LifelineError("INVALID_ARGUMENT", `unit count must be a whole number from 0 to ${MAX_UNITS_PER_REQUEST}, got ${count}`);
  if (count > MAX_UNITS_PER_REQUEST) throw tooManyACall("units", MAX_UNITS_PER_REQUEST, count);
  return parsePlacements(directives, count);
}

/** Adds `count` principal units to an Alive application; refused for subordinates (seed 003). */
export async function addUnits(
  tx: Tx,
  model: ModelRow,
  app: ApplicationRow,
  count: number,
  directives?: readonly string[] | null,
): Promise<UnitRow[]> {
  if (app.subordinate)
    throw new LifelineError(
      "SUBORDINATE_NOT_ALLOWED",
      `cannot add units to subordinate application "${app.name}": its units are created by its principals when they enter a container-scoped relation`,
    );
  if (app.life !== Life.Alive) throw notAlive("application", app.name, app.life);
  const placements = checkedPlacements(count, directives);
  const constraints = mergeConstraints(model.constraints, app.constraints);
  const start = (placement: Placement) => startPrincipalUnit(tx, model, app, placement, constraints);
  const created: UnitRow[] = [];
  // Units on a named machine or a new one need nothing of one another: the first reads of UNITS_TOGETHER of them go at
  // once, in order (a thousand units in about 60 round trips, not 3,000), and each is finished in turn. A container's
  // host is made in its unit's turn, so with containers among them each unit starts in its turn, and ids follow units.
  const uncontained = placements.filter((p) => p.kind !== "container");
  const together = uncontained.length === placements.length ? UNITS_TOGETHER : 1;
  for (let from = 0; from < placements.length; from += together) {
    const started =
      together > 1
        ? startPrincipalUnits(tx, model, app, uncontained.slice(from, from + together), constraints)
        : placements.slice(from, from + together).map(start);
    for (const unit of started) created.push(await finishPrincipalUnit(tx, model, app, unit));
  }
  addUnitReferences(tx, model, app.name, created.length);
  return created;
}

export interface AddUnitInput extends InModel {
  application: string;
  count?: number | null;
  /** One directive per unit: "3", "lxd:3" or "lxd". */
  placement?: readonly string[] | null;
}

/** `juju add-unit`. */
export const addUnit = (db: Database, input: AddUnitInput): Promise<UnitRow[]> => {
  checkUnitsPerCall(db, input.count);
  return addUnitInTurn(db, input);
};

const addUnitInTurn = modelOperationReading(
  Life.Alive,
  (tx, model, input: AddUnitInput) => getApplication(tx, model, input.application),
  async (tx, model, input, app) => {
    const count = input.count ?? 1;
    if (count < 1) throw new LifelineError("INVALID_ARGUMENT", `add at least one unit (count was ${count})`);
    return addUnits(tx, model, app, count, input.placement);
  },
  undefined,
  (input) => input.count ?? 1, // its weight in a group: the units it adds
);

/**
 * The principal's unit of subordinate application `appName`, created (and
 * recorded) if it does not exist yet and the application is an Alive
 * subordinate; null otherwise. Subordinates take no constraints and no
 * machine of their own (seeds 003, 004). Refused (CANNOT_ENTER_SCOPE_YET)
 * while the existing one is Dying or Dead.
 */
export async function ensureSubordinate(tx: Tx, model: ModelRow, principal: UnitRow, appName: string): Promise<UnitRow | null> {
  const [existing] = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.application, appName), eq(units.principal, principal.name)));
  // Juju's ErrCannotEnterScopeYet: a subordinate on its way out cannot serve the
  // new scope, and a second one beside it would break one-per-principal; the
  // principal enters once it is removed, and gets a fresh one then.
  if (existing && existing.life !== Life.Alive)
    throw new LifelineError(
      "CANNOT_ENTER_SCOPE_YET",
      `unit ${principal.name} cannot enter a container-scoped relation with ${appName} yet: its subordinate ${existing.name} is ${existing.life}; it can enter once ${existing.name} is removed`,
      { unit: principal.name, subordinate: existing.name, life: existing.life },
    );
  if (existing) return null;
  const app = await getApplication(tx, model, appName);
  if (!app.subordinate || app.life !== Life.Alive) return null;
  const created = insertUnit(tx, model, app, await nextUnit(tx, model, app, {}), { principal: principal.name });
  addUnitReferences(tx, model, app.name, 1);
  tx.record(model.id, unitAdded(created, principal.machineId));
  return created;
}

const subordinateRows = statement(["modelId", "principal"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), eq(units.principal, p.principal)))
    .orderBy(asc(units.seq)),
);

/** A principal's subordinate units, oldest first. */
export async function subordinatesOf(q: Queryable, modelId: string, principal: string): Promise<UnitRow[]> {
  return subordinateRows(q, { modelId, principal });
}

// Lists go as one array parameter (`= any($n)`), so each statement has one text whatever the batch's size.
const setAliveUnitsDying = statement(["modelId", "names"], (db, p) =>
  db
    .update(units)
    .set({ life: Life.Dying })
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`, eq(units.life, Life.Alive))),
);
const aliveSubordinatesOf = statement(["modelId", "principals"], (db, p) =>
  db
    .select()
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.principal} = any(${p.principals})`, eq(units.life, Life.Alive))),
);
const unprovisionedMachines = statement(["modelId", "ids"], (db, p) =>
  db
    .select({ id: machines.id, jobs: machines.jobs })
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = any(${p.ids})`, isNull(machines.instanceId))),
);
const setUnitsDeadRows = statement(["modelId", "names"], (db, p) =>
  db
    .update(units)
    .set({ life: Life.Dead })
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names})`)),
);
const subordinatesOfPrincipals = statement(["modelId", "principals"], (db, p) =>
  db
    .select({ name: units.name, principal: units.principal })
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.principal} = any(${p.principals})`))
    .orderBy(asc(units.seq)),
);
const deleteUnitRows = statement(["modelId", "names"], (db, p) =>
  db.delete(units).where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names}::text[])`)),
);

/** A machine with no instance, and its jobs (a manager machine counts as provisioned: removeNeverDeployed). */
type UnprovisionedMachine = Awaited<ReturnType<typeof unprovisionedMachines>>[number];

/** The unit's machine, if it has no instance: found by the unit's name, so that it is read with the unit. */
const unprovisionedMachineOfUnit = statement(["modelId", "name"], (db, p) =>
  db
    .select({ id: machines.id, jobs: machines.jobs })
    .from(machines)
    .where(
      and(
        eq(machines.modelId, p.modelId),
        sql`${machines.id} = (select ${units.machineId} from ${units} where ${units.modelId} = ${p.modelId} and ${units.name} = ${p.name})`,
        isNull(machines.instanceId),
      ),
    ),
);

/** What destroyUnit decides by, besides the unit: read with it (findUnitToRemove), as RemovalFacts are for removeUnitRow. */
export interface DestroyFacts {
  /** Its Alive subordinates, which follow it Dying. */
  subordinates: UnitRow[];
  /** Its machine, if that has no instance (then the unit may go at once: removeNeverDeployed). */
  unprovisioned: UnprovisionedMachine[];
}

/**
 * A unit to remove and what its removal decides by, read together: one round trip, and for removeUnits' first unit
 * none of its own (sent with the model's lock). Both reads go by the unit's name, so they need not wait for its row.
 */
export async function findUnitToRemove(tx: Tx, model: ModelKey, name: string): Promise<{ unit: UnitRow; read: DestroyFacts }> {
  parseUnitName(name); // refused before anything is sent (getUnit checks it too)
  const unit = getUnit(tx, model, name);
  const subordinates = sentAhead(aliveSubordinatesOf(tx.db, { modelId: model.id, principals: [name] }));
  const unprovisioned = sentAhead(unprovisionedMachineOfUnit(tx.db, { modelId: model.id, name }));
  return { unit: await unit, read: { subordinates: await subordinates, unprovisioned: await unprovisioned } };
}

/** The Alive subordinates of the batch's Alive principals: those that follow them Dying (setUnitsDying). None read for a batch without. */
export async function aliveSubordinates(tx: Tx, model: ModelRow, batch: readonly UnitRow[]): Promise<UnitRow[]> {
  const principals = batch.filter((u) => u.life === Life.Alive && u.principal === null).map((u) => u.name);
  return principals.length ? aliveSubordinatesOf(tx.db, { modelId: model.id, principals }) : [];
}

/**
 * Sets Alive units Dying; a principal's Alive subordinates follow it (seed 001). `subordinates`: the batch's Alive
 * subordinates (aliveSubordinates), read by the caller, with a read of its own when it can (findUnitToRemove).
 */
export async function setUnitsDying(tx: Tx, model: ModelRow, batch: readonly UnitRow[], subordinates: readonly UnitRow[]): Promise<void> {
  const alive = batch.filter((u) => u.life === Life.Alive);
  if (!alive.length) return;
  tx.defer(setAliveUnitsDying(tx.db, { modelId: model.id, names: alive.map((u) => u.name) }));
  for (const unit of alive) tx.record(model.id, unitLifeSet(unit, Life.Dying));
  if (subordinates.length) await setUnitsDying(tx, model, subordinates, await aliveSubordinates(tx, model, subordinates));
}

/**
 * Seed 000 "juju remove-unit": a subordinate is refused (seed 003); a unit that
 * is not Alive is left as it is; otherwise it becomes Dying, and with force its
 * forced removal is queued for `forceAt`.
 */
export async function destroyUnit(tx: Tx, model: ModelRow, unit: UnitRow, options: DestroyOptions, read: DestroyFacts): Promise<Outcome> {
  if (unit.principal !== null)
    throw new LifelineError(
      "SUBORDINATE_NOT_ALLOWED",
      `unit ${unit.name} is a subordinate: remove the relation to its principal, or its principal ${unit.principal}`,
    );
  // Read with the unit: whether it can go at once (removeNeverDeployed), and the subordinates that follow it Dying.
  if (unit.life !== Life.Dead && (await removeNeverDeployed(tx, model, [unit], read.unprovisioned)).length) return "removed";
  let outcome: Outcome = "unchanged";
  if (unit.life === Life.Alive) {
    await setUnitsDying(tx, model, [unit], read.subordinates);
    outcome = "dying";
  }
  if (options.force) await queueCleanup(tx, model, CleanupKinds.forceUnit, unit.name, {}, options.forceAt);
  return outcome;
}

/** The units of a batch that may be removed directly (removeNeverDeployed), if their machine has no instance. */
const maybeNeverDeployed = (batch: readonly UnitRow[]) =>
  batch.filter((u) => u.principal === null && u.machineId !== null && u.life !== Life.Dead);

/** The machines without an instance of a batch's units (removeNeverDeployed decides by them); none read for a batch without. */
export async function unprovisionedMachinesOf(tx: Tx, model: ModelRow, batch: readonly UnitRow[]): Promise<UnprovisionedMachine[]> {
  const ids = [...new Set(maybeNeverDeployed(batch).map((u) => u.machineId!))];
  return ids.length ? unprovisionedMachines(tx.db, { modelId: model.id, ids }) : [];
}

/**
 * Seed 004: "a unit assigned to a machine that has not been provisioned can be
 * removed directly": no agent will ever run it, so waiting for one would leave
 * it (and its application) stuck. Removes, of the given units, the principals
 * whose machine has no instance (a manager machine counts as provisioned: it
 * was, at bootstrap) and that hold nothing (no scope, no subordinate; a unit
 * entered into a scope by hand waits for its agent like any other). Returns
 * the names removed. `unprovisioned`: the batch's machines without an instance (unprovisionedMachinesOf), read by
 * the caller, with the unit when it can (findUnitToRemove).
 */
export async function removeNeverDeployed(
  tx: Tx,
  model: ModelRow,
  batch: readonly UnitRow[],
  unprovisioned: readonly UnprovisionedMachine[],
): Promise<string[]> {
  const undeployable = new Set(unprovisioned.filter((m) => !m.jobs.includes(MachineJob.ManageModel)).map((m) => m.id));
  const removed: string[] = [];
  for (const unit of maybeNeverDeployed(batch)) {
    if (!undeployable.has(unit.machineId!)) continue;
    // Read together: what holds it, and what its removal decides by.
    const [holds, facts] = await Promise.all([deathHolds(tx.db, unit), removalFacts(tx, model, unit.name)]);
    if (holds.length) continue;
    await removeUnitRow(tx, model, await ensureUnitDead(tx, model, unit, holds), facts!);
    removed.push(unit.name);
  }
  return removed;
}

/**
 * What keeps a unit from becoming Dead: it "may not become Dead while any unit
 * subordinate to it exists, or while the unit is in scope for any relation" (seed 001).
 * The one-unit case of deathHoldsOf.
 */
export async function deathHolds(q: Queryable, unit: Pick<UnitRow, "modelId" | "name">): Promise<Hold[]> {
  return (await deathHoldsOf(q, unit.modelId, [unit.name]))[0]!;
}

/** Each named unit's death holds, in the order named: two statements, sent together, however many units. */
export async function deathHoldsOf(q: Queryable, modelId: string, names: readonly string[]): Promise<Hold[][]> {
  const [scopeRows, subordinateRows] = await Promise.all([
    scopesOfUnits(q, { modelId, names }),
    subordinatesOfPrincipals(q, { modelId, principals: names }),
  ]);
  const scopes = groupedBy(scopeRows, (s) => s.unit);
  const subordinates = groupedBy(
    subordinateRows,
    (s) => s.principal!,
    (s) => s.name,
  );
  return names.map((name) => holdsOf(scopes.get(name) ?? [], subordinates.get(name) ?? []));
}

/** A unit's holds from the scopes it is in and its subordinates, in that order. */
function holdsOf(scopes: readonly { id: number; key: string }[], subordinates: string[]): Hold[] {
  const holds: Hold[] = [];
  if (scopes.length)
    holds.push({
      kind: "in-scope",
      message: `in the scope of ${listed(scopes.map((s) => `relation ${s.id} "${s.key}"`))}: its unit agent must leave them`,
      entities: scopes.map((s) => String(s.id)),
      code: "IN_SCOPE",
      reason: `it is still in the scope of relation(s) ${scopes.map((s) => s.id).join(", ")}: leave them first`,
      details: { relations: scopes.map((s) => s.id) },
    });
  if (subordinates.length)
    holds.push({
      kind: "subordinates",
      message: `subordinates ${listed(subordinates)} must be removed first`,
      entities: subordinates,
      code: "HAS_SUBORDINATES",
      reason: `it still has subordinates ${subordinates.join(", ")}: remove them first`,
      details: { subordinates },
    });
  return holds;
}

/** What holds a unit from Dead, as ensureUnitDead decides by it: none read for a unit that is Dead already. */
export const holdsOnDeath = (q: Queryable, unit: UnitRow): Promise<Hold[]> =>
  unit.life === Life.Dead ? Promise.resolve([]) : deathHolds(q, unit);

/**
 * Sets a unit Dead once nothing holds it; refused with the first hold otherwise. `holds`: its death holds (deathHolds),
 * read by the caller, with the model's lock when it can (setUnitDead). The one-unit case of ensureUnitsDead.
 */
export async function ensureUnitDead(tx: Tx, model: ModelRow, unit: UnitRow, holds: readonly Hold[]): Promise<UnitRow> {
  return ensureUnitsDead(tx, model, [unit], [holds])[0]!;
}

/**
 * Each unit Dead, in order, once nothing holds it (a Dead one as it is); refused at the first unit held. `holds`: each
 * unit's death holds (deathHoldsOf). The units that change are written in one statement sent with the commit.
 */
export function ensureUnitsDead(tx: Tx, model: ModelRow, rows: readonly UnitRow[], holds: readonly (readonly Hold[])[]): UnitRow[] {
  const dying: string[] = [];
  const dead = rows.map((unit, i) => {
    if (unit.life === Life.Dead) return unit;
    const [hold] = holds[i]!;
    if (hold) throw refusal(hold, `set unit ${unit.name} Dead`);
    const life = advance(`unit ${unit.name}`, unit.life, Life.Dead);
    tx.record(model.id, unitLifeSet(unit, Life.Dead));
    dying.push(unit.name);
    return { ...unit, life };
  });
  // Not waited for: the model's lock keeps every other writer off the rows, so the rows it writes are these.
  if (dying.length) tx.defer(setUnitsDeadRows(tx.db, { modelId: model.id, names: dying }));
  return dead;
}

/**
 * The deployer's removal of a Dead unit (seed 000): unassign it from its
 * machine or principal, delete it, and release its application, which goes
 * too when it was the last reference to a Dying application. The one-unit case
 * of removeUnitRows.
 */
export async function removeUnitRow(tx: Tx, model: ModelRow, unit: UnitRow, facts: RemovalFacts): Promise<void> {
  await removeUnitRows(tx, model, [unit], [facts]);
}

/**
 * Dead units removed, in order, each as removeUnitRow would (refused at the first not Dead): their runs retired, their
 * rows and their agents' credentials deleted a statement each, and their applications released, one statement for
 * each application's releases that leave it held.
 */
export async function removeUnitRows(tx: Tx, model: ModelRow, rows: readonly UnitRow[], facts: readonly RemovalFacts[]): Promise<void> {
  for (const unit of rows)
    if (unit.life !== Life.Dead) throw new LifelineError("NOT_DEAD", `unit ${unit.name} is ${unit.life}: only a Dead unit can be removed`);
  if (rows.some((unit) => unit.principal !== null)) needsTurnAlone(tx); // it changes principals' subordinates: more than a footprint says
  const names = rows.map((u) => u.name);
  // All sent without waiting, as `facts` say what the answers would be: none awaited unless an application may go
  // with its units (releaseUnitReferences). Their runs stay, retired: they outlive them (retire-hook-runs.ts).
  retireHookRuns(
    tx,
    model,
    rows.filter((_, i) => facts[i]!.hasRuns).map((u) => u.name),
  );
  tx.defer(deleteUnitRows(tx.db, { modelId: model.id, names }));
  forgetAgents(tx, model, "unit", names);
  const byApplication = new Map<string, { counts: ApplicationCounts; count: number }>();
  for (const [i, unit] of rows.entries()) {
    const released = byApplication.get(unit.application);
    if (released) released.count++;
    else byApplication.set(unit.application, { counts: facts[i]!.application, count: 1 });
  }
  const releases = [...byApplication].map(([name, { counts, count }]) => releaseUnitReferences(tx, model, name, counts, count));
  for (const unit of rows) tx.record(model.id, unitRemoved(unit));
  for (const released of releases) await released();
}

/** What a Dead unit's removal decides by: whether it has hook runs (not yet retired), and its application's counts and life. */
interface RemovalFacts {
  hasRuns: boolean;
  application: ApplicationCounts;
}

/**
 * RemovalFacts of a unit by its name (undefined when there is no such unit): it needs no earlier read, so it goes
 * with the unit's, behind the model's lock (removeDeadUnit). The one-unit case of removalFactsOf.
 */
export async function removalFacts(tx: Tx, model: ModelKey, name: string): Promise<RemovalFacts | undefined> {
  return (await removalFactsOf(tx, model, [name]))[0];
}

/** Each named unit's RemovalFacts, in the order named (undefined for a unit not found): one statement however many. */
export async function removalFactsOf(tx: Tx, model: ModelKey, names: readonly string[]): Promise<(RemovalFacts | undefined)[]> {
  const found = new Map(
    (await removalFactsRows(tx.db, { modelId: model.id, names })).map(({ unit, hasRuns, ...application }) => [
      unit,
      { hasRuns, application },
    ]),
  );
  return names.map((name) => found.get(name));
}

const removalFactsRows = statement(["modelId", "names"], (db, p) =>
  db
    .select({
      unit: units.name,
      hasRuns: sql<boolean>`exists (select 1 from ${hookRuns} where ${hookRuns.modelId} = ${units.modelId} and ${hookRuns.unit} = ${units.name} and ${hookRuns.unitRemovedAt} is null)`,
      life: applications.life,
      unitCount: applications.unitCount,
      relationCount: applications.relationCount,
    })
    .from(units)
    .innerJoin(applications, and(eq(applications.modelId, units.modelId), eq(applications.name, units.application)))
    .where(and(eq(units.modelId, p.modelId), sql`${units.name} = any(${p.names}::text[])`)),
);

export interface UnitInput extends InModel {
  unit: string;
}

/**
 * The unit agent's Destroy (seed 001): a subordinate's agent sets its own unit
 * Dying when no Alive container-scoped relation with its principal's application
 * remains. (Units go Dying with their application through the dying-units
 * cleanup, not their agents.) Unlike the user's remove-unit it works on
 * subordinates: their agents are the ones that know.
 * Alive → Dying (a principal's subordinates follow, as setUnitsDying does);
 * a no-op otherwise.
 */
export const setUnitDying = unitOperation("any", async (tx, model, unit, _: UnitInput) => {
  if (unit.life !== Life.Alive) return unit;
  await setUnitsDying(tx, model, [unit], await aliveSubordinates(tx, model, [unit]));
  return getUnit(tx, model, unit.name);
});

/**
 * The unit agent's last act (Juju's EnsureDead). An Alive unit may be set Dead too. What holds it is read with the
 * unit, right behind the model's lock: with the write and the commit, two round trips in all.
 */
export const setUnitDead = unitOperationReading(
  "any",
  (tx, model, input: UnitInput) => deathHolds(tx.db, { modelId: model.id, name: input.unit }),
  (tx, model, unit, _, holds) => ensureUnitDead(tx, model, unit, holds),
  undefined,
  // Its scopes are its own; its subordinates change only by writers that take a turn alone (a subordinate's entry
  // creates it, its removal below): so the unit is all it touches.
  unitAlone,
);

export interface UnitsInput extends InModel {
  units: readonly string[];
}

/**
 * setUnitDead for several units in one transaction, in the order named: all or nothing, the first refusal in that
 * order refusing the call. Their agents' last calls gathered into one (src/agents/gathered-calls.ts): the units, what
 * holds them and their writes take a statement each however many units.
 */
export const setUnitsDead = modelOperationReading(
  "any",
  (tx, model, input: UnitsInput) => Promise.all([getUnits(tx, model, input.units), deathHoldsOf(tx.db, model.id, input.units)] as const),
  async (tx, model, _: UnitsInput, [rows, holds]) => ensureUnitsDead(tx, model, rows, holds),
  // As setUnitDead's: each unit is all it touches.
  (input) => touching(...input.units.map((unit) => [entity.unit(unit), "write"] as const)),
);

/** The deployer's act: the machine agent for a principal, the principal's unit agent for a subordinate. */
export const removeDeadUnit = unitOperationReading(
  "any",
  (tx, model, input: UnitInput) => removalFacts(tx, model, input.unit),
  async (tx, model, unit, _, facts) => {
    await removeUnitRow(tx, model, unit, facts!);
    return true;
  },
  undefined,
  (input) => removalFootprint([input.unit]),
);

/**
 * removeDeadUnit for several units in one transaction, in the order named: all or nothing, the first refusal in that
 * order refusing the call. Their deployers' calls gathered into one (src/agents/gathered-calls.ts).
 */
export const removeDeadUnits = modelOperationReading(
  "any",
  (tx, model, input: UnitsInput) => Promise.all([getUnits(tx, model, input.units), removalFactsOf(tx, model, input.units)] as const),
  async (tx, model, _: UnitsInput, [rows, facts]) => {
    await removeUnitRows(
      tx,
      model,
      rows,
      facts.map((f) => f!),
    );
    return true;
  },
  (input) => removalFootprint(input.units),
);

/**
 * A removal's footprint: each unit's rows are its own; one is taken from its application's unit count (the last holder
 * of a Dying application, which removes it, takes a turn alone), and from what occupies its machine.
 */
const removalFootprint = (names: readonly string[]) =>
  touching(
    ...names.flatMap((unit) => [[entity.unit(unit), "write"] as const, [entity.applicationUnits(applicationOfUnit(unit)), "add"] as const]),
    [entity.unitAssignments, "add"],
  );

/** "Why is it still here?" for a unit: what holds it from Dead and its pending cleanups, else the agent it waits for. */
export async function unitBlockers(q: Queryable, unit: UnitRow): Promise<Blocker[]> {
  if (unit.life === Life.Alive) return [];
  if (unit.life === Life.Dead) {
    const deployer = unit.principal
      ? `the unit agent of ${unit.principal}`
      : unit.machineId
        ? `the machine agent of machine ${unit.machineId}`
        : "its deployer";
    return [
      { kind: "agent", message: `Dead: waiting for ${deployer} to remove it`, entities: [unit.principal ?? unit.machineId ?? unit.name] },
    ];
  }
  // Its agent lost, then a failed hook: until it is back, or the hook resolved, nothing else moves.
  const lost = unitAgentLostBlocker(unit);
  const failure = hookFailure(unit);
  const blockers: Blocker[] = [
    ...(lost ? [lost] : []),
    ...(failure ? [failure] : []),
    ...(await deathHolds(q, unit)),
    ...(await pendingCleanups(q, unit.modelId, "unit", unit.name)),
  ];
  if (!blockers.length)
    blockers.push({ kind: "agent", message: "waiting for its unit agent to set it Dead (or remove it with force)", entities: [unit.name] });
  return blockers;
}
