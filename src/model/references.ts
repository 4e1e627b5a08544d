// Reference counting between entities (seed 001 "References"): units and
// relations hold their application. When the last holder of a Dying
// application goes, the application goes with it, in the same transaction.
import { and, eq, inArray, sql } from "drizzle-orm";
import { applicationRemoved } from "../changes/change.js";
import { Life } from "../core/life.js";
import { applications } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { ApplicationRow, ModelRow } from "./rows.js";
import { needsTurnAlone, runsBesideOthers, type Tx } from "./write/index.js";

const byName = (model: ModelRow, name: string) => and(eq(applications.modelId, model.id), eq(applications.name, name));

async function lockApplication(tx: Tx, model: ModelRow, name: string): Promise<ApplicationRow | undefined> {
  const [app] = await tx.db.select().from(applications).where(byName(model, name)).for("update");
  return app;
}

/** Deletes an application row: "applications become Dead and are removed from the database in a single atomic operation". */
export async function removeApplicationRow(tx: Tx, model: ModelRow, app: ApplicationRow): Promise<void> {
  await tx.db.delete(applications).where(byName(model, app.name));
  tx.record(model.id, applicationRemoved(app.name));
}

const addToUnitCount = statement(["modelId", "name", "count"], (db, p) =>
  db
    .update(applications)
    .set({ unitCount: sql`${applications.unitCount} + ${p.count}` })
    .where(and(eq(applications.modelId, p.modelId), eq(applications.name, p.name))),
);

/** `count` new units of `name` now hold it (sent with the next statement: nothing waits for the answer). */
export function addUnitReferences(tx: Tx, model: ModelRow, name: string, count: number): void {
  if (count > 0) tx.defer(addToUnitCount(tx.db, { modelId: model.id, name, count }));
}

/**
 * Seed 000's condition for keeping an application when `count` units of it go, one after another, checked and acted on
 * in one statement: it outlives them all (it is Alive, or keeps a unit, or is in a relation), and the count drops by
 * them and it answers; or nothing changes.
 */
const releaseIfStillHeld = statement(["modelId", "name", "count"], (db, p) =>
  db
    .update(applications)
    .set({ unitCount: sql`${applications.unitCount} - ${p.count}` })
    .where(
      and(
        eq(applications.modelId, p.modelId),
        eq(applications.name, p.name),
        sql`(${applications.life} = 'alive' or ${applications.unitCount} >= ${p.count} + 1 or ${applications.relationCount} >= 1)`,
      ),
    )
    .returning({ name: applications.name }),
);

/** The relation just inserted holds each of its applications. */
export async function addRelationReferences(tx: Tx, model: ModelRow, names: readonly string[]): Promise<void> {
  await tx.db
    .update(applications)
    .set({ relationCount: sql`${applications.relationCount} + 1` })
    .where(and(eq(applications.modelId, model.id), inArray(applications.name, [...new Set(names)])));
}

/**
 * A unit of `name` was removed. Seed 000: "If its application is Alive, or has
 * at least two units, or is in at least one relation, decrement the
 * application's unit count; otherwise remove the application." Sent at once,
 * without waiting; when the counts read do not settle it, the function it returns
 * waits for the answer and removes the application when the unit was its last holder.
 */
export function releaseUnitReference(
  tx: Tx,
  model: ModelRow,
  name: string,
  /** The application's counts and life, read before (with the model's lock when it can): the condition is then decided here, without waiting. */
  app: ApplicationCounts,
): () => Promise<void> {
  // Beside other writers, a Dying application's count read with the lock may not have their releases yet: the
  // statement that takes this one decides (an Alive application stays, whatever its count).
  if (stillHeld(app) && (app.life === Life.Alive || !runsBesideOthers(tx))) {
    tx.defer(addToUnitCount(tx.db, { modelId: model.id, name, count: -1 }));
    return async () => {};
  }
  const released = tx.defer(releaseIfStillHeld(tx.db, { modelId: model.id, name, count: 1 }));
  return async () => {
    // The rows it reads are the model's, whose lock this transaction holds: nothing changes them between the two statements.
    if ((await released).length) return;
    needsTurnAlone(tx); // the application's removal writes what the writers beside this one read
    const app = await lockApplication(tx, model, name);
    if (app) await removeApplicationRow(tx, model, app);
  };
}

/**
 * `count` units of `name` were removed, one after another (releaseUnitReference for each, in one transaction): the
 * releases that leave the application held whatever the others do go as one statement. The rest (beside other
 * writers' releases, or down to what may be its last holder) go as one statement too when the application outlives
 * them all; when it does not, one at a time, the last holder removing it.
 */
export function releaseUnitReferences(tx: Tx, model: ModelRow, name: string, app: ApplicationCounts, count: number): () => Promise<void> {
  let counts = app;
  let held = 0;
  while (held < count && stillHeld(counts) && (counts.life === Life.Alive || !runsBesideOthers(tx))) {
    held++;
    counts = { ...counts, unitCount: counts.unitCount - 1 };
  }
  if (held) tx.defer(addToUnitCount(tx.db, { modelId: model.id, name, count: -held }));
  const rest = count - held;
  if (rest <= 1) return rest ? releaseUnitReference(tx, model, name, counts) : async () => {};
  const together = tx.defer(releaseIfStillHeld(tx.db, { modelId: model.id, name, count: rest }));
  return async () => {
    if ((await together).length) return;
    // Refused, so it changed nothing: the application goes with the last of them.
    const each = Array.from({ length: rest }, () => releaseUnitReference(tx, model, name, counts));
    for (const released of each) await released();
  };
}

/** What seed 000's condition reads of an application. */
export type ApplicationCounts = Pick<ApplicationRow, "life" | "unitCount" | "relationCount">;

/** Seed 000's condition, as releaseIfStillHeld states it in SQL: the application outlives the unit leaving it. */
const stillHeld = (app: ApplicationCounts) => app.life === Life.Alive || app.unitCount >= 2 || app.relationCount >= 1;

/**
 * A relation of `name` was removed. Seed 000: "If the counterpart application
 * is Alive, or has at least one unit, or is in at least two relations,
 * decrement its relation count; otherwise remove the counterpart application."
 */
export async function releaseRelationReference(tx: Tx, model: ModelRow, name: string): Promise<void> {
  const app = await lockApplication(tx, model, name);
  if (!app) return;
  if (app.life === Life.Alive || app.unitCount >= 1 || app.relationCount >= 2) {
    await tx.db
      .update(applications)
      .set({ relationCount: sql`${applications.relationCount} - 1` })
      .where(byName(model, name));
  } else {
    await removeApplicationRow(tx, model, app);
  }
}
