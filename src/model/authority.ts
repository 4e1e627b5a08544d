// Who may act where, and who may read what (seed 001 "Agents"; Juju's API
// authorizers and facades). The one table of scopes: src/graphql/builder.ts
// names each rule below as a scope, and every field declares the ones it needs.
//
// Acting: a unit agent on its unit; a machine agent on its machine, its
// containers and the units deployed on them; the deployer (the machine agent,
// or for a subordinate its principal's unit agent) removes Dead units; the
// provisioner (the agent of a JobManageModel machine) on the model's machines.
// People act by role (admins on everything, operators on every model
// operation, agents' too, to repair; read-only tokens on nothing), within the
// models their token reaches.
//
// Reading, as Juju's facades give it: people read all of the models their token
// reaches, whatever their role; the provisioner (the model's manager machine)
// reads its model; a machine agent its machine, its containers and the units
// deployed there; a unit agent its unit, its subordinates, its application (and
// its charm and config) and the relations its application is in. Every rule is
// answered from the names in the request before anything is looked up (or, for
// the few that need the store, the same way for what does not exist and what is
// not the caller's), so a refusal never tells whether the thing exists.
import { and, eq } from "drizzle-orm";
import { MachineJob } from "../core/machine.js";
import { applicationsOfKey } from "../core/relation.js";
import { applicationOfUnit } from "../core/unit-name.js";
import type { Database } from "../db/connect.js";
import { readTogether } from "../db/read-together.js";
import { applications, machines, relations } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Actor, PersonRole } from "./credentials.js";
import { entityKey, loadUnits } from "./read.js";
import type { Queryable } from "./rows.js";

const rank: Record<PersonRole, number> = { "read-only": 0, operator: 1, admin: 2 };

/** The caller's credentials reach the model: a person's token naming it (or every model), an agent of it. */
export function reachesModel(actor: Actor, model: string): boolean {
  if (actor.kind === "person") return actor.models === null || actor.models.includes(model);
  return actor.model === model;
}

/** The models the caller's credentials reach by name; null for every model. */
export const reachableModels = (actor: Actor): readonly string[] | null => (actor.kind === "person" ? actor.models : [actor.model]);

/** A person whose role is at least `role` and whose token reaches every model (the controller's own operations). */
export const isPerson = (actor: Actor, role: PersonRole) =>
  actor.kind === "person" && rank[actor.role] >= rank[role] && actor.models === null;

/** A person whose role is at least `role` and whose token reaches the model. */
export const isPersonIn = (actor: Actor, target: { role: PersonRole; model: string }) =>
  actor.kind === "person" && rank[actor.role] >= rank[target.role] && reachesModel(actor, target.model);

/** People who may run every operation in the model, agents' included. */
const operates = (actor: Actor, model: string) => isPersonIn(actor, { role: "operator", model });

/** Machine `id` is `host` or one of its containers (at any depth: "1/lxd/0" is in "1"). */
const within = (host: string, id: string) => id === host || id.startsWith(`${host}/`);

/** An agent of the model named `model` (its credentials name it: no query). */
const sameModel = (actor: Actor, model: string) => actor.kind !== "person" && actor.model === model;

/** The unit's own agent (or an operator). */
export function actsForUnit(actor: Actor, target: { model: string; unit: string }): boolean {
  if (operates(actor, target.model)) return true;
  return actor.kind === "unit" && actor.unit === target.unit && sameModel(actor, target.model);
}

/** The agent of the machine or of a machine that hosts it as a container (or an operator). */
export function actsForMachine(actor: Actor, target: { model: string; machine: string }): boolean {
  if (operates(actor, target.model)) return true;
  return actor.kind === "machine" && within(actor.machine, target.machine) && sameModel(actor, target.model);
}

/** The agent of a machine that hosts this one as a container (Juju's container provisioner runs there); not the machine's own. */
export function hostsContainer(actor: Actor, target: { model: string; machine: string }): boolean {
  if (operates(actor, target.model)) return true;
  return (
    actor.kind === "machine" && target.machine !== actor.machine && within(actor.machine, target.machine) && sameModel(actor, target.model)
  );
}

/**
 * Units by model id and name, the lookups of one turn read together (read-together.ts): each call a machine agent
 * makes on a unit it deploys (its credentials, its removal) asks one, and they come a hundred at a time.
 */
