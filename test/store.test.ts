// The store: PGlite data directories (persistence, the lock file), migrations,
// and the change log every write appends to.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { applicationRemoved } from "../src/changes/change.js";
import { openStore } from "../src/db/connect.js";
import { DataDirLockedError } from "../src/db/lock.js";
import { changes, models } from "../src/db/schema.js";
import {
  addModel,
  bootstrap,
  deploy,
  integrate,
  modelNamed,
  removeDeadUnit,
  removeUnits,
  setMachineProvisioned,
  setUnitDead,
  transact,
} from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { uniqueName } from "./support/store.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "lifeline-store-"));
  dirs.push(dir);
  return join(dir, "pgdata");
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("PGlite data directory", () => {
  it("keeps the model across a restart", async () => {
    const dataDir = tempDir();
    const first = await openStore({ dataDir });
    await bootstrap(first.db);
    await deploy(first.db, { model: "default", charm: "wordpress" });
    await first.close();

    const second = await openStore({ dataDir });
    try {
      const [row] = await second.db.select({ revision: models.revision }).from(models).where(eq(models.name, "default"));
      expect(row!.revision).toBeGreaterThan(0);
      const app = (await modelNamed(second.db, "default")).name;
      expect(app).toBe("default");
    } finally {
      await second.close();
    }
  });

  it("a second process on the same directory gets a clear error instead of a corrupt database", async () => {
    const dataDir = tempDir();
    const first = await openStore({ dataDir });
    try {
      const second = openStore({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(/in use by another Lifeline process.*LIFELINE_DATA_DIR/);
    } finally {
      await first.close();
    }
  });

  it("the lock is released on close, so the directory can be opened again", async () => {
    const dataDir = tempDir();
    await (await openStore({ dataDir })).close();
    await (await openStore({ dataDir })).close();
  });
});

describe("change log", () => {
  const api = useApi();

  it("every write appends its changes in the same transaction, numbered by the model's revision", async () => {
    const db = api.store.db;
    const name = uniqueName();
    const model = await addModel(db, { name });
    await deploy(db, { model: name, charm: "wordpress" });
    await deploy(db, { model: name, charm: "mysql", numUnits: 0 });
    await integrate(db, { model: name, endpoints: ["wordpress", "mysql"] });

    const log = await db.select().from(changes).where(eq(changes.modelId, model.id)).orderBy(asc(changes.revision));
    expect(log.map((c) => [c.revision, c.kind, c.entity])).toEqual([
      [1, "model", name],
      [2, "machine", "0"],
      [3, "charm", "bundled:wordpress-0"],
      [4, "application", "wordpress"],
      [5, "machine", "1"],
      [6, "unit", "wordpress/0"],
      [7, "charm", "bundled:mysql-0"],
      [8, "application", "mysql"],
      [9, "relation", "0"],
      [10, "relation", "1"],
    ]);
    expect(log.find((c) => c.entity === "wordpress/0")).toMatchObject({
      life: "alive",
      fields: { machineId: "1", application: "wordpress" },
    });
    const [row] = await db.select({ revision: models.revision }).from(models).where(eq(models.id, model.id));
    expect(row!.revision).toBe(10);
  });

  it("every row about a unit names its application: created, Dying, Dead and removed", async () => {
    const db = api.store.db;
    const name = uniqueName();
    const model = await addModel(db, { name });
    await deploy(db, { model: name, charm: "wordpress" });
    await setMachineProvisioned(db, { model: name, machine: "1", instanceId: "i-1" }); // else the unit goes at once (seed 004)
    await removeUnits(db, { model: name, targets: ["wordpress/0"] });
    await setUnitDead(db, { model: name, unit: "wordpress/0" });
    await removeDeadUnit(db, { model: name, unit: "wordpress/0" });
    const rows = await db
      .select()
      .from(changes)
      .where(and(eq(changes.modelId, model.id), eq(changes.kind, "unit")))
      .orderBy(asc(changes.revision));
    expect(rows.map((c) => [c.life, c.removed, c.fields.application])).toEqual([
      ["alive", false, "wordpress"],
      ["dying", false, "wordpress"],
      ["dead", false, "wordpress"],
      ["dead", true, "wordpress"],
    ]);
  });

  it("a refused operation leaves neither state nor log rows behind", async () => {
    const db = api.store.db;
    const name = uniqueName();
    const model = await addModel(db, { name });
    await expect(deploy(db, { model: name, charm: "wordpress", numUnits: 2, placement: ["0", "9"] })).rejects.toThrow(
      /machine "9" not found/,
    );
    const log = await db.select().from(changes).where(eq(changes.modelId, model.id));
    expect(log.map((c) => c.kind)).toEqual(["model", "machine"]);
  });

  it("a transaction with more changes than a statement can carry parameters (65,535) appends them all, numbered in order", async () => {
    // Forcing away an application of 10,000 units records 10,000 changes in one transaction; the
    // log once bound 7 parameters a row, and such a removal failed with INTERNAL_SERVER_ERROR.
    const db = api.store.db;
    const model = await addModel(db, { name: uniqueName() });
    const count = 10_000;
    await transact(
      db,
      async (tx) => {
        for (let i = 0; i < count; i++) tx.record(model.id, applicationRemoved(`app-${i}`));
      },
      model.name,
    );
    const log = await db
      .select({ revision: changes.revision, entity: changes.entity })
      .from(changes)
      .where(and(eq(changes.modelId, model.id), eq(changes.kind, "application")))
      .orderBy(asc(changes.revision));
    expect(log).toHaveLength(count);
    expect(log.every((row, i) => row.entity === `app-${i}` && row.revision === log[0]!.revision + i)).toBe(true);
  });
});
