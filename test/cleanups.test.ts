// The cleanup queue (seed 000's BUG, fixed): work queued in the transaction
// that needs it, run later in bounded batches. Nothing leaks.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { relationSettings, units } from "../src/db/schema.js";
import { addUnit, CLEANUP_BATCH, enterScope, modelNamed, runCleanups } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

/** More units than one batch, so the cleanup must take several transactions. */
const MANY = CLEANUP_BATCH * 2 + 37;

async function manyUnitsIn(model: string, app: string, count: number) {
  for (let done = 0; done < count; done += 250)
    await addUnit(api.store.db, {
      model,
      application: app,
      count: Math.min(250, count - done),
      placement: Array(Math.min(250, count - done)).fill("0"),
    });
}

const countRows = async (table: typeof relationSettings | typeof units, where: ReturnType<typeof and>) => {
  const [row] = await api.store.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return row!.n;
};

// Seeding more than two batches through the real write path takes a while on a loaded machine.
describe("cleanups", { timeout: 180_000 }, () => {
  it("a removed relation's settings are all deleted, in batches, once cleanups ran", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    await manyUnitsIn(model, "wordpress", MANY);
    const relation = await integrate(api, model, "wordpress", "mysql");
    const modelId = (await modelNamed(api.store.db, model)).id;
    for (let j = 0; j < MANY; j++)
      await enterScope(api.store.db, { model, relation: relation.id, unit: `wordpress/${j}`, privateAddress: `10.0.${j >> 8}.${j & 255}` });
    const settingsOfRelation = and(eq(relationSettings.modelId, modelId), eq(relationSettings.relationId, relation.id));
    expect(await countRows(relationSettings, settingsOfRelation)).toBe(MANY);

    const l = lifecycle(api, model);
    await l.removeRelation([String(relation.id)], { force: true, maxWait: 3600 });
    // The relation is gone in the same transaction; its settings wait for the cleaner.
    expect((await l.status()).relations[relation.key]).toBeUndefined();
    expect(await countRows(relationSettings, settingsOfRelation)).toBe(MANY);

    const report = await runCleanups(api.store.db, { model });
    expect(report.batches).toBeGreaterThanOrEqual(Math.ceil(MANY / CLEANUP_BATCH));
    expect(await countRows(relationSettings, settingsOfRelation)).toBe(0);
  });

  it("Dying fans out to a large application's units in bounded batches, not one transaction", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await manyUnitsIn(model, "wordpress", MANY);
    const modelId = (await modelNamed(api.store.db, model)).id;
    const l = lifecycle(api, model);
    await l.removeApplication(["wordpress"]);
    const alive = and(eq(units.modelId, modelId), eq(units.life, "alive"));
    expect(await countRows(units, alive)).toBe(MANY);

    // One batch at a time: each transaction touches at most CLEANUP_BATCH units.
    const first = await runCleanups(api.store.db, { model, maxBatches: 1 });
    expect(first).toMatchObject({ batches: 1, finished: 0, remaining: 1 });
    expect(await countRows(units, alive)).toBe(MANY - CLEANUP_BATCH);
    const rest = await runCleanups(api.store.db, { model });
    expect(rest).toMatchObject({ finished: 1, remaining: 0 });
    expect(await countRows(units, alive)).toBe(0);
  });

  it("cleanups that are not due yet stay queued", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const l = lifecycle(api, model);
    await l.removeUnit(["wordpress/0"], { force: true, maxWait: 3600 });
    expect(await l.runCleanups()).toEqual({ batches: 0, finished: 0, remaining: 1 });
  });

  it("two cleaners racing on the same queue finish it once, with nothing left behind", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 0 });
    await manyUnitsIn(model, "wordpress", CLEANUP_BATCH + 10);
    const l = lifecycle(api, model);
    await l.removeApplication(["wordpress"]);
    await Promise.all([runCleanups(api.store.db, { model }), runCleanups(api.store.db, { model })]);
    expect(await l.runCleanups()).toMatchObject({ remaining: 0 });
    const modelId = (await modelNamed(api.store.db, model)).id;
    expect(await countRows(units, and(eq(units.modelId, modelId), eq(units.life, "alive")))).toBe(0);
  });
});
