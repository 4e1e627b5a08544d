// The user's remove operations (seed 000), each taking several targets in one
// transaction: all of them happen, or (on any refusal) none. Targets already
// Dying or Dead are no-ops. With immediate force, the forced fallbacks they
// queued run before the operation returns (Juju's --no-wait).
import { LifelineError, tooManyACall } from "../core/errors.js";
import type { Database } from "../db/connect.js";
import { destroyApplication } from "./application.js";
import { cleanupHandlers, runCleanupQueue } from "./cleanups.js";
import { getApplication, getMachine, getRelation } from "./lookup.js";
import { type DestroyOptions, destroyMachine, type Outcome } from "./machine.js";
import { destroyRelationByUser, findRelation } from "./relation.js";
import type { ModelRow } from "./rows.js";
import { destroyUnit, findUnitToRemove } from "./unit.js";
import { type InModel, type ModelKey, modelOperationReading, type Tx } from "./write/index.js";

export interface RemovalResult {
  id: string;
  outcome: Outcome;
}

export interface RemoveInput extends InModel {
  targets: readonly string[];
  force?: boolean | null;
  /** With force: seconds to wait for a clean exit before the forced fallback; 0 or none is now (Juju's --no-wait). */
  maxWait?: number | null;
}

function forceOptions(input: RemoveInput): DestroyOptions {
  const wait = input.maxWait ?? 0;
  if (!Number.isFinite(wait) || wait < 0 || wait > 86_400)
    throw new LifelineError("INVALID_ARGUMENT", `maxWait must be between 0 and 86400 seconds, got ${wait}`);
  if (!input.force) {
    if (input.maxWait) throw new LifelineError("INVALID_ARGUMENT", "maxWait only applies with force");
    return {};
  }
  return { force: true, forceAt: new Date(Date.now() + wait * 1000) };
}

/** Cleanup batches a forced removal runs before it answers; the rest is the cleaner's. */
export const FORCE_INLINE_BATCHES = 100;

/**
 * The most entities one removal names: it is one transaction holding its model's lock, so the list is bounded like
 * addUnit's count (Juju's bulk calls are bounded by their clients; ours by the server). Name more in more calls.
 */
export const MAX_REMOVALS_PER_REQUEST = 1000;

function distinct(targets: readonly string[], kind: string): string[] {
  if (!targets.length) throw new LifelineError("INVALID_ARGUMENT", `name at least one ${kind} to remove`);
  if (targets.length > MAX_REMOVALS_PER_REQUEST) throw tooManyACall(`${kind}s`, MAX_REMOVALS_PER_REQUEST, targets.length);
  return [...new Set(targets)];
}

/** A target's row by its name, as a removal's first read: it needs only the model's id. */
type Find<T> = (tx: Tx, model: ModelKey, target: string) => Promise<T>;
type Destroy<T> = (tx: Tx, model: ModelRow, row: T, options: DestroyOptions) => Promise<Outcome>;

interface Removal extends InModel {
  targets: readonly string[];
  options: DestroyOptions;
}

/** A remove operation over targets of one kind; the first target is read with the model's lock (modelOperationReading). */
function removal<T>(kind: string, find: Find<T>, destroy: Destroy<T>) {
  const removeAll = modelOperationReading(
    "any",
    (tx, model, input: Removal) => find(tx, model, input.targets[0]!),
    async (tx, model, input, first) => {
      const results: RemovalResult[] = [];
      for (const [i, target] of input.targets.entries())
        results.push({ id: target, outcome: await destroy(tx, model, i === 0 ? first : await find(tx, model, target), input.options) });
      return { model, results };
    },
  );
  return async (db: Database, input: RemoveInput): Promise<RemovalResult[]> => {
    const options = forceOptions(input);
    const { model, results } = await removeAll(db, { model: input.model, targets: distinct(input.targets, kind), options });
    // Force with no wait does what it can before answering, within a budget: a forced removal of 100,000 units is
    // 100,000 bounded transactions, which the cleaner (an agent, or runCleanups) carries on with after the answer.
    if (options.force && !input.maxWait)
      await runCleanupQueue(db, cleanupHandlers, { modelId: model.id, maxBatches: FORCE_INLINE_BATCHES });
    return results;
  };
}

/** `juju remove-machine`. */
export const removeMachines = removal("machine", getMachine, destroyMachine);

/** `juju remove-unit`. */
export const removeUnits = removal("unit", findUnitToRemove, (tx, model, { unit, read }, options) =>
  destroyUnit(tx, model, unit, options, read),
);

/** `juju remove-application`. */
export const removeApplications = removal("application", getApplication, destroyApplication);

/** `juju remove-relation`: relations named by id ("3"), canonical key, or endpoints ("wordpress mysql"). */
export const removeRelations = removal(
  "relation",
  (tx, model, spec) => (/^\d+$/.test(spec) ? getRelation(tx, model, Number(spec)) : findRelation(tx, model, spec)),
  destroyRelationByUser,
);
