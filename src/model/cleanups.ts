// The cleaner: runs the cleanup queue (cleanup-queue.ts), one bounded
// transaction per batch, with one handler per kind. Handlers are idempotent,
// so two cleaners may race. The forced fallbacks live here, as in Juju's
// cleanup.go: force is work queued behind a destroy, done when it falls due.
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { cleanupDone, settingsRemoved } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { Life } from "../core/life.js";
import { MachineJob } from "../core/machine.js";
import type { Database } from "../db/connect.js";
import { rowsOf } from "../db/connect.js";
import { applications, cleanups, machines, relationSettings, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { destroyApplication } from "./application.js";
import { CLEANUP_BATCH, type CleanupKind, CleanupKinds, queueCleanup, saveCleanupProgress } from "./cleanup-queue.js";
import { assignedUnits, containersOf, destroyMachine, removeMachineRow, setMachineDeadForced } from "./machine.js";
import { finishModel } from "./model.js";
import { aliveContainerRelationBetween } from "./relation.js";
import type { CleanupRow, MachineRow, ModelRow } from "./rows.js";
import { forceMembersOut, ScopeLeavings, scopesToLeaveOf } from "./scope.js";
import {
  aliveSubordinates,
  ensureUnitDead,
  holdsOnDeath,
  removalFacts,
  removeNeverDeployed,
  removeUnitRow,
  setUnitsDying,
  subordinatesOf,
  unprovisionedMachinesOf,
} from "./unit.js";
import { lockModel, lockModelById, type Tx, transact } from "./write/index.js";

/** What a handler reports: finished; more to do right away; or waiting on something else (an agent) first. */
export type CleanupProgress = "done" | "more" | "waiting";

export type CleanupHandler = (tx: Tx, model: ModelRow, cleanup: CleanupRow) => Promise<CleanupProgress>;

/**
 * Force (seed 001's end): set a unit Dead "while maintaining consistency and
 * sanity across all references": its subordinates go first, it leaves every
 * scope (removing Dying relations it was last in), then it is removed.
 */
export async function forceRemoveUnit(tx: Tx, model: ModelRow, name: string): Promise<void> {
  const [unit] = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.name, name)));
  if (!unit) return;
  for (const subordinate of await subordinatesOf(tx.db, model.id, unit.name)) await forceRemoveUnit(tx, model, subordinate.name);
  const leavings = new ScopeLeavings(tx, model);
  for (const scope of await scopesToLeaveOf(tx, model, unit.name)) leavings.leave(unit.name, scope);
  await leavings.done();
  // Read together once it is out of every scope: what holds it, and what its removal decides by.
  const [holds, facts] = await Promise.all([holdsOnDeath(tx.db, unit), removalFacts(tx, model, unit.name)]);
  await removeUnitRow(tx, model, await ensureUnitDead(tx, model, unit, holds), facts!);
}

/**
 * `remove-machine --force`: its units are forced away, its containers forced
 * Dead and removed (no agent will run on them), and the machine set Dead for
 * the provisioner to release and remove.
 */
export async function forceMachineDead(tx: Tx, model: ModelRow, id: string): Promise<MachineRow | undefined> {
  const [machine] = await tx.db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, model.id), eq(machines.id, id)));
  if (!machine || machine.life === Life.Dead) return machine;
  for (const container of await containersOf(tx.db, model.id, machine.id)) {
    const dead = await forceMachineDead(tx, model, container.id);
    if (dead) await removeMachineRow(tx, model, dead);
  }
  for (const unit of await assignedUnits(tx.db, model.id, machine.id)) await forceRemoveUnit(tx, model, unit);
  return setMachineDeadForced(tx, model, machine);
}

const relationSettingsCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const relationId = Number(cleanup.target);
  const batch = await tx.db
    .select({ unit: relationSettings.unit })
    .from(relationSettings)
    .where(and(eq(relationSettings.modelId, model.id), eq(relationSettings.relationId, relationId)))
    .limit(CLEANUP_BATCH);
  if (batch.length) {
    await tx.db.delete(relationSettings).where(
      and(
        eq(relationSettings.modelId, model.id),
        eq(relationSettings.relationId, relationId),
        inArray(
          relationSettings.unit,
          batch.map((b) => b.unit),
        ),
      ),
    );
    for (const { unit } of batch) tx.record(model.id, settingsRemoved(relationId, unit));
  }
  return batch.length < CLEANUP_BATCH ? "done" : "more";
};

/**
 * Walks an application's units in creation order, a batch per call, remembering where it got to. The one owner of
 * "units go Dying when their application does" (Juju: Application.Destroy queues cleanupUnitsForDyingApplication):
 * unit agents only see their unit's life change, and never set it Dying for their application.
 */
const dyingUnitsCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const after = Number(cleanup.args.afterSeq ?? 0);
  const batch = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.application, cleanup.target), gt(units.seq, after)))
    .orderBy(asc(units.seq))
    .limit(CLEANUP_BATCH);
  // Units whose machine was never provisioned go at once (seed 004); the rest wait for their agents.
  const removed = new Set(await removeNeverDeployed(tx, model, batch, await unprovisionedMachinesOf(tx, model, batch)));
  const remaining = batch.filter((u) => !removed.has(u.name));
  await setUnitsDying(tx, model, remaining, await aliveSubordinates(tx, model, remaining));
  if (cleanup.args.force) {
    const forceAt = typeof cleanup.args.forceAt === "string" ? new Date(cleanup.args.forceAt) : undefined;
    for (const unit of remaining.filter((u) => u.principal === null))
      await queueCleanup(tx, model, CleanupKinds.forceUnit, unit.name, {}, forceAt);
  }
  if (batch.length < CLEANUP_BATCH) return "done";
  await saveCleanupProgress(tx, cleanup, { afterSeq: batch.at(-1)!.seq });
  return "more";
};

/**
 * Seed 001: a subordinate becomes Dying when "the last Alive relation between
 * its application and its principal's application is no longer Alive".
 */
const dyingSubordinatesCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const [a, b] = cleanup.args.applications as [string, string];
  if (await aliveContainerRelationBetween(tx, model, a, b)) return "done";
  const after = Number(cleanup.args.afterSeq ?? 0);
  const batch = await tx.db.execute(sql`
    select s.name, s.seq from units s join units p on p.model_id = s.model_id and p.name = s.principal
    where s.model_id = ${model.id} and s.seq > ${after} and s.life = ${Life.Alive}
      and ((s.application = ${a} and p.application = ${b}) or (s.application = ${b} and p.application = ${a}))
    order by s.seq limit ${CLEANUP_BATCH}`);
  const rows = rowsOf<{ name: string; seq: number | string }>(batch);
  const names = rows.map((r) => r.name);
  if (names.length) {
    const subordinates = await tx.db
      .select()
      .from(units)
      .where(and(eq(units.modelId, model.id), inArray(units.name, names)));
    await setUnitsDying(tx, model, subordinates, await aliveSubordinates(tx, model, subordinates));
  }
  if (rows.length < CLEANUP_BATCH) return "done";
  await saveCleanupProgress(tx, cleanup, { afterSeq: Number(rows.at(-1)!.seq) });
  return "more";
};

const forceRelationCleanup: CleanupHandler = async (tx, model, cleanup) =>
  (await forceMembersOut(tx, model, Number(cleanup.target), CLEANUP_BATCH)) ? "done" : "more";

const forceUnitCleanup: CleanupHandler = async (tx, model, cleanup) => {
  await forceRemoveUnit(tx, model, cleanup.target);
  return "done";
};

const forceMachineCleanup: CleanupHandler = async (tx, model, cleanup) => {
  await forceMachineDead(tx, model, cleanup.target);
  return "done";
};

/**
 * destroy-model: destroys the applications and the machines (which may go
 * Dying with containers), then waits for agents to finish them; once nothing
 * but the model's manager machines is left, the model is finished.
 */
const destroyModelCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const force = !!cleanup.args.force;
  const alive = await tx.db
    .select()
    .from(applications)
    .where(and(eq(applications.modelId, model.id), eq(applications.life, Life.Alive)))
    .limit(CLEANUP_BATCH);
  for (const app of alive) await destroyApplication(tx, model, app, { force });
  if (alive.length === CLEANUP_BATCH) return "more";
  const hosts = await tx.db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, model.id), eq(machines.life, Life.Alive)))
    .limit(CLEANUP_BATCH);
  for (const machine of hosts) {
    if (machine.jobs.includes(MachineJob.ManageModel)) continue;
    const occupied = (await assignedUnits(tx.db, model.id, machine.id)).length > 0;
    if (!occupied || force) await destroyMachine(tx, model, machine, { withContainers: true, force });
  }
  return (await finishModel(tx, model)) ? "done" : "waiting";
};

export const cleanupHandlers: Record<CleanupKind, CleanupHandler> = {
  [CleanupKinds.relationSettings]: relationSettingsCleanup,
  [CleanupKinds.dyingUnits]: dyingUnitsCleanup,
  [CleanupKinds.dyingSubordinates]: dyingSubordinatesCleanup,
  [CleanupKinds.forceRelation]: forceRelationCleanup,
  [CleanupKinds.forceUnit]: forceUnitCleanup,
  [CleanupKinds.forceMachine]: forceMachineCleanup,
  [CleanupKinds.destroyModel]: destroyModelCleanup,
};

export interface CleanupReport {
  /** Handler transactions run. */
  batches: number;
  /** Cleanups finished and deleted. */
  finished: number;
  /** Handler runs that failed; each failed cleanup is retried after a backoff. */
  failed: number;
  /** Cleanups still queued for the model(s), due or not. */
  remaining: number;
}

/** A failed cleanup waits this long before its next run (doubling per failure, up to the cap), so it never blocks the queue behind it. */
export const CLEANUP_RETRY = { firstSeconds: 10, maxSeconds: 300 };