const unitByKey = readTogether(loadUnits);
const machineJobs = statement(["modelId", "id"], (db, p) =>
  db
    .select({ jobs: machines.jobs })
    .from(machines)
    .where(and(eq(machines.modelId, p.modelId), eq(machines.id, p.id))),
);
const applicationCharm = statement(["modelId", "name"], (db, p) =>
  db
    .select({ charmUrl: applications.charmUrl })
    .from(applications)
    .where(and(eq(applications.modelId, p.modelId), eq(applications.name, p.name))),
);
const relationKey = statement(["modelId", "id"], (db, p) =>
  db
    .select({ key: relations.key })
    .from(relations)
    .where(and(eq(relations.modelId, p.modelId), eq(relations.id, p.id))),
);

/** The unit's deployer: its machine's agent for a principal, its principal's unit agent (or that one's machine agent) for a subordinate. */
export async function deploysUnit(q: Queryable, actor: Actor, target: { model: string; unit: string }): Promise<boolean> {
  if (operates(actor, target.model)) return true;
  return deploys(q, actor, target);
}

async function deploys(q: Queryable, actor: Actor, target: { model: string; unit: string }): Promise<boolean> {
  if (actor.kind === "person" || !sameModel(actor, target.model)) return false;
  const unit = await unitByKey(q as Database, entityKey(actor.modelId, target.unit));
  return !!unit && deploysPlaced(q, actor, unit);
}

/** deploysUnit for a unit whose placement is known (its row). */
async function deploysPlaced(q: Queryable, actor: Actor, unit: { machineId: string | null; principal: string | null }): Promise<boolean> {
  if (actor.kind === "person") return false;
  if (unit.principal !== null) {
    if (actor.kind === "unit") return actor.unit === unit.principal;
    return deploys(q, actor, { model: actor.model, unit: unit.principal });
  }
  return actor.kind === "machine" && unit.machineId !== null && within(actor.machine, unit.machineId);
}

/** Whether each machine agent manages its model: a machine's jobs never change, so the answer lasts as long as its actor. */
const managers = new WeakMap<Actor, Promise<boolean>>();

/** The agent of one of the model's JobManageModel machines: Juju's controller agent, which runs its provisioner and cleaner. */
function managesModel(q: Queryable, actor: Actor, model: string): Promise<boolean> {
  if (actor.kind !== "machine" || !sameModel(actor, model)) return Promise.resolve(false);
  let answer = managers.get(actor);
  if (!answer) {
    answer = machineJobs(q, { modelId: actor.modelId, id: actor.machine }).then(
      ([machine]) => !!machine?.jobs.includes(MachineJob.ManageModel),
    );
    // A failed read (the database away) is asked again next time.
    answer.catch(() => managers.delete(actor));
    managers.set(actor, answer);
  }
  return answer;
}

/** The model's provisioner: the agent of one of its JobManageModel machines (or an operator). */
export async function provisionsModel(q: Queryable, actor: Actor, target: { model: string }): Promise<boolean> {
  return operates(actor, target.model) || managesModel(q, actor, target.model);
}

/** Reads everything in the model: a person whose token reaches it (any role), or the model's manager machine agent. */
export async function readsWholeModel(q: Queryable, actor: Actor, target: { model: string }): Promise<boolean> {
  if (actor.kind === "person") return reachesModel(actor, target.model);
  return managesModel(q, actor, target.model);
}

/** Reads the unit: its own agent, its deployer, or whoever reads the whole model. */
export async function readsUnit(q: Queryable, actor: Actor, target: { model: string; unit: string }): Promise<boolean> {
  if (actor.kind === "unit" && actor.unit === target.unit && sameModel(actor, target.model)) return true;
  return (await readsWholeModel(q, actor, target)) || deploys(q, actor, target);
}

/** Reads the machine: its agent or its host's, or whoever reads the whole model. */
export async function readsMachine(q: Queryable, actor: Actor, target: { model: string; machine: string }): Promise<boolean> {
  if (actor.kind === "machine" && within(actor.machine, target.machine) && sameModel(actor, target.model)) return true;
  return readsWholeModel(q, actor, target);
}

/** Reads the application (its config, its charm): the agents of its units, or whoever reads the whole model. */
export async function readsApplication(q: Queryable, actor: Actor, target: { model: string; application: string }): Promise<boolean> {
  if (actor.kind === "unit" && applicationOfUnit(actor.unit) === target.application && sameModel(actor, target.model)) return true;
  return readsWholeModel(q, actor, target);
}

