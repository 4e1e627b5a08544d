// `juju destroy-model`: the model becomes Dying and the cleanup queue takes
// it apart; once only its manager machine is left, the model is Dead.
import { and, eq, ne, sql } from "drizzle-orm";
import { applications, charms, cleanups, machines, models, sequences } from "../db/schema.js";
import { CleanupKinds, queueCleanup } from "./cleanups.js";
import { getModel, type ModelRow } from "./models.js";
import type { Outcome } from "./relation-life.js";
import type { Tx } from "./tx.js";
import { advance } from "./life.js";

export async function destroyModel(tx: Tx, name: string, options: { force?: boolean } = {}): Promise<Outcome> {
  const model = await getModel(tx, name);
  if (model.life !== "alive") return "unchanged";
  await tx.db.update(models).set({ life: advance(`model ${model.name}`, model.life, "dying") }).where(eq(models.id, model.id));
  tx.record({ modelId: model.id, kind: "model", entity: model.name, life: "dying" });
  await queueCleanup(tx, model, CleanupKinds.destroyModel, model.name, { force: !!options.force });
  return "dying";
}

/**
 * Finishes a Dying model once no application, no machine but its managers,
 * and no other cleanup is left: the managers go with it and it becomes Dead.
 * Its row and change log stay, so watchers see the end; the name is free again.
 */
export async function finishModel(tx: Tx, model: ModelRow): Promise<boolean> {
  const count = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const n = sql<number>`count(*)::int`;
  if (await count(tx.db.select({ n }).from(applications).where(eq(applications.modelId, model.id)))) return false;
  const hosts = await tx.db.select({ id: machines.id, jobs: machines.jobs }).from(machines).where(eq(machines.modelId, model.id));
  if (hosts.some((m) => !m.jobs.includes("JobManageModel"))) return false;
  if (await count(tx.db.select({ n }).from(cleanups).where(and(eq(cleanups.modelId, model.id), ne(cleanups.kind, CleanupKinds.destroyModel)))))
    return false;
  for (const host of hosts.sort((a, b) => b.id.length - a.id.length)) {
    await tx.db.delete(machines).where(and(eq(machines.modelId, model.id), eq(machines.id, host.id)));
    tx.record({ modelId: model.id, kind: "machine", entity: host.id, life: "dead", removed: true });
  }
  await tx.db.delete(charms).where(eq(charms.modelId, model.id));
  await tx.db.delete(sequences).where(eq(sequences.modelId, model.id));
  await tx.db.update(models).set({ life: advance(`model ${model.name}`, model.life, "dead") }).where(eq(models.id, model.id));
  tx.record({ modelId: model.id, kind: "model", entity: model.name, life: "dead" });
  return true;
}