/** Records a handler's failure on its queue row and puts the row off; the rest of the queue goes on (as Juju's cleaner does). */
async function recordFailure(db: Database, cleanup: CleanupRow, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  // The delay doubles with each failure: first × 2^(failures before this one), capped.
  const delay = sql`least(${CLEANUP_RETRY.firstSeconds} * power(2, ${cleanups.attempts}), ${CLEANUP_RETRY.maxSeconds})`;
  await db
    .update(cleanups)
    .set({ attempts: sql`${cleanups.attempts} + 1`, lastError: message, dueAt: sql`now() + make_interval(secs => ${delay})` })
    .where(eq(cleanups.id, cleanup.id));
}

/** The queue read a page at a time, in order. */
const DUE_PAGE = 100;

// The cleaner runs the queue of one model after each of its changes: its reads are statements built once.
const dueCleanupsOfModel = statement(["modelId", "after"], (db, p) =>
  db
    .select()
    .from(cleanups)
    .where(and(eq(cleanups.modelId, p.modelId), gt(cleanups.id, p.after), lte(cleanups.dueAt, sql`now()`)))
    .orderBy(asc(cleanups.id))
    .limit(DUE_PAGE),
);
const cleanupById = statement(["id"], (db, p) => db.select().from(cleanups).where(eq(cleanups.id, p.id)));
const cleanupsLeftInModel = statement(["modelId"], (db, p) =>
  db.select({ n: sql<number>`count(*)::int` }).from(cleanups).where(eq(cleanups.modelId, p.modelId)),
);

/**
 * Runs due cleanups, oldest first, one bounded transaction per batch, until
 * each is done, waiting or failed, or `maxBatches` is spent.
 */
export async function runCleanupQueue(
  db: Database,
  handlers: Record<CleanupKind, CleanupHandler>,
  options: { modelId?: string; maxBatches?: number } = {},
): Promise<CleanupReport> {
  const maxBatches = options.maxBatches ?? MAX_BATCHES;
  const report: CleanupReport = { batches: 0, finished: 0, failed: 0, remaining: 0 };
  // Cleanups queued by this run's own work (a model's destruction queues its applications') run in it too.
  for (let after = 0; report.batches < maxBatches; ) {
    const due = options.modelId
      ? await dueCleanupsOfModel(db, { modelId: options.modelId, after })
      : await db
          .select()
          .from(cleanups)
          .where(and(gt(cleanups.id, after), lte(cleanups.dueAt, sql`now()`)))
          .orderBy(asc(cleanups.id))
          .limit(DUE_PAGE);
    if (!due.length) break;
    after = due.at(-1)!.id;
    for (const queued of due) {
      for (let progress: CleanupProgress = "more"; progress === "more" && report.batches < maxBatches; ) {
        report.batches++;
        try {
          progress = await transact(db, async (tx) => {
            // The model first, as every writer does (write/operation.ts); then the queue row afresh: another
            // cleaner may have finished it, and its args carry progress.
            const model = await lockModelById(tx, queued.modelId);
            const [cleanup] = await cleanupById(tx.db, { id: queued.id });
            if (!cleanup || !model) return "done";
            const handler = handlers[cleanup.kind as CleanupKind];
            if (!handler) throw new Error(`cleanup ${cleanup.id}: unknown kind "${cleanup.kind}"`);
            const result = await handler(tx, model, cleanup);
            if (result === "done") {
              await tx.db.delete(cleanups).where(eq(cleanups.id, cleanup.id));
              tx.record(model.id, cleanupDone(cleanup));
            }
            return result;
          });
        } catch (error) {
          report.failed++;
          await recordFailure(db, queued, error);
          break;
        }
        if (progress === "done") report.finished++;
      }
    }
  }
  const [left] = options.modelId
    ? await cleanupsLeftInModel(db, { modelId: options.modelId })
    : await db.select({ n: sql<number>`count(*)::int` }).from(cleanups);
  report.remaining = left?.n ?? 0;
  return report;
}

/** The most batches one run takes (and the default): a run stays bounded, and leaves the rest to the next. */
export const MAX_BATCHES = 10_000;

export interface RunCleanupsInput {
  /** Only this model's cleanups; all models' when omitted. */
  model?: string | null;
  maxBatches?: number | null;
}

/** The cleaner agent's operation: runs due cleanups, in bounded batches. */
export async function runCleanups(db: Database, input: RunCleanupsInput = {}): Promise<CleanupReport> {
  const maxBatches = input.maxBatches;
  if (maxBatches != null && (!Number.isInteger(maxBatches) || maxBatches < 1 || maxBatches > MAX_BATCHES))
    throw new LifelineError("INVALID_ARGUMENT", `maxBatches must be a whole number from 1 to ${MAX_BATCHES}, got ${maxBatches}`, {
      argument: "maxBatches",
    });
  const modelId = input.model ? (await transact(db, (tx) => lockModel(tx, input.model!, "any"))).id : undefined;
  return runCleanupQueue(db, cleanupHandlers, {
    ...(modelId ? { modelId } : {}),
    ...(input.maxBatches ? { maxBatches: input.maxBatches } : {}),
  });
}
