// A model from `juju add-model` to Dead. A fresh model looks as after `juju
// bootstrap` in the seeds' era, with machine 0 holding JobManageModel (the
// home of the provisioner and cleaner). `juju destroy-model` makes it Dying and
// the cleanup queue takes it apart; once only its manager machine is left, the
// model is Dead.
import { and, eq, ne, sql } from "drizzle-orm";
import { machineRemoved, modelAdded, modelConfigSet, modelConstraintsSet, modelLifeSet } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { advance, Life } from "../core/life.js";
import { MachineJob } from "../core/machine.js";
import type { Database } from "../db/connect.js";
import { applications, charms, cleanups, machines, models, sequences } from "../db/schema.js";
import { setApplicationConstraints } from "./application.js";
import type { Blocker } from "./blocker.js";
import { CleanupKinds, queueCleanup } from "./cleanup-queue.js";
import { type Constraints, parseConstraints } from "./constraints.js";
import { forgetAgent } from "./credentials.js";
import { getApplication } from "./lookup.js";
import { createMachine, type Outcome, reserveMachine } from "./machine.js";
import { checkModelName, checkSeries } from "./names.js";
import type { ModelRow, Queryable } from "./rows.js";
import {
  chosenBy,
  type InModel,
  type ModelRowWrite,
  modelOperation,
  modelOperationReading,
  modelRowOperation,
  modelRowWritten,
  type Tx,
  transact,
} from "./write/index.js";

export const DEFAULT_MODEL = "default";
export const DEFAULT_SERIES = "jammy";

export interface AddModelInput {
  name: string;
  defaultSeries?: string | null;
  constraints?: string | null;
}

async function insertModel(tx: Tx, input: AddModelInput): Promise<ModelRow> {
  const name = checkModelName(input.name);
  const defaultSeries = checkSeries(input.defaultSeries ?? DEFAULT_SERIES);
  const constraints = parseConstraints(input.constraints ?? "");
  const [existing] = await tx.db.select({ id: models.id, life: models.life }).from(models).where(eq(models.name, name));
  // A Dead model is a tombstone kept for its watchers; its name is free again.
  if (existing?.life === Life.Dead) await tx.db.delete(models).where(eq(models.id, existing.id));
  else if (existing)
    throw new LifelineError(
      "ALREADY_EXISTS",
      existing.life === Life.Alive
        ? `model "${name}" already exists`
        : `model "${name}" already exists and is ${existing.life}: the name is free once it is Dead`,
      { life: existing.life },
    );

  const [model] = await tx.db.insert(models).values({ name, defaultSeries, constraints }).returning();
  tx.record(model!.id, modelAdded(model!));
  // "A machine added without a unit copies its constraints from the environment." (seed 004)
  await createMachine(
    tx,
    model!,
    { series: defaultSeries, constraints, jobs: [MachineJob.ManageModel, MachineJob.HostUnits] },
    reserveMachine(tx, model!),
  );
  return model!;
}

/** `juju add-model`: a new model holding machine 0, as after bootstrap. */
export const addModel = (db: Database, input: AddModelInput) => transact(db, (tx) => insertModel(tx, input));

/** Creates the default model on a fresh store; a no-op when any model exists. */
export const bootstrap = (db: Database) =>
  transact(db, async (tx) => {
    const [any] = await tx.db.select({ id: models.id }).from(models).limit(1);
    if (!any) await insertModel(tx, { name: DEFAULT_MODEL });
  });

export interface SetConstraintsInput extends InModel {
  /** The application whose constraints to set; the model's when omitted. */
  application?: string | null;
  constraints: string;
}

/** `juju set-model-constraints`: the model's row alone is written (row-rewrite.ts). */
const setModelConstraints = modelRowOperation(Life.Alive, (model, input: SetConstraintsInput): ModelRowWrite<Constraints> => {
  const constraints = parseConstraints(input.constraints);
  return { set: { constraints }, change: modelConstraintsSet(model, constraints), result: constraints };
});

/** `juju set-constraints` on an application, read first. */
const setApplicationConstraintsIn = modelOperationReading(
  Life.Alive,
  async (tx, model, input: SetConstraintsInput) => getApplication(tx, model, input.application!),
  async (tx, model, input, app): Promise<Constraints> => setApplicationConstraints(tx, model, app, input.constraints),
);

/**
 * `juju set-constraints` / `juju set-model-constraints`: what units and machines created from now on capture; machines
 * and units already created keep theirs (seed 004).
 */
export const setConstraints = chosenBy((input: SetConstraintsInput) =>
  input.application == null ? setModelConstraints : setApplicationConstraintsIn,
);

export interface SetModelConfigInput extends InModel {
  /** Juju's automatically-retry-hooks; left as it is when omitted. */
  automaticallyRetryHooks?: boolean | null;
}

