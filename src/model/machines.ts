// Machines: top-level ids "0", "1", ...; containers "<parent>/<type>/<n>".
import { and, eq } from "drizzle-orm";
import { machines } from "../db/schema.js";
import { mergeConstraints, parseConstraints, type Constraints } from "./constraints.js";
import { LifelineError, notAlive, notFound } from "./errors.js";
import { checkMachineId, checkSeries, type ContainerType } from "./names.js";
import type { ModelRow } from "./models.js";
import { nextSequence } from "./sequences.js";
import type { Tx } from "./tx.js";

export type MachineRow = typeof machines.$inferSelect;

export const MachineJob = { HostUnits: "JobHostUnits", ManageModel: "JobManageModel" } as const;
export type MachineJob = (typeof MachineJob)[keyof typeof MachineJob];

export interface NewMachine {
  series: string;
  constraints: Constraints;
  jobs: MachineJob[];
  /** For a container: its parent machine and container type. */
  parent?: { id: string; type: ContainerType };
}

/** Inserts a machine with the next id; no checks (callers hold the rules). */
export async function createMachine(tx: Tx, model: ModelRow, spec: NewMachine): Promise<MachineRow> {
  const id = spec.parent
    ? `${spec.parent.id}/${spec.parent.type}/${await nextSequence(tx, model.id, `machine:${spec.parent.id}/${spec.parent.type}`)}`
    : String(await nextSequence(tx, model.id, "machine"));
  const [machine] = await tx.db
    .insert(machines)
    .values({
      modelId: model.id,
      id,
      parentId: spec.parent?.id ?? null,
      containerType: spec.parent?.type ?? null,
      series: spec.series,
      jobs: spec.jobs,
      constraints: spec.constraints,
    })
    .returning();
  tx.record({
    modelId: model.id,
    kind: "machine",
    entity: id,
    life: "alive",
    fields: { series: spec.series, jobs: spec.jobs, constraints: spec.constraints, parentId: spec.parent?.id ?? null, status: "pending" },
  });
  return machine!;
}

export async function getMachine(tx: Tx, model: ModelRow, id: string): Promise<MachineRow> {
  checkMachineId(id);
  const [machine] = await tx.db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, model.id), eq(machines.id, id)));
  if (!machine) throw notFound("machine", id, model.name);
  return machine;
}

export async function getAliveMachine(tx: Tx, model: ModelRow, id: string): Promise<MachineRow> {
  const machine = await getMachine(tx, model, id);
  if (machine.life !== "alive") throw notAlive("machine", id, machine.life);
  return machine;
}

export interface AddMachineArgs {
  series?: string | null;
  constraints?: string | null;
  jobs?: MachineJob[] | null;
  /** Put the new machine in a container of this type on `parent`. */
  containerType?: ContainerType | null;
  parent?: string | null;
}

/** `juju add-machine`: a machine added alone takes the model's constraints, overridden key by key by its own. */
export async function addMachine(tx: Tx, model: ModelRow, args: AddMachineArgs): Promise<MachineRow> {
  const series = checkSeries(args.series ?? model.defaultSeries);
  const constraints = mergeConstraints(model.constraints, parseConstraints(args.constraints ?? ""));
  const jobs = [...new Set(args.jobs?.length ? args.jobs : [MachineJob.HostUnits])];
  if (!!args.parent !== !!args.containerType)
    throw new LifelineError("INVALID_ARGUMENT", "a container needs both a parent machine and a container type (e.g. lxd on machine 1)");
  let parent: NewMachine["parent"];
  if (args.parent && args.containerType) {
    await getAliveMachine(tx, model, args.parent);
    parent = { id: args.parent, type: args.containerType };
  }
  return createMachine(tx, model, { series, constraints, jobs, ...(parent ? { parent } : {}) });
}
