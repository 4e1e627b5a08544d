// The cleanup queue (seed 000's BUG, fixed): work queued in the transaction
// that needs it, run later in bounded batches. Nothing leaks.
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cleanups, relationSettings, units } from "../src/db/schema.js";
import { addUnit, CLEANUP_BATCH, enterScope, MAX_UNITS_PER_REQUEST_IN_PROCESS, modelNamed, runCleanups } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";
import { onPostgres } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const api = useApi();

/** More units than one batch, so the cleanup must take several transactions. */
const MANY = CLEANUP_BATCH * 2 + 37;

/** Units a call: PGlite takes fewer (one transaction holds every client there). */
const PER_CALL = onPostgres ? 250 : MAX_UNITS_PER_REQUEST_IN_PROCESS;

async function manyUnitsIn(model: string, app: string, count: number) {
  for (let done = 0; done < count; done += PER_CALL)
    await addUnit(api.store.db, {
      model,
      application: app,
      count: Math.min(PER_CALL, count - done),
      placement: Array(Math.min(PER_CALL, count - done)).fill("0"),
    });
}

const countRows = async (table: typeof relationSettings | typeof units, where: ReturnType<typeof and>) => {
  const [row] = await api.store.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return row!.n;
};

// Seeding more than two batches through the real write path takes a while on a loaded machine.
describe("cleanups", { timeout: scaled(180_000) }, () => {
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
    // More members than a batch: the relation is Dying, its members leave in the cleaner's batches, the last batch
    // removes it, and only then do its settings go, in batches of their own.
    expect((await l.status()).relations[relation.key]).toMatchObject({ life: "DYING", unitCount: MANY });
    expect(await countRows(relationSettings, settingsOfRelation)).toBe(MANY);

    const report = await runCleanups(api.store.db, { model });
    expect((await l.status()).relations[relation.key]).toBeUndefined();
    expect(report.batches).toBeGreaterThanOrEqual(2 * Math.ceil(MANY / CLEANUP_BATCH));
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

  it("a cleanup that fails is recorded and retried later, and the cleanups behind it still run", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "memcached" });
    const l = lifecycle(api, model);
    await l.removeApplication(["wordpress"]); // queues dying-units "wordpress", first in line
    await l.removeApplication(["memcached"]); // queues dying-units "memcached" behind it
    const modelId = (await modelNamed(api.store.db, model)).id;
    const wordpressCleanup = and(eq(cleanups.modelId, modelId), eq(cleanups.target, "wordpress"));
    // Break the first one: its handler now fails in the database, as a bug or bad data would make it.
    await api.store.db
      .update(cleanups)
      .set({ args: { afterSeq: "not-a-number" } })
      .where(wordpressCleanup);
    const RUN = `mutation ($model: String) { runCleanups(model: $model) { batches finished failed remaining } }`;

    expect((await api.ok(RUN, { model })).runCleanups).toMatchObject({ finished: 1, failed: 1, remaining: 1 });
    let status = await l.status();
    expect(status.units["memcached/0"].life).toBe("DYING");
    expect(status.units["wordpress/0"].life).toBe("ALIVE");
    const [failed] = await api.store.db
      .select({ attempts: cleanups.attempts, lastError: cleanups.lastError, later: sql<boolean>`${cleanups.dueAt} > now()` })
      .from(cleanups)
      .where(wordpressCleanup);
    expect(failed).toMatchObject({ attempts: 1, lastError: expect.any(String), later: true });
    const [shown] = status.applications.wordpress.blockers.filter((b: any) => b.kind === "PENDING_CLEANUP");
    expect(shown.message).toMatch(/"dying-units" is queued \(due .*\); it failed 1 time\(s\), last with ".+"/);

    // Not retried before its backoff is over...
    expect((await api.ok(RUN, { model })).runCleanups).toMatchObject({ batches: 0, failed: 0, remaining: 1 });
    // ...and once due (and fixed), it runs.
    await api.store.db.update(cleanups).set({ args: {}, dueAt: sql`now()` }).where(wordpressCleanup);
    expect((await api.ok(RUN, { model })).runCleanups).toMatchObject({ finished: 1, failed: 0, remaining: 0 });
    status = await l.status();
    expect(status.units["wordpress/0"].life).toBe("DYING");
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
