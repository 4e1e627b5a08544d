// Who may act where (seed 001 "Agents"; Juju's API authorizers): a unit agent
// on its unit; a machine agent on its machine, its containers and the units
// deployed on them; the deployer (the machine agent, or for a subordinate its
// principal's unit agent) removes Dead units; the provisioner (the agent of a
// JobManageModel machine) on the model's machines. People act by role: admins
// on everything, operators on every model operation (agents' too, to repair),
// read-only tokens on nothing. Reads need only valid credentials.
import { and, eq } from "drizzle-orm";
import { MachineJob } from "../core/machine.js";
import { machines, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Actor, PersonRole } from "./credentials.js";
import type { Queryable } from "./rows.js";

const rank: Record<PersonRole, number> = { "read-only": 0, operator: 1, admin: 2 };

/** A person whose role is at least `role`. */
export const isPerson = (actor: Actor, role: PersonRole) => actor.kind === "person" && rank[actor.role] >= rank[role];

/** People who may run every model operation, agents' included. */
const operates = (actor: Actor) => isPerson(actor, "operator");

/** Machine `id` is `host` or one of its containers (at any depth: "1/lxd/0" is in "1"). */
const within = (host: string, id: string) => id === host || id.startsWith(`${host}/`);

/** An agent of the model named `model` (its credentials name it: no query). */
const sameModel = (actor: Actor, model: string) => actor.kind !== "person" && actor.model === model;

/** The unit's own agent (or an operator). */
export function actsForUnit(actor: Actor, target: { model: string; unit: string }): boolean {
  if (operates(actor)) return true;
  return actor.kind === "unit" && actor.unit === target.unit && sameModel(actor, target.model);
}

/** The agent of the machine or of a machine that hosts it as a container (or an operator). */
export function actsForMachine(actor: Actor, target: { model: string; machine: string }): boolean {
  if (operates(actor)) return true;
  return actor.kind === "machine" && within(actor.machine, target.machine) && sameModel(actor, target.model);
}

/** The agent of a machine that hosts this one as a container (Juju's container provisioner runs there); not the machine's own. */
export function hostsContainer(actor: Actor, target: { model: string; machine: string }): boolean {
  if (operates(actor)) return true;
  return (
    actor.kind === "machine" && target.machine !== actor.machine && within(actor.machine, target.machine) && sameModel(actor, target.model)
  );
}

const unitPlacement = statement(["modelId", "name"], (db, p) =>
  db
    .select({ machineId: units.machineId, principal: units.principal })
    .from(units)
    .where(and(eq(units.modelId, p.modelId), eq(units.name, p.name))),
);
const machineJobs = statement(["modelId", "id"], (db, p) =>
  db
    .select({ jobs: machines.jobs })
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), eq(machines.id, p.id))),
);

/** The unit's deployer: its machine's agent for a principal, its principal's unit agent (or that one's machine agent) for a subordinate. */
export async function deploysUnit(q: Queryable, actor: Actor, target: { model: string; unit: string }): Promise<boolean> {
  if (operates(actor)) return true;
  if (actor.kind === "person" || !sameModel(actor, target.model)) return false;
  const [unit] = await unitPlacement(q, { modelId: actor.modelId, name: target.unit });
  if (!unit) return false;
  if (unit.principal !== null) {
    if (actor.kind === "unit") return actor.unit === unit.principal;
    return deploysUnit(q, actor, { model: target.model, unit: unit.principal });
  }
  return actor.kind === "machine" && unit.machineId !== null && within(actor.machine, unit.machineId);
}

/** The model's provisioner: the agent of one of its JobManageModel machines (or an operator). */
export async function provisionsModel(q: Queryable, actor: Actor, target: { model: string }): Promise<boolean> {
  if (operates(actor)) return true;
  if (actor.kind !== "machine" || !sameModel(actor, target.model)) return false;
  const [machine] = await machineJobs(q, { modelId: actor.modelId, id: actor.machine });
  return !!machine?.jobs.includes(MachineJob.ManageModel);
}
