// A machine from creation to removal (seed 000 "juju remove-machine", seed 001
// "Machines"): top-level ids "0", "1", ...; containers "<parent>/<type>/<n>".
// The forced fallback (remove-machine --force) is a cleanup (cleanups.ts).
import { and, asc, eq, sql } from "drizzle-orm";
import {
  machineAdded,
  machineLifeSet,
  machineProvisioned,
  machineRemoved,
  machineResolved,
  machineStartFailed,
  machineStatusSet,
} from "../changes/change.js";
import { LifelineError, notAlive } from "../core/errors.js";
import { advance, Life } from "../core/life.js";
import { type ContainerType, MachineJob, MachineStatus } from "../core/machine.js";
import { machines, units } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import { machineAgentLostBlocker } from "./agent-presence.js";
import { type Blocker, type Hold, listed, refusal } from "./blocker.js";
import { CleanupKinds, pendingCleanups, queueCleanup } from "./cleanup-queue.js";
import { type Constraints, mergeConstraints, parseConstraints } from "./constraints.js";
import { forgetAgent } from "./credentials.js";
import { entity, touching } from "./footprint.js";
import { groupedBy } from "./grouped.js";
import {
  getAliveMachine,
  getMachine,
  getMachines,
  machineList,
  machineOperation,
  machineOperationReading,
  machinesOperation,
} from "./lookup.js";
import { checkSeries } from "./names.js";
import type { MachineRow, ModelRow, Queryable } from "./rows.js";
import { type CreationPlace, creationPlace, nextSequence } from "./sequences.js";
import { type InModel, modelOperation, modelOperationReading, type Tx } from "./write/index.js";

/** What a destroy operation did to its target. */
export type Outcome = "unchanged" | "dying" | "dead" | "removed";

export interface DestroyOptions {
  force?: boolean;
  /** With force: when the forced fallback may run; now when omitted. */
  forceAt?: Date;
}

export interface NewMachine {
  series: string;
  constraints: Constraints;
  jobs: MachineJob[];
  /** For a container: its parent machine and container type. */
  parent?: { id: string; type: ContainerType };
}

const insertMachine = statement(["modelId", "id", "seq", "parentId", "containerType", "series", "jobs", "constraints", "since"], (db, p) =>
  db.insert(machines).values({
    modelId: p.modelId,
    id: p.id,
    seq: p.seq,
    parentId: p.parentId,
    containerType: p.containerType,
    series: p.series,
    jobs: p.jobs,
    constraints: p.constraints,
    statusSince: p.since,
  }),
);

/** A new machine's id, place in creation order and time: what its row needs before it is written. */
export interface ReservedMachine extends CreationPlace {
  id: string;
}

/**
 * Reserves the next machine id (of top-level machines, or of `parent`'s containers of a type) with the new row's
 * place, in one round trip: a caller may start it ahead, with its own reads, and hand it to createMachine.
 */
export async function reserveMachine(tx: Tx, model: ModelRow, parent?: NewMachine["parent"]): Promise<ReservedMachine> {
  const place = sentAhead(creationPlace(tx, "machines"));
  const id = parent
    ? `${parent.id}/${parent.type}/${await nextSequence(tx, model.id, `machine:${parent.id}/${parent.type}`)}`
    : String(await nextSequence(tx, model.id, "machine"));
  return { id, ...(await place) };
}

/**
 * Inserts a machine with the id `reserved` for it (reserveMachine, for `spec.parent`); no checks (callers hold the
 * rules). The row is written without waiting (tx.defer) and answered as written: a new machine's columns are known.
 */
