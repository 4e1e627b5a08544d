// Principal units: created Alive, with the model's and application's
// constraints merged at that moment (seed 004), and assigned by placement.
import { and, eq } from "drizzle-orm";
import { units } from "../db/schema.js";
import { mergeConstraints } from "./constraints.js";
import { LifelineError, notAlive, notFound } from "./errors.js";
import { createMachine, getAliveMachine, MachineJob, type MachineRow } from "./machines.js";
import type { ModelRow } from "./models.js";
import { parseUnitName } from "./names.js";
import { parsePlacements, type Placement } from "./placement.js";
import { addUnitReferences } from "./references.js";
import { nextSequence } from "./sequences.js";
import type { Tx } from "./tx.js";
import type { ApplicationRow } from "./applications.js";

export type UnitRow = typeof units.$inferSelect;

export async function getUnit(tx: Tx, model: ModelRow, name: string): Promise<UnitRow> {
  parseUnitName(name);
  const [unit] = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.name, name)));
  if (!unit) throw notFound("unit", name, model.name);
  return unit;
}

/** The machine a new principal unit goes to: existing (checked) or made for it. */
async function machineFor(tx: Tx, model: ModelRow, unit: UnitRow, placement: Placement): Promise<MachineRow> {
  // "When a machine is being added in order to host a given unit, it copies its constraints directly from the unit." (seed 004)
  const forUnit = { series: unit.series, constraints: unit.constraints, jobs: [MachineJob.HostUnits] };
  switch (placement.kind) {
    case "new-machine":
      return createMachine(tx, model, forUnit);
    case "container": {
      // A host made only to hold the container is a machine added without a unit: model constraints.
      const parent = placement.parentId
        ? await getAliveMachine(tx, model, placement.parentId)
        : await createMachine(tx, model, { series: unit.series, constraints: model.constraints, jobs: [MachineJob.HostUnits] });
      return createMachine(tx, model, { ...forUnit, parent: { id: parent.id, type: placement.type } });
    }
    case "machine": {
      const machine = await getAliveMachine(tx, model, placement.machineId);
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

/**
 * Inserts the application's next unit (numbers are never reused) with its
 * application's series. Callers count it on the application and record it.
 */
export async function insertUnit(
  tx: Tx,
  model: ModelRow,
  app: ApplicationRow,
  fields: Pick<typeof units.$inferInsert, "constraints" | "principal" | "workloadMessage">,
): Promise<UnitRow> {
  const number = await nextSequence(tx, model.id, `unit:${app.name}`);
  const [created] = await tx.db
    .insert(units)
    .values({ modelId: model.id, name: `${app.name}/${number}`, application: app.name, number, series: app.series, ...fields })
    .returning();
  return created!;
}

async function addPrincipalUnit(tx: Tx, model: ModelRow, app: ApplicationRow, placement: Placement): Promise<UnitRow> {
  const created = await insertUnit(tx, model, app, {
    constraints: mergeConstraints(model.constraints, app.constraints),
    workloadMessage: "waiting for machine",
  });
  const name = created.name;
  const machine = await machineFor(tx, model, created, placement);
  const [unit] = await tx.db
    .update(units)
    .set({ machineId: machine.id })
    .where(and(eq(units.modelId, model.id), eq(units.name, name)))
    .returning();
  tx.record({
    modelId: model.id,
    kind: "unit",
    entity: name,
    life: "alive",
    fields: { application: app.name, series: app.series, machineId: machine.id, principal: null },
  });
  return unit!;
}

export const MAX_UNITS_PER_REQUEST = 1000;

/** Validates a unit count and its placement directives before anything is written. */
export function checkedPlacements(count: number, directives?: readonly string[] | null): Placement[] {
  if (!Number.isInteger(count) || count < 0 || count > MAX_UNITS_PER_REQUEST)
    throw new LifelineError("INVALID_ARGUMENT", `unit count must be a whole number from 0 to ${MAX_UNITS_PER_REQUEST}, got ${count}`);
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
  if (app.life !== "alive") throw notAlive("application", app.name, app.life);
  const placements = checkedPlacements(count, directives);
  const created: UnitRow[] = [];
  for (const placement of placements) created.push(await addPrincipalUnit(tx, model, app, placement));
  await addUnitReferences(tx, model, app.name, created.length);
  return created;
}
