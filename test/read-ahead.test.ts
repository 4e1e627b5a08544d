// An operation's first read sent right behind its model's lock, without waiting for the
// lock's answer (modelOperationReading, src/model/write/operation.ts): one round trip less,
// and the read must still see everything committed before the lock was granted.
import { and, eq } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { openStore } from "../src/db/connect.js";
import { models, units } from "../src/db/schema.js";
import { addModel, addUnit, deploy, removeDeadUnit, setUnitDead } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { onPostgres, uniqueName } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const api = useApi();
const DEADLINE_MS = scaled(20_000);

/** A model with one application of one unit, on a machine of its own. */
async function modelWithUnit(db = api.store.db) {
  const { name } = await addModel(db, { name: uniqueName("ahead") });
  await deploy(db, { model: name, application: "mysql", charm: "mysql", numUnits: 0 });
  const [unit] = await addUnit(db, { model: name, application: "mysql" });
  return { model: name, unit: unit!.name };
}

describe("reads sent ahead of the model's lock", () => {
  it("a model removed and added again under its name is a new id: the read is sent again with it", async () => {
    const db = api.store.db;
    const first = await modelWithUnit();
    // This process learns the model's id (the lock succeeds; the unit is not found). Its unit stays Alive.
    await expect(setUnitDead(db, { model: first.model, unit: "mysql/999" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Another model, whose unit of the same name is Dead (set behind the operations' back), then takes the name over.
    const second = await modelWithUnit();
    const [row] = await db.select({ id: models.id }).from(models).where(eq(models.name, second.model));
    const id = row!.id;
    await db
      .update(units)
      .set({ life: "dead" })
      .where(and(eq(units.modelId, id), eq(units.name, second.unit)));
    await db
      .update(models)
      .set({ name: uniqueName("renamed") })
      .where(eq(models.name, first.model));
    await db.update(models).set({ name: first.model }).where(eq(models.id, id));

    // Read with the id this process knew, the unit would be the first model's, Alive: NOT_DEAD.
    await removeDeadUnit(db, { model: first.model, unit: second.unit });

    expect(
      await db
        .select()
        .from(units)
        .where(and(eq(units.modelId, id), eq(units.name, second.unit))),
    ).toEqual([]);
  });

  it.skipIf(!onPostgres)(
    "a read queued behind a lock another server holds sees what that server committed (PostgreSQL: two stores, two processes' worth of writers)",
    async () => {
      const other = await openStore({ databaseUrl: process.env.DATABASE_URL!, maxConnections: 2 });
      const raw = postgres(process.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
      try {
        const { model, unit } = await modelWithUnit();
        await setUnitDead(other.db, { model, unit: "mysql/999" }).catch(() => {}); // `other` learns the model's id
        let removal: Promise<boolean> | undefined;
        await raw.begin(async (holder) => {
          // Another server's writer: the model locked, the unit set Dead, not yet committed.
          await holder`select 1 from models where name = ${model} for no key update`;
          await holder`update units set life = 'dead' where name = ${unit} and model_id = (select id from models where name = ${model})`;
          removal = removeDeadUnit(other.db, { model, unit });
          removal.catch(() => {});
          await waitForLockWait(raw, model);
        });
        // Read before the lock was granted, the unit would be Alive and its removal refused (NOT_DEAD).
        expect(await removal).toBe(true);
      } finally {
        await raw.end();
        await other.close();
      }
    },
  );
});

/** Waits until some session waits for a row lock (the other store's operation, queued behind `model`'s row). */
async function waitForLockWait(raw: postgres.Sql, model: string) {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const waiting = await raw`
      select 1 from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like '%"models"%for no key update%'`;
    if (waiting.length) return;
    if (Date.now() > deadline) throw new Error(`no operation waited for model ${model}'s lock within ${DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
