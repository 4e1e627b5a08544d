// One handler per cleanup kind. Each does at most CLEANUP_BATCH rows of work
// per call and says whether it is done.
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { rowsOf } from "../db/connect.js";
import { applications, machines, relationSettings, units } from "../db/schema.js";
import { destroyApplication } from "./application-life.js";
import { CLEANUP_BATCH, CleanupKinds, queueCleanup, saveCleanupProgress, type CleanupHandler, type CleanupKind } from "./cleanups.js";
import { destroyMachine, forceMachineDead } from "./machine-life.js";
import { MachineJob } from "./machines.js";
import { finishModel } from "./model-life.js";
import { aliveContainerRelationBetween } from "./relation-life.js";
import { forceRemoveUnit, setUnitsDying } from "./unit-life.js";

const relationSettingsCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const relationId = Number(cleanup.target);
  const batch = await tx.db
    .select({ unit: relationSettings.unit })
    .from(relationSettings)
    .where(and(eq(relationSettings.modelId, model.id), eq(relationSettings.relationId, relationId)))
    .limit(CLEANUP_BATCH);
  if (batch.length) {
    await tx.db
      .delete(relationSettings)
      .where(
        and(
          eq(relationSettings.modelId, model.id),
          eq(relationSettings.relationId, relationId),
          inArray(relationSettings.unit, batch.map((b) => b.unit)),
        ),
      );
    for (const { unit } of batch) tx.record({ modelId: model.id, kind: "settings", entity: `${relationId}:${unit}`, removed: true, fields: { relationId, unit } });
  }
  return batch.length < CLEANUP_BATCH ? "done" : "more";
};

/** Walks an application's units in creation order, a batch per call, remembering where it got to. */
const dyingUnitsCleanup: CleanupHandler = async (tx, model, cleanup) => {
  const after = Number(cleanup.args.afterSeq ?? 0);
  const batch = await tx.db
    .select()
    .from(units)
    .where(and(eq(units.modelId, model.id), eq(units.application, cleanup.target), gt(units.seq, after)))
    .orderBy(asc(units.seq))
    .limit(CLEANUP_BATCH);
  await setUnitsDying(tx, model, batch);
  if (cleanup.args.force) {
    const forceAt = typeof cleanup.args.forceAt === "string" ? new Date(cleanup.args.forceAt) : undefined;
    for (const unit of batch.filter((u) => u.principal === null))
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
    where s.model_id = ${model.id} and s.seq > ${after} and s.life = 'alive'
      and ((s.application = ${a} and p.application = ${b}) or (s.application = ${b} and p.application = ${a}))
    order by s.seq limit ${CLEANUP_BATCH}`);
  const rows = rowsOf<{ name: string; seq: number | string }>(batch);
  const names = rows.map((r) => r.name);
  if (names.length) {
    const subordinates = await tx.db.select().from(units).where(and(eq(units.modelId, model.id), inArray(units.name, names)));
    await setUnitsDying(tx, model, subordinates);
  }
  if (rows.length < CLEANUP_BATCH) return "done";
  await saveCleanupProgress(tx, cleanup, { afterSeq: Number(rows.at(-1)!.seq) });
  return "more";
};

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
    .where(and(eq(applications.modelId, model.id), eq(applications.life, "alive")))
    .limit(CLEANUP_BATCH);
  for (const app of alive) await destroyApplication(tx, model, app, { force });
  if (alive.length === CLEANUP_BATCH) return "more";
  const hosts = await tx.db
    .select()
    .from(machines)
    .where(and(eq(machines.modelId, model.id), eq(machines.life, "alive")))
    .limit(CLEANUP_BATCH);
  for (const machine of hosts) {
    if (machine.jobs.includes(MachineJob.ManageModel)) continue;
    const [assigned] = await tx.db.select({ name: units.name }).from(units).where(and(eq(units.modelId, model.id), eq(units.machineId, machine.id))).limit(1);
    if (!assigned || force) await destroyMachine(tx, model, machine, { withContainers: true, force });
  }
  return (await finishModel(tx, model)) ? "done" : "waiting";
};

export const cleanupHandlers: Record<CleanupKind, CleanupHandler> = {
  [CleanupKinds.relationSettings]: relationSettingsCleanup,
  [CleanupKinds.dyingUnits]: dyingUnitsCleanup,
  [CleanupKinds.dyingSubordinates]: dyingSubordinatesCleanup,
  [CleanupKinds.forceUnit]: forceUnitCleanup,
  [CleanupKinds.forceMachine]: forceMachineCleanup,
  [CleanupKinds.destroyModel]: destroyModelCleanup,
};
