// "There are two fundamental truths in this system: all such things start
// existence Alive; no such thing can ever change to an earlier state." (seed 001)
// The domain never moves life backwards; the database refuses it as well.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const raw = (statement: ReturnType<typeof sql>) => api.store.db.execute(statement);

/** The database's refusal arrives wrapped by Drizzle; the driver's error is its cause. */
async function expectRefusedByDatabase(statement: ReturnType<typeof sql>) {
  const error = await raw(statement).then(
    () => undefined,
    (e: unknown) => e as { cause?: { message?: string; code?: string } },
  );
  expect(error, "the statement should have failed").toBeDefined();
  expect(error!.cause?.message).toMatch(/life cannot go backwards/);
  expect(error!.cause?.code).toBe("23514");
}

describe("life is monotonic", () => {
  it("everything starts Alive", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql" });
    await integrate(api, model, "wordpress", "mysql");
    const status = await lifecycle(api, model).status();
    const lives = [
      status.life,
      ...Object.values({ ...status.machines, ...status.units, ...status.applications, ...status.relations }).map((e: any) => e.life),
    ];
    expect(new Set(lives)).toEqual(new Set(["ALIVE"]));
  });

  for (const [table, key, column] of [
    ["units", "wordpress/0", "name"],
    ["machines", "1", "id"],
    ["applications", "wordpress", "name"],
    ["relations", "1", "id"],
  ] as const) {
    it(`a raw SQL statement that would move a ${table.slice(0, -1)} from Dying back to Alive fails`, async () => {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress" });
      await deploy(api, model, { charm: "mysql" });
      await integrate(api, model, "wordpress", "mysql");
      const where = sql`${sql.identifier(column)} = ${key} and model_id = (select id from models where name = ${model})`;
      await raw(sql`update ${sql.identifier(table)} set life = 'dying' where ${where}`);
      await expectRefusedByDatabase(sql`update ${sql.identifier(table)} set life = 'alive' where ${where}`);
      await raw(sql`update ${sql.identifier(table)} set life = 'dead' where ${where}`);
      await expectRefusedByDatabase(sql`update ${sql.identifier(table)} set life = 'dying' where ${where}`);
    });
  }

  it("a model cannot come back to life either", async () => {
    const model = await api.newModel();
    await raw(sql`update models set life = 'dying' where name = ${model}`);
    await expectRefusedByDatabase(sql`update models set life = 'alive' where name = ${model}`);
  });

  it("the change log shows every entity's life only ever advancing", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress", numUnits: 2 });
    await deploy(api, model, { charm: "mysql" });
    const rel = await integrate(api, model, "wordpress", "mysql");
    const l = lifecycle(api, model);
    await l.enter(rel.id, "wordpress/0");
    await l.removeApplication(["wordpress"]);
    await l.runCleanups();
    await l.removeUnit(["wordpress/0", "wordpress/1"], { force: true });
    const result = await raw(
      sql`select kind, entity, life from changes where model_id = (select id from models where name = ${model}) and life is not null order by revision`,
    );
    const rows = rowsOf<{ kind: string; entity: string; life: string }>(result);
    const order = { alive: 0, dying: 1, dead: 2 } as Record<string, number>;
    const last = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.kind}:${row.entity}`;
      expect(order[row.life]!, `${key} went ${row.life} after ${last.get(key)}`).toBeGreaterThanOrEqual(last.get(key) ?? 0);
      last.set(key, order[row.life]!);
    }
    expect(last.get("application:wordpress")).toBe(2);
  });
});
