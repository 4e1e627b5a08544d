// The user's remove operations, each taking several targets in one
// transaction: all of them happen, or (on any refusal) none.
import type { Database } from "../db/connect.js";
import { destroyApplication } from "./application-life.js";
import { getApplication } from "./applications.js";
import { cleanupHandlers } from "./cleanup-handlers.js";
import { runCleanups, type CleanupReport } from "./cleanups.js";
import { LifelineError } from "./errors.js";
import { destroyMachine } from "./machine-life.js";
import { getMachine } from "./machines.js";
import { destroyModel } from "./model-life.js";
import { getModel, type ModelRow } from "./models.js";
import { destroyRelation, forceRemoveRelation, getRelation, type Outcome } from "./relation-life.js";
import { findRelation } from "./relations.js";
import { transact, type Tx } from "./tx.js";
import { destroyUnit, type DestroyOptions } from "./unit-life.js";
import { getUnit } from "./units.js";

export interface RemovalResult {
  id: string;
  outcome: Outcome;
}

export interface RemoveArgs {
  model: string;
  targets: readonly string[];
  force?: boolean | null;
  /** With force: seconds to wait for a clean exit before the forced fallback; 0 or none is now (Juju's --no-wait). */
  maxWait?: number | null;
}

function forceOptions(args: RemoveArgs): DestroyOptions {
  const wait = args.maxWait ?? 0;
  if (!Number.isFinite(wait) || wait < 0 || wait > 86_400)
    throw new LifelineError("INVALID_ARGUMENT", `maxWait must be between 0 and 86400 seconds, got ${wait}`);
  if (!args.force) {
    if (args.maxWait) throw new LifelineError("INVALID_ARGUMENT", "maxWait only applies with force");
    return {};
  }
  return { force: true, forceAt: new Date(Date.now() + wait * 1000) };
}

function distinct(targets: readonly string[], kind: string): string[] {
  if (!targets.length) throw new LifelineError("INVALID_ARGUMENT", `name at least one ${kind} to remove`);
  return [...new Set(targets)];
}

/** Runs the removal, then, when force is immediate, the forced fallbacks it queued. */
async function remove(
  db: Database,
  args: RemoveArgs,
  kind: string,
  each: (tx: Tx, model: ModelRow, target: string, options: DestroyOptions) => Promise<Outcome>,
): Promise<RemovalResult[]> {
  const options = forceOptions(args);
  const targets = distinct(args.targets, kind);
  const { model, results } = await transact(db, async (tx) => {
    const model = await getModel(tx, args.model);
    const results: RemovalResult[] = [];
    for (const target of targets) results.push({ id: target, outcome: await each(tx, model, target, options) });
    return { model, results };
  });
  if (options.force && !args.maxWait) await runCleanups(db, cleanupHandlers, { modelId: model.id });
  return results;
}

export const removeMachines = (db: Database, args: RemoveArgs) =>
  remove(db, args, "machine", async (tx, model, id, options) => destroyMachine(tx, model, await getMachine(tx, model, id), options));

export const removeUnits = (db: Database, args: RemoveArgs) =>
  remove(db, args, "unit", async (tx, model, name, options) => destroyUnit(tx, model, await getUnit(tx, model, name), options));

export const removeApplications = (db: Database, args: RemoveArgs) =>
  remove(db, args, "application", async (tx, model, name, options) =>
    destroyApplication(tx, model, await getApplication(tx, model, name), options),
  );

/** Relations are named by id ("3"), canonical key, or Juju's `remove-relation a b` endpoints ("wordpress mysql"). */
export const removeRelations = (db: Database, args: RemoveArgs) =>
  remove(db, args, "relation", async (tx, model, spec, options) => {
    const relation = /^\d+$/.test(spec) ? await getRelation(tx, model, Number(spec)) : await findRelation(tx, model, spec);
    return options.force ? forceRemoveRelation(tx, model, relation) : destroyRelation(tx, model, relation);
  });

export async function destroyModelNamed(db: Database, name: string, force = false): Promise<Outcome> {
  return transact(db, (tx) => destroyModel(tx, name, { force }));
}

/** The cleaner agent's operation: runs due cleanups, in bounded batches. */
export async function runDueCleanups(db: Database, modelName?: string | null, maxBatches?: number | null): Promise<CleanupReport> {
  const modelId = modelName ? (await transact(db, (tx) => getModel(tx, modelName))).id : undefined;
  return runCleanups(db, cleanupHandlers, { ...(modelId ? { modelId } : {}), ...(maxBatches ? { maxBatches } : {}) });
}
