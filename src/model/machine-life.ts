// Machines from Alive to removed (seed 000 "juju remove-machine", seed 001 "Machines").
import { and, eq } from "drizzle-orm";
import { machines, units } from "../db/schema.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import { LifelineError } from "./errors.js";
import { getMachine, MachineJob, type MachineRow } from "./machines.js";
import type { ModelRow } from "./models.js";
import type { Outcome } from "./relation-life.js";
import type { Tx } from "./tx.js";
import { forceRemoveUnit, type DestroyOptions } from "./unit-life.js";
import { advance } from "./life.js";

const machineWhere = (model: ModelRow, id: string) => and(eq(machines.modelId, model.id), eq(machines.id, id));

export async function assignedUnits(tx: Tx, model: ModelRow, id: string): Promise<string[]> {
  const rows = await tx.db.select({ name: units.name }).from(units).where(and(eq(units.modelId, model.id), eq(units.machineId, id)));
  return rows.map((r) => r.name);
}

export async function containersOf(tx: Tx, model: ModelRow, id: string): Promise<MachineRow[]> {
  return tx.db.select().from(machines).where(and(eq(machines.modelId, model.id), eq(machines.parentId, id)));
}

function refuseIfManager(machine: MachineRow) {
  if (machine.jobs.includes(MachineJob.ManageModel))
    throw new LifelineError("MACHINE_MANAGES_MODEL", `machine ${machine.id} holds JobManageModel and can never be removed`);
}

async function refuseIfOccupied(tx: Tx, model: ModelRow, machine: MachineRow, verb: string, checkContainers = true) {
  const assigned = await assignedUnits(tx, model, machine.id);
  if (assigned.length)
    throw new LifelineError("HAS_UNITS", `cannot ${verb} machine ${machine.id}: units ${assigned.join(", ")} are assigned to it; remove them first`, {
      units: assigned,
    });
  if (!checkContainers) return;
  const containers = await containersOf(tx, model, machine.id);
  if (containers.length)
    throw new LifelineError("HAS_CONTAINERS", `cannot ${verb} machine ${machine.id}: it has containers ${containers.map((c) => c.id).join(", ")}; remove them first or use force`, {
      containers: containers.map((c) => c.id),
    });
}

async function setLife(tx: Tx, model: ModelRow, machine: MachineRow, life: "dying" | "dead"): Promise<void> {
  await tx.db.update(machines).set({ life: advance(`machine ${machine.id}`, machine.life, life) }).where(machineWhere(model, machine.id));
  tx.record({ modelId: model.id, kind: "machine", entity: machine.id, life });
}

/**
 * Seed 000 "juju remove-machine": not Alive → no-op; JobManageModel, assigned
 * units or containers → refused (units and containers allowed with force,
 * which queues their forced removal); otherwise Dying.
 */
export async function destroyMachine(tx: Tx, model: ModelRow, machine: MachineRow, options: DestroyOptions & { withContainers?: boolean } = {}): Promise<Outcome> {
  refuseIfManager(machine);
  let outcome: Outcome = "unchanged";
  if (machine.life === "alive") {
    // destroy-model may make a machine with containers Dying (seed 001); remove-machine may not, unless forced.
    if (!options.force) await refuseIfOccupied(tx, model, machine, "remove", !options.withContainers);
    await setLife(tx, model, machine, "dying");
    outcome = "dying";
  }
  if (options.force && machine.life !== "dead") await queueCleanup(tx, model, CleanupKinds.forceMachine, machine.id, {}, options.forceAt);
  return outcome;
}

/** The machine agent's act: "A dying machine cannot transition to dead if there are containers" (nor with principals). */
export async function setMachineDead(tx: Tx, model: ModelRow, id: string): Promise<MachineRow> {
  const machine = await getMachine(tx, model, id);
  refuseIfManager(machine);
  if (machine.life === "dead") return machine;
  await refuseIfOccupied(tx, model, machine, "set Dead");
  await setLife(tx, model, machine, "dead");
  return { ...machine, life: "dead" };
}

/** The provisioner's act (seed 000): "If the machine is not Dead, abort with an appropriate error. Delete the machine document." */
export async function removeDeadMachine(tx: Tx, model: ModelRow, id: string): Promise<void> {
  const machine = await getMachine(tx, model, id);
  if (machine.life !== "dead") throw new LifelineError("NOT_DEAD", `machine ${machine.id} is ${machine.life}: only a Dead machine can be removed`);
  await tx.db.delete(machines).where(machineWhere(model, machine.id));
  tx.record({ modelId: model.id, kind: "machine", entity: machine.id, life: "dead", removed: true, fields: { instanceId: machine.instanceId } });
}

/**
 * `remove-machine --force`: its units are forced away, its containers forced
 * Dead and removed (no agent will run on them), and the machine set Dead for
 * the provisioner to release and remove.
 */
export async function forceMachineDead(tx: Tx, model: ModelRow, id: string): Promise<void> {
  const [machine] = await tx.db.select().from(machines).where(machineWhere(model, id));
  if (!machine || machine.life === "dead") return;
  for (const container of await containersOf(tx, model, machine.id)) {
    await forceMachineDead(tx, model, container.id);
    await removeDeadMachine(tx, model, container.id);
  }
  for (const unit of await assignedUnits(tx, model, machine.id)) await forceRemoveUnit(tx, model, unit);
  await setLife(tx, model, machine, "dead");
}