/** A unit agent whose application is one of the relation's (its key, or its id looked up). */
async function inRelation(q: Queryable, actor: Actor, target: { model: string; relation: number | string }): Promise<boolean> {
  if (actor.kind !== "unit" || !sameModel(actor, target.model)) return false;
  const key =
    typeof target.relation === "string" ? target.relation : (await relationKey(q, { modelId: actor.modelId, id: target.relation }))[0]?.key;
  return !!key && applicationsOfKey(key).includes(applicationOfUnit(actor.unit));
}

/** A unit agent whose application runs the charm. */
async function usesCharm(q: Queryable, actor: Actor, url: string): Promise<boolean> {
  if (actor.kind !== "unit") return false;
  const [application] = await applicationCharm(q, { modelId: actor.modelId, name: applicationOfUnit(actor.unit) });
  return application?.charmUrl === url;
}

/** Reads the relation (its endpoints, members and settings): the agents of its applications' units, or whoever reads the whole model. */
export async function readsRelation(q: Queryable, actor: Actor, target: { model: string; relation: number | string }): Promise<boolean> {
  return (await inRelation(q, actor, target)) || readsWholeModel(q, actor, target);
}

/** Watches a relation as one of its units: that unit's agent, in the relation; or whoever reads the whole model. */
export async function watchesRelationAs(
  q: Queryable,
  actor: Actor,
  target: { model: string; relation: number; unit: string },
): Promise<boolean> {
  if (actor.kind === "unit" && actor.unit === target.unit && (await inRelation(q, actor, target))) return true;
  return readsWholeModel(q, actor, target);
}

/** An entity met inside a model already read (a unit's machine, a relation's application): whether the caller reads it too. */
export type Reached =
  /** All of the model: what only people and its manager machine's agent read (every unit's, every machine's). */
  | { kind: "model" }
  /** What a unit's agent keeps for itself: its state document, its hook runs. */
  | { kind: "unitState"; unit: string }
  | { kind: "charm"; url: string }
  | { kind: "unit"; name: string; machineId: string | null; principal: string | null }
  | { kind: "machine"; id: string }
  | { kind: "application"; name: string }
  | { kind: "relation"; key: string };

/** The agent whose own entity this is (a machine's agent, a unit's), among `agents`: the one that reads it at once. */
export function ownerAmong(agents: readonly (Actor | null)[], modelId: string, entity: Reached): Actor | undefined {
  const owns = (agent: Actor | null) =>
    !!agent &&
    agent.kind !== "person" &&
    agent.modelId === modelId &&
    ((entity.kind === "machine" && agent.kind === "machine" && agent.machine === entity.id) ||
      ((entity.kind === "unit" || entity.kind === "unitState") &&
        agent.kind === "unit" &&
        agent.unit === (entity.kind === "unit" ? entity.name : entity.unit)));
  return agents.find(owns) ?? undefined;
}

/**
 * Whether the caller reads an entity of the model `modelId` reached from something it read there (a unit's machine,
 * a relation's application). Every path into a model names it and is checked (Query.model, a mutation's or a
 * subscription's model); this is the check on every step inside, so no field can lead past the caller's reach.
 * `modelName` names a model by id, for people whose token names models (remembered per request by its caller).
 */
export function readsReached(
  q: Queryable,
  actor: Actor,
  modelId: string,
  entity: Reached,
  modelName: (id: string) => Promise<string | undefined>,
): boolean | Promise<boolean> {
  // Answered at once for the common case (a status page of a thousand units asks it of each).
  if (actor.kind === "person" && actor.models === null) return true;
  if (actor.kind === "person") return modelName(modelId).then((name) => name !== undefined && reachesModel(actor, name));
  if (actor.modelId !== modelId) return false;
  return readsReachedInModel(q, actor, entity);
}

async function readsReachedInModel(q: Queryable, actor: Exclude<Actor, { kind: "person" }>, entity: Reached): Promise<boolean> {
  const model = actor.model;
  switch (entity.kind) {
    case "model":
      return managesModel(q, actor, model);
    case "unitState":
      return (actor.kind === "unit" && actor.unit === entity.unit) || managesModel(q, actor, model);
    case "charm":
      return (await managesModel(q, actor, model)) || usesCharm(q, actor, entity.url);
    case "unit":
      if (actor.kind === "unit" && actor.unit === entity.name) return true;
      // The manager's answer is remembered; a subordinate's deployer is looked up.
      return (await managesModel(q, actor, model)) || deploysPlaced(q, actor, entity);
    case "machine":
      return readsMachine(q, actor, { model, machine: entity.id });
    case "application":
      return readsApplication(q, actor, { model, application: entity.name });
    case "relation":
      return readsRelation(q, actor, { model, relation: entity.key });
  }
}