export async function createMachine(tx: Tx, model: ModelRow, spec: NewMachine, reserved: Promise<ReservedMachine>): Promise<MachineRow> {
  const { id, seq, now } = await reserved;
  const machine: MachineRow = {
    modelId: model.id,
    id,
    seq,
    parentId: spec.parent?.id ?? null,
    containerType: spec.parent?.type ?? null,
    series: spec.series,
    jobs: spec.jobs,
    constraints: spec.constraints,
    instanceId: null,
    status: MachineStatus.Pending,
    statusMessage: "",
    statusSince: now,
    life: Life.Alive,
    agentLostSince: null,
    startAttempts: 0,
    lastStartError: null,
    lastStartAttemptAt: null,
  };
  tx.defer(insertMachine(tx.db, { ...machine, since: now }));
  tx.record(model.id, machineAdded(machine));
  return machine;
}

export interface AddMachineInput extends InModel {
  series?: string | null;
  constraints?: string | null;
  jobs?: MachineJob[] | null;
  /** Put the new machine in a container of this type on `parent`. */
  containerType?: ContainerType | null;
  parent?: string | null;
}

/** `juju add-machine`: a machine added alone takes the model's constraints, overridden key by key by its own. */
export const addMachine = modelOperation(Life.Alive, async (tx, model, input: AddMachineInput) => {
  const series = checkSeries(input.series ?? model.defaultSeries);
  const constraints = mergeConstraints(model.constraints, parseConstraints(input.constraints ?? ""));
  const jobs = [...new Set(input.jobs?.length ? input.jobs : [MachineJob.HostUnits])];
  if (!!input.parent !== !!input.containerType)
    throw new LifelineError("INVALID_ARGUMENT", "a container needs both a parent machine and a container type (e.g. lxd on machine 1)");
  let parent: NewMachine["parent"];
  if (input.parent && input.containerType) {
    await getAliveMachine(tx, model, input.parent);
    parent = { id: input.parent, type: input.containerType };
  }
  return createMachine(tx, model, { series, constraints, jobs, ...(parent ? { parent } : {}) }, reserveMachine(tx, model, parent));
});

const machineWhere = (model: ModelRow, id: string) => and(eq(machines.modelId, model.id), eq(machines.id, id));

const deleteMachine = statement(["modelId", "id"], (db, p) =>
  db.delete(machines).where(and(eq(machines.modelId, p.modelId), eq(machines.id, p.id))),
);
/** Machines' instances, one statement however many. */
const setInstances = statement(["modelId", "ids", "instanceIds"], (db, p) =>
  db
    .update(machines)
    .set({ instanceId: sql`given.instance_id` })
    .from(sql`unnest(${p.ids}::text[], ${p.instanceIds}::text[]) as given(id, instance_id)`)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = given.id`)),
);

/** The machine's containers, oldest first. */
export async function containersOf(q: Queryable, modelId: string, id: string): Promise<MachineRow[]> {
  return containersOfMachineIds(q, { modelId, ids: [id] });
}

/** The principal units assigned to the machine, oldest first. */
export async function assignedUnits(q: Queryable, modelId: string, id: string): Promise<string[]> {
  return (await assignedOfMachines(q, { modelId, ids: [id] })).map((r) => r.name);
}

/**
 * What keeps a machine from changing life: its assigned principals, and (unless
 * `withContainers`) its containers. Seed 001: "A dying machine cannot
 * transition to dead if there are containers", nor while principals are assigned.
 * The one-machine case of occupanciesOf.
 */
export async function occupancy(q: Queryable, machine: Pick<MachineRow, "modelId" | "id">, withContainers = false): Promise<Hold[]> {
  return (await occupanciesOf(q, machine.modelId, [machine.id], withContainers))[0]!;
}

/** Each machine's occupancy, in the order given: two statements, sent together, however many machines. */
export async function occupanciesOf(q: Queryable, modelId: string, ids: readonly string[], withContainers = false): Promise<Hold[][]> {
  const [assignedRows, containerPairs] = await Promise.all([
    assignedOfMachines(q, { modelId, ids }),
    withContainers ? [] : containersOfMachineIds(q, { modelId, ids }),
  ]);
  const assigned = groupedBy(
    assignedRows,
    (r) => r.machineId!,
    (r) => r.name,
  );
  const containers = groupedBy(
    containerPairs,
    (r) => r.parentId!,
    (r) => r.id,
  );
  return ids.map((id) => occupancyHolds(assigned.get(id) ?? [], containers.get(id) ?? []));
}

function occupancyHolds(assigned: string[], containers: string[]): Hold[] {
  const holds: Hold[] = [];
  if (assigned.length)
    holds.push({
      kind: "assigned-units",
      message: `units ${listed(assigned)} are assigned to it`,
      entities: assigned,
      code: "HAS_UNITS",
      reason: `units ${assigned.join(", ")} are assigned to it; remove them first`,
      details: { units: assigned },
    });
  if (containers.length)
    holds.push({
      kind: "containers",
      message: `containers ${listed(containers)} must be removed first`,
      entities: containers,
      code: "HAS_CONTAINERS",
      reason: `it has containers ${containers.join(", ")}; remove them first or use force`,
      details: { containers },
    });
  return holds;
}

/** The principal units assigned to the machines, oldest first. */
const assignedOfMachines = statement(["modelId", "ids"], (db, p) =>
  db
    .select({ name: units.name, machineId: units.machineId })
    .from(units)
    .where(and(eq(units.modelId, p.modelId), sql`${units.machineId} = any(${p.ids}::text[])`))
    .orderBy(asc(units.seq)),
);
/** The machines' containers, oldest first. */
const containersOfMachineIds = statement(["modelId", "ids"], (db, p) =>
  db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.parentId} = any(${p.ids}::text[])`))
    .orderBy(asc(machines.seq)),
);