/**
 * `juju model-config`: the model's settings. automatically-retry-hooks (on by
 * default) lets unit agents retry a failed hook by themselves, with backoff;
 * off, a failed hook waits for resolveUnit. A setting left as it was writes
 * nothing. Any life: a Dying model's units still run hooks.
 */
export const setModelConfig = modelOperation("any", async (tx, model, input: SetModelConfigInput): Promise<ModelRow> => {
  const retry = input.automaticallyRetryHooks ?? model.automaticallyRetryHooks;
  if (retry === model.automaticallyRetryHooks) return model;
  const [updated] = await tx.db.update(models).set({ automaticallyRetryHooks: retry }).where(eq(models.id, model.id)).returning();
  modelRowWritten(tx, model.name);
  tx.record(model.id, modelConfigSet(updated!));
  return updated!;
});

export interface DestroyModelInput extends InModel {
  force?: boolean | null;
}

/** `juju destroy-model`'s write: Dying at once, and the destroy-model cleanup queued (the cleaner's, forced with `force`). */
export async function startModelDestruction(tx: Tx, model: ModelRow, input: DestroyModelInput): Promise<Outcome> {
  if (model.life !== Life.Alive) return "unchanged";
  await tx.db
    .update(models)
    .set({ life: advance(`model ${model.name}`, model.life, Life.Dying) })
    .where(eq(models.id, model.id));
  modelRowWritten(tx, model.name);
  tx.record(model.id, modelLifeSet(model.name, Life.Dying));
  await queueCleanup(tx, model, CleanupKinds.destroyModel, model.name, { force: !!input.force });
  return "dying";
}

/** `juju destroy-model`: Dying at once; the cleaner destroys what is in it (forced with `force`). */
export const destroyModel = modelOperation("any", startModelDestruction);

const count = sql<number>`count(*)::int`;
const notManager = sql`not (${MachineJob.ManageModel} = any(${machines.jobs}))`;

/**
 * What a Dying model still holds: applications, machines other than its
 * managers, and queued cleanups (but `finishing`, the one asking).
 */
async function contents(q: Queryable, model: ModelRow, finishing?: typeof CleanupKinds.destroyModel): Promise<Blocker[]> {
  const [apps] = await q.select({ n: count }).from(applications).where(eq(applications.modelId, model.id));
  const [hosts] = await q
    .select({ n: count })
    .from(machines)
    .where(and(eq(machines.modelId, model.id), notManager));
  const [queued] = await q
    .select({ n: count })
    .from(cleanups)
    .where(and(eq(cleanups.modelId, model.id), finishing ? ne(cleanups.kind, finishing) : undefined));
  const blockers: Blocker[] = [];
  if (apps?.n) blockers.push({ kind: "applications", message: `${apps.n} application(s) remain`, entities: [] });
  if (hosts?.n) blockers.push({ kind: "machines", message: `${hosts.n} machine(s) remain`, entities: [] });
  if (queued?.n)
    blockers.push({ kind: "pending-cleanup", message: `${queued.n} cleanup(s) queued: the cleaner runs them (runCleanups)`, entities: [] });
  return blockers;
}

/**
 * Finishes a Dying model once nothing but its managers is left (`contents`):
 * the managers go with it and it becomes Dead. Its row and change log stay,
 * so watchers see the end; the name is free again.
 */
export async function finishModel(tx: Tx, model: ModelRow): Promise<boolean> {
  if ((await contents(tx.db, model, CleanupKinds.destroyModel)).length) return false;
  const managers = await tx.db.select().from(machines).where(eq(machines.modelId, model.id));
  // Containers first: a parent's id is a prefix of its containers' ids.
  for (const manager of managers.sort((a, b) => b.id.length - a.id.length)) {
    await tx.db.delete(machines).where(and(eq(machines.modelId, model.id), eq(machines.id, manager.id)));
    forgetAgent(tx, model, "machine", manager.id);
    tx.record(model.id, machineRemoved(manager));
  }
  await tx.db.delete(charms).where(eq(charms.modelId, model.id));
  await tx.db.delete(sequences).where(eq(sequences.modelId, model.id));
  await tx.db
    .update(models)
    .set({ life: advance(`model ${model.name}`, model.life, Life.Dead) })
    .where(eq(models.id, model.id));
  modelRowWritten(tx, model.name);
  tx.record(model.id, modelLifeSet(model.name, Life.Dead));
  return true;
}

/** "Why is it still here?" for a Dying model: what it still holds. */
export async function modelBlockers(q: Queryable, model: ModelRow): Promise<Blocker[]> {
  return model.life === Life.Dying ? contents(q, model) : [];
}
