// The user's remove operations (seed 000), each taking several targets in one
// transaction: all of them happen, or (on any refusal) none. Targets already
// Dying or Dead are no-ops. With immediate force, the forced fallbacks they
// queued run before the operation returns (Juju's --no-wait). A dry run rehearses the
// operation (write/rehearsal.ts) and answers, for each target, the change rows its
// destruction recorded and what would then hold it: nothing is kept, and the cleanups
// it would queue are listed, not run.
import type { Change } from "../changes/change.js";
import { LifelineError, tooManyACall } from "../core/errors.js";
import type { Database } from "../db/connect.js";
import { applicationBlockers, destroyApplication } from "./application.js";
import type { Blocker } from "./blocker.js";
import { cleanupHandlers, runCleanupQueue } from "./cleanups.js";
import { getApplication, getMachine, getRelation, getUnit } from "./lookup.js";
import { type DestroyOptions, destroyMachine, machineBlockers, type Outcome } from "./machine.js";
import { destroyRelationByUser, findRelation, relationBlockers } from "./relation.js";
import type { ModelRow } from "./rows.js";
import { destroyUnit, findUnitToRemove, unitBlockers } from "./unit.js";
import { type InModel, type ModelKey, modelOperationReading, type Tx } from "./write/index.js";

/**
 * What a dry run saw a removal do to one entity: a change row it recorded, without its fields. A cleanup's also says
 * what it is ("<kind> <target>"): its id, as the row's entity, is one the real call will not give it (a sequence's
 * values are not rolled back).
 */
export type RemovalEffect = Pick<Change, "kind" | "entity" | "life" | "removed"> & { cleanup?: string };

export const effectOf = (change: Change): RemovalEffect => {
  const { kind, entity, life, removed } = change;
  return change.kind === "cleanup"
    ? { kind, entity, life, removed, cleanup: `${change.fields.kind} ${change.fields.target}` }
    : { kind, entity, life, removed };
};

export interface RemovalResult {
  id: string;
  outcome: Outcome;
  /** A dry run's only: the change rows the target's destruction recorded, in order (cleanups queued among them). */
  effects?: RemovalEffect[];
  /** A dry run's only: what would then hold the target (none once removed). */
  blockers?: Blocker[];
}

export interface RemoveInput extends InModel {
  targets: readonly string[];
  force?: boolean | null;
  /** With force: seconds to wait for a clean exit before the forced fallback; 0 or none is now (Juju's --no-wait). */
  maxWait?: number | null;
  /** Rehearse it: the same rules and refusals, rolled back; answers what it would do. */
  dryRun?: boolean | null;
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
/** What holds a target after its destruction, read again (it is still there). */
type Held<T> = (tx: Tx, model: ModelRow, row: T) => Promise<Blocker[]>;

interface Removal extends InModel {
  targets: readonly string[];
  options: DestroyOptions;
  dryRun: boolean;
}

/** `tx`, also handing each change row it records for `model` to `effects`: a dry run's account of what it did. */
export function watching(tx: Tx, model: ModelRow, effects: RemovalEffect[]): Tx {
  return {
    ...tx,
    record: (modelId, change) => {
      if (modelId === model.id) effects.push(effectOf(change));
      tx.record(modelId, change);
    },
  };
}

/** Destroys one target as `destroy` does, watching the change rows it records: a dry run's account of it. */
async function watched<T>(tx: Tx, model: ModelRow, row: T, options: DestroyOptions, destroy: Destroy<T>) {
  const effects: RemovalEffect[] = [];
  return { outcome: await destroy(watching(tx, model, effects), model, row, options), effects };
}

/** What holds a target once the whole removal is done: nothing, if it is gone (with its own removal or another's). */
async function stillHeld<T>(tx: Tx, model: ModelRow, row: T, outcome: Outcome, held: Held<T>): Promise<Blocker[]> {
  if (outcome === "removed") return [];
  try {
    return await held(tx, model, row);
  } catch (error) {
    if (error instanceof LifelineError && error.code === "NOT_FOUND") return [];
    throw error;
  }
}

/** A remove operation over targets of one kind; the first target is read with the model's lock (modelOperationReading). */
function removal<T>(kind: string, find: Find<T>, destroy: Destroy<T>, held: Held<T>) {
  const removeAll = modelOperationReading(
    "any",
    (tx, model, input: Removal) => find(tx, model, input.targets[0]!),
    async (tx, model, input, first) => {
      const results: RemovalResult[] = [];
      const rows: T[] = [];
      for (const [i, target] of input.targets.entries()) {
        const row = i === 0 ? first : await find(tx, model, target);
        rows.push(row);
        if (input.dryRun) results.push({ id: target, ...(await watched(tx, model, row, input.options, destroy)) });
        else results.push({ id: target, outcome: await destroy(tx, model, row, input.options) });
      }
      if (input.dryRun)
        for (const [i, result] of results.entries()) result.blockers = await stillHeld(tx, model, rows[i]!, result.outcome, held);
      return { model, results };
    },
  );
  return async (db: Database, input: RemoveInput): Promise<RemovalResult[]> => {
    const options = forceOptions(input);
    const removing: Removal = { model: input.model, targets: distinct(input.targets, kind), options, dryRun: !!input.dryRun };
    // A dry run is the same operation, rolled back: it answers what it would do, and runs none of the cleanups it queued.
    if (removing.dryRun) return (await removeAll.rehearse(db, removing)).value.results;
    const { model, results } = await removeAll(db, removing);
    // Force with no wait does what it can before answering, within a budget: a forced removal of 100,000 units is
    // 100,000 bounded transactions, which the cleaner (an agent, or runCleanups) carries on with after the answer.
    if (options.force && !input.maxWait)
      await runCleanupQueue(db, cleanupHandlers, { modelId: model.id, maxBatches: FORCE_INLINE_BATCHES });
    return results;
  };
}

/** `juju remove-machine`. */
export const removeMachines = removal("machine", getMachine, destroyMachine, async (tx, model, machine) =>
  machineBlockers(tx.db, await getMachine(tx, model, machine.id)),
);

/** `juju remove-unit`. */
export const removeUnits = removal(
  "unit",
  findUnitToRemove,
  (tx, model, { unit, read }, options) => destroyUnit(tx, model, unit, options, read),
  async (tx, model, { unit }) => unitBlockers(tx.db, await getUnit(tx, model, unit.name)),
);

/** `juju remove-application`. */
export const removeApplications = removal("application", getApplication, destroyApplication, async (tx, model, app) =>
  applicationBlockers(tx.db, await getApplication(tx, model, app.name)),
);

/** `juju remove-relation`: relations named by id ("3"), canonical key, or endpoints ("wordpress mysql"). */
export const removeRelations = removal(
  "relation",
  (tx, model, spec) => (/^\d+$/.test(spec) ? getRelation(tx, model, Number(spec)) : findRelation(tx, model, spec)),
  destroyRelationByUser,
  async (tx, model, relation) => relationBlockers(tx.db, await getRelation(tx, model, relation.id)),
);
