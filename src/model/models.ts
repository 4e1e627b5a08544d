// Models: a fresh model looks as after `juju bootstrap` in the seeds' era, with
// machine 0 holding JobManageModel (the home of the provisioner and cleaner).
import { eq } from "drizzle-orm";
import { models } from "../db/schema.js";
import { parseConstraints, type Constraints } from "./constraints.js";
import { LifelineError, notFound } from "./errors.js";
import { createMachine, MachineJob } from "./machines.js";
import { checkModelName, checkSeries } from "./names.js";
import type { Tx } from "./tx.js";

export type ModelRow = typeof models.$inferSelect;

export const DEFAULT_MODEL = "default";
export const DEFAULT_SERIES = "jammy";

export interface AddModelArgs {
  name: string;
  defaultSeries?: string | null;
  constraints?: string | null;
}

export async function addModel(tx: Tx, args: AddModelArgs): Promise<ModelRow> {
  const name = checkModelName(args.name);
  const defaultSeries = checkSeries(args.defaultSeries ?? DEFAULT_SERIES);
  const constraints = parseConstraints(args.constraints ?? "");
  const [existing] = await tx.db.select({ id: models.id, life: models.life }).from(models).where(eq(models.name, name));
  // A Dead model is a tombstone kept for its watchers; its name is free again.
  if (existing?.life === "dead") await tx.db.delete(models).where(eq(models.id, existing.id));
  else if (existing)
    throw new LifelineError(
      "ALREADY_EXISTS",
      existing.life === "alive" ? `model "${name}" already exists` : `model "${name}" already exists and is ${existing.life}: the name is free once it is Dead`,
      { life: existing.life },
    );

  const [model] = await tx.db.insert(models).values({ name, defaultSeries, constraints }).returning();
  tx.record({ modelId: model!.id, kind: "model", entity: name, life: "alive", fields: { defaultSeries, constraints } });
  // "A machine added without a unit copies its constraints from the environment." (seed 004)
  await createMachine(tx, model!, {
    series: defaultSeries,
    constraints,
    jobs: [MachineJob.ManageModel, MachineJob.HostUnits],
  });
  return model!;
}

/** Creates the default model on a fresh store; a no-op when any model exists. */
export async function bootstrap(tx: Tx): Promise<void> {
  const [any] = await tx.db.select({ id: models.id }).from(models).limit(1);
  if (!any) await addModel(tx, { name: DEFAULT_MODEL });
}

/**
 * The model row by name, or NOT_FOUND; locked for the rest of the
 * transaction, which serializes writers of one model (see tx.ts).
 */
export async function getModel(tx: Tx, name: string): Promise<ModelRow> {
  const [model] = await tx.db.select().from(models).where(eq(models.name, checkModelName(name))).for("update");
  if (!model) throw notFound("model", name);
  return model;
}

export async function getAliveModel(tx: Tx, name: string): Promise<ModelRow> {
  const model = await getModel(tx, name);
  if (model.life !== "alive") throw new LifelineError("NOT_ALIVE", `model "${name}" is ${model.life}`);
  return model;
}

export async function setModelConstraints(tx: Tx, modelName: string, text: string): Promise<Constraints> {
  const model = await getAliveModel(tx, modelName);
  const constraints = parseConstraints(text);
  await tx.db.update(models).set({ constraints }).where(eq(models.id, model.id));
  tx.record({ modelId: model.id, kind: "model", entity: model.name, life: model.life, fields: { constraints } });
  return constraints;
}