function refuseIfManager(machine: MachineRow) {
  if (machine.jobs.includes(MachineJob.ManageModel))
    throw new LifelineError("MACHINE_MANAGES_MODEL", `machine ${machine.id} holds JobManageModel and can never be removed`);
}

const setMachinesDeadRows = statement(["modelId", "ids"], (db, p) =>
  db
    .update(machines)
    .set({ life: Life.Dead })
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = any(${p.ids}::text[])`)),
);
const setMachineLife = statement(["modelId", "id", "life"], (db, p) =>
  db
    .update(machines)
    .set({ life: sql`${p.life}` })
    .where(and(eq(machines.modelId, p.modelId), eq(machines.id, p.id))),
);
/** Machines' statuses set at one time, one statement however many (their fields as arrays, unnested in order). */
const setStatusesOfMachines = statement(["modelId", "ids", "statuses", "messages", "since"], (db, p) =>
  db
    .update(machines)
    .set({ status: sql`given.status`, statusMessage: sql`given.message`, statusSince: sql`${p.since}::timestamptz` })
    .from(sql`unnest(${p.ids}::text[], ${p.statuses}::text[], ${p.messages}::text[]) as given(id, status, message)`)
    .where(and(eq(machines.modelId, p.modelId), sql`${machines.id} = given.id`)),
);

/** Sent with the next statement: nothing waits for the answer. */
function setLife(tx: Tx, model: ModelRow, machine: MachineRow, life: typeof Life.Dying | typeof Life.Dead): void {
  tx.defer(setMachineLife(tx.db, { modelId: model.id, id: machine.id, life: advance(`machine ${machine.id}`, machine.life, life) }));
  tx.record(model.id, machineLifeSet(machine.id, life));
}

/** Machines set Dead in one statement sent with the next: nothing waits for the answer. */
function setDead(tx: Tx, model: ModelRow, rows: readonly MachineRow[]): void {
  if (!rows.length) return;
  for (const machine of rows) advance(`machine ${machine.id}`, machine.life, Life.Dead);
  tx.defer(setMachinesDeadRows(tx.db, { modelId: model.id, ids: rows.map((m) => m.id) }));
  for (const machine of rows) tx.record(model.id, machineLifeSet(machine.id, Life.Dead));
}

/**
 * Seed 000 "juju remove-machine": not Alive → no-op; JobManageModel, assigned
 * units or containers → refused (units and containers allowed with force,
 * which queues their forced removal); otherwise Dying. destroy-model may make
 * a machine with containers Dying (seed 001): `withContainers`.
 */
export async function destroyMachine(
  tx: Tx,
  model: ModelRow,
  machine: MachineRow,
  options: DestroyOptions & { withContainers?: boolean } = {},
): Promise<Outcome> {
  refuseIfManager(machine);
  let outcome: Outcome = "unchanged";
  if (machine.life === Life.Alive) {
    if (!options.force) {
      const [hold] = await occupancy(tx.db, machine, options.withContainers);
      if (hold) throw refusal(hold, `remove machine ${machine.id}`);
    }
    setLife(tx, model, machine, Life.Dying);
    outcome = "dying";
  }
  if (options.force && machine.life !== Life.Dead)
    await queueCleanup(tx, model, CleanupKinds.forceMachine, machine.id, {}, options.forceAt);
  return outcome;
}

/** Force's last step for a machine: Dead for the provisioner, whatever it held (callers have forced that away). */
export async function setMachineDeadForced(tx: Tx, model: ModelRow, machine: MachineRow): Promise<MachineRow> {
  if (machine.life !== Life.Dead) setLife(tx, model, machine, Life.Dead);
  return { ...machine, life: Life.Dead };
}

export interface MachineInput extends InModel {
  machine: string;
}

/**
 * The machine agent's act (Juju's EnsureDead): refused while the machine is occupied. An Alive machine may be set Dead
 * too. What occupies it is read with the machine, right behind the model's lock: with the write and the commit, two
 * round trips in all.
 */
export const setMachineDead = machineOperationReading(
  "any",
  (tx, model, input: MachineInput) => occupancy(tx.db, { modelId: model.id, id: input.machine }),
  async (tx, model, machine, _, holds) => machinesDead(tx, model, [machine], [holds])[0]!,
  // The machine is its own; what occupies it is read: its containers, and units' assignments (a unit's removal names
  // the unit, not its machine, so every assignment counts).
  (input) => deadFootprint([input.machine]),
);

/**
 * setMachineDead for several machines in one transaction, in the order named: all or nothing, the first refusal in
 * that order refusing the call. Their agents' last calls gathered into one (src/agents/gathered-calls.ts): the
 * machines, what occupies them and their writes take a statement each however many machines.
 */
export const setMachinesDead = modelOperationReading(
  "any",
  async (tx, model, input: MachinesInput) =>
    Promise.all([getMachines(tx, model, machineList(input.machines)), occupanciesOf(tx.db, model.id, input.machines)] as const),
  async (tx, model, _: MachinesInput, [rows, holds]) => machinesDead(tx, model, rows, holds),
  (input) => deadFootprint(input.machines),
);

const deadFootprint = (ids: readonly string[]) =>
  touching(...ids.flatMap((id) => [[entity.machine(id), "write"] as const, [entity.machineContainers(id), "read"] as const]), [
    entity.unitAssignments,
    "read",
  ]);

/**
 * Each machine Dead, in order (a Dead one as it is), refused at the first that is the model's manager or occupied. Its
 * agent stops with it (Juju's machiner reports stopped, then makes its machine Dead): one transaction where the agent
 * made two calls. A machine whose agent never reported started keeps its status.
 */
function machinesDead(tx: Tx, model: ModelRow, rows: readonly MachineRow[], holds: readonly (readonly Hold[])[]): MachineRow[] {
  const dying: MachineRow[] = [];
  for (const [i, machine] of rows.entries()) {
    refuseIfManager(machine);
    if (machine.life === Life.Dead) continue;
    const [hold] = holds[i]!;
    if (hold) throw refusal(hold, `set machine ${machine.id} Dead`);
    dying.push(machine);
  }
  const started = dying.filter((m) => m.status === MachineStatus.Started);
  const stopped = new Map(
    statusesSet(
      tx,
      model,
      started,
      started.map(() => ({ status: MachineStatus.Stopped, message: "" })),
    ).map((m) => [m.id, m]),
  );
  const dead = dying.map((m) => stopped.get(m.id) ?? m);
  setDead(tx, model, dead);
  const deadById = new Map(dead.map((m) => [m.id, { ...m, life: Life.Dead }]));
  return rows.map((m) => deadById.get(m.id) ?? m);
}

/** Deletes a Dead machine's row. */
export async function removeMachineRow(tx: Tx, model: ModelRow, machine: MachineRow): Promise<void> {
  if (machine.life !== Life.Dead)
    throw new LifelineError("NOT_DEAD", `machine ${machine.id} is ${machine.life}: only a Dead machine can be removed`);
  tx.defer(deleteMachine(tx.db, { modelId: model.id, id: machine.id }));
  forgetAgent(tx, model, "machine", machine.id);
  tx.record(model.id, machineRemoved(machine));
}

/** The provisioner's act (seed 000): "If the machine is not Dead, abort with an appropriate error. Delete the machine document." */
export const removeDeadMachine = machineOperation(
  "any",
  async (tx, model, machine, _: MachineInput) => {
    await removeMachineRow(tx, model, machine);
    return true;
  },
  // The machine is its own; a container leaves its host's containers.
  (input) => {
    const host = hostOf(input.machine);
    return touching([entity.machine(input.machine), "write"], ...(host === null ? [] : [[entity.machineContainers(host), "add"] as const]));
  },
);

export interface MachinesInput extends InModel {
  machines: readonly string[];
}

/**
 * removeDeadMachine for several machines in one transaction, in the order named (Juju's provisioner removes the Dead
 * machines of a pass together): all or nothing. True for each.
 */
export const removeDeadMachines = machinesOperation(
  "any",
  (input: MachinesInput) => input.machines,
  async (tx, model, machines) => {
    for (const machine of machines) await removeMachineRow(tx, model, machine);
    return machines.map(() => true);
  },
);

/** The machine a container id names as its host ("3" for "3/lxd/0"); null for a machine that is not a container. */
function hostOf(id: string): string | null {
  const type = id.lastIndexOf("/", id.lastIndexOf("/") - 1);
  return type > 0 ? id.slice(0, type) : null;
}

/** "Why is it still here?" for a machine: its agent lost, its occupancy and pending cleanups, else the agent it waits for. */
export async function machineBlockers(q: Queryable, machine: MachineRow): Promise<Blocker[]> {
  if (machine.life === Life.Alive) return [];
  if (machine.life === Life.Dead)
    return [{ kind: "agent", message: "Dead: waiting for the provisioner to release its instance and remove it", entities: [] }];
  const lost = machineAgentLostBlocker(machine);
  const blockers: Blocker[] = [
    ...(lost ? [lost] : []),
    ...(await occupancy(q, machine)),
    ...(await pendingCleanups(q, machine.modelId, "machine", machine.id)),
  ];
  if (!blockers.length)
    blockers.push({
      kind: "agent",
      message: "waiting for its machine agent to set it Dead (or remove it with force)",
      entities: [machine.id],
    });
  return blockers;
}

export interface ProvisionedInput extends MachineInput {
  instanceId: string;
}

/**
 * The provisioner records the instance it started for an Alive machine, once
 * (Juju's SetProvisioned): a second recording, or one for a machine that is no
 * longer Alive, is refused, and the provisioner then stops the instance it started.
 */
export const setMachineProvisioned = machineOperation(
  "any",
  async (tx, model, machine, input: ProvisionedInput) => recordInstances(tx, model, [machine], [input.instanceId])[0]!,
);

export interface MachinesProvisionedInput extends InModel {
  machines: readonly { machine: string; instanceId: string }[];
}

/** setMachineProvisioned for several machines in one transaction (Juju's SetInstanceInfo is bulk): all or nothing. */
export const setMachinesProvisioned = machinesOperation(
  "any",
  (input: MachinesProvisionedInput) => input.machines.map((m) => m.machine),
  async (tx, model, machines, input) =>
    recordInstances(
      tx,
      model,
      machines,
      input.machines.map((m) => m.instanceId),
    ),
);

/** Each machine with its instance, checked, its change recorded, and all written in one statement. */
function recordInstances(tx: Tx, model: ModelRow, rows: readonly MachineRow[], instanceIds: readonly string[]): MachineRow[] {
  const updated = rows.map((machine, i) => instanceRecorded(tx, model, machine, instanceIds[i]!));
  // Not waited for: the model's lock keeps other writers off the rows, so the rows it writes are these.
  tx.defer(setInstances(tx.db, { modelId: model.id, ids: rows.map((m) => m.id), instanceIds }));
  return updated;
}

/** The machine with its instance, checked and its change recorded; recordInstances writes it. */
function instanceRecorded(tx: Tx, model: ModelRow, machine: MachineRow, instanceId: string): MachineRow {
  if (!/^[\w./:-]{1,200}$/.test(instanceId))
    throw new LifelineError("INVALID_ARGUMENT", "an instance id is 1 to 200 letters, digits and . / : - _");
  if (machine.life !== Life.Alive) throw notAlive("machine", machine.id, machine.life);
  if (machine.instanceId !== null)
    throw new LifelineError("ALREADY_PROVISIONED", `machine ${machine.id} already has instance ${machine.instanceId}`, {
      instanceId: machine.instanceId,
    });
  const updated: MachineRow = { ...machine, instanceId };
  tx.record(model.id, machineProvisioned(updated));
  return updated;
}

export interface MachineStatusInput extends MachineInput {
  status: MachineStatus;
  message?: string | null;
}

/**
 * The machine agent reports `started` (`stopped` comes with setMachineDead); the provisioner reports `error` when it
 * cannot start an instance.
 * It touches its machine's row alone, so it runs side by side with the writers of other entities.
 */
export const setMachineStatus = machineOperation(
  "any",
  async (tx, model, machine, input: MachineStatusInput) =>
    statusesSet(tx, model, [machine], [{ status: input.status, message: input.message ?? "" }])[0]!,
  (input) => touching([entity.machine(input.machine), "write"]),
);

export interface MachinesStatusInput extends InModel {
  machines: readonly { machine: string; status: MachineStatus; message?: string | null }[];
}

/**
 * setMachineStatus for several machines in one transaction, in the order named: all or nothing. Their agents' calls
 * gathered into one (src/agents/gathered-calls.ts), or the provisioner's for several machines.
 */
export const setMachinesStatus = machinesOperation(
  "any",
  (input: MachinesStatusInput) => input.machines.map((m) => m.machine),
  async (tx, model, machines, input) =>
    statusesSet(
      tx,
      model,
      machines,
      input.machines.map((m) => ({ status: m.status, message: m.message ?? "" })),
    ),
  (input) => touching(...input.machines.map((m) => [entity.machine(m.machine), "write"] as const)),
);

/**
 * Each machine with its status set (unchanged where it already is), their change rows recorded, and the changed ones
 * written in one statement sent with the commit.
 */
function statusesSet(
  tx: Tx,
  model: ModelRow,
  rows: readonly MachineRow[],
  statuses: readonly { status: MachineStatus; message: string }[],
): MachineRow[] {
  const since = new Date();
  const changed: MachineRow[] = [];
  const updated = rows.map((machine, i) => {
    const { status } = statuses[i]!;
    const message = statuses[i]!.message.slice(0, 1000);
    if (machine.status === status && machine.statusMessage === message) return machine;
    const row: MachineRow = { ...machine, status, statusMessage: message, statusSince: since };
    tx.record(model.id, machineStatusSet(row));
    changed.push(row);
    return row;
  });
  // Not waited for: every value is set here, and the model's lock keeps other writers off the rows, so they are these.
  if (changed.length)
    tx.defer(
      setStatusesOfMachines(tx.db, {
        modelId: model.id,
        ids: changed.map((m) => m.id),
        statuses: changed.map((m) => m.status),
        messages: changed.map((m) => m.statusMessage),
        since: since.toISOString(), // a timestamp's text: a value in SQL text is sent as is
      }),
    );
  return updated;
}

export interface StartFailureInput extends MachineInput {
  /** The provider's message. */
  message: string;
  /** When the provisioner tries again; null or absent: no further attempts, and the machine goes to error. */
  retryInMs?: number | null;
}

/**
 * The provisioner could not start an Alive machine's instance (Juju's provisioner: "failed to start machine …,
 * retrying in 10s", and error after its last attempt). The attempt is counted with the provider's error, so that
 * "no further attempts" can be read rather than inferred from silence: a machine still pending says when the next
 * comes; one out of attempts is in error with the message until someone runs resolveMachine.
 */
export const recordStartFailure = machineOperation(
  "any",
  async (tx, model, machine, input: StartFailureInput) => {
    if (machine.life !== Life.Alive) throw notAlive("machine", machine.id, machine.life);
    if (machine.instanceId !== null)
      throw new LifelineError("ALREADY_PROVISIONED", `machine ${machine.id} already has instance ${machine.instanceId}`, {
        instanceId: machine.instanceId,
      });
    const retryInMs = input.retryInMs ?? null;
    if (retryInMs !== null && !(Number.isInteger(retryInMs) && retryInMs >= 0 && retryInMs <= 86_400_000))
      throw new LifelineError(
        "INVALID_ARGUMENT",
        "retryInMs is a whole number of milliseconds from 0 to a day, or null for no further attempts",
      );
    const error = input.message.slice(0, 1000);
    const attempts = machine.startAttempts + 1;
    const now = new Date();
    const set = {
      startAttempts: attempts,
      lastStartError: error,
      lastStartAttemptAt: now,
      ...(retryInMs === null
        ? { status: MachineStatus.Error, statusMessage: error }
        : {
            status: MachineStatus.Pending,
            statusMessage: `start attempt ${attempts} failed: ${error} (retrying in ${formatWait(retryInMs)})`,
          }),
      statusSince: now,
    };
    const [updated] = await tx.db.update(machines).set(set).where(machineWhere(model, machine.id)).returning();
    tx.record(model.id, machineStartFailed(updated!));
    return updated!;
  },
  (input) => touching([entity.machine(input.machine), "write"]),
);

/** "10 s", "2 min": a retry's wait as a status message says it. */
const formatWait = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

export interface ResolveMachineInput extends MachineInput {
  /** Replaces the machine's constraints (seed 004: `resolved 14 --constraints "mem=2G cpu-power=400"`). */
  constraints?: string | null;
}

/**
 * Seed 004's `resolved` for a machine in error: eligible again, optionally with
 * new constraints. A machine whose instance was lost forgets it, so the
 * provisioner starts a new one (and stops the lost one, which no machine owns
 * then). Refused for a machine not in error.
 */
export const resolveMachine = modelOperation("any", async (tx, model, input: ResolveMachineInput) => {
  const machine = await getMachine(tx, model, input.machine);
  if (machine.status !== MachineStatus.Error)
    throw new LifelineError("NOT_IN_ERROR", `machine ${machine.id} is ${machine.status}, not in error: nothing to resolve`, {
      status: machine.status,
    });
  const constraints = input.constraints == null ? machine.constraints : parseConstraints(input.constraints);
  const [updated] = await tx.db
    .update(machines)
    .set({
      constraints,
      instanceId: null,
      status: MachineStatus.Pending,
      statusMessage: "",
      statusSince: new Date(),
      // A new round of attempts: the provisioner counts them from one again.
      startAttempts: 0,
      lastStartError: null,
    })
    .where(machineWhere(model, machine.id))
    .returning();
  tx.record(model.id, machineResolved(updated!));
  return updated!;
});
