// `juju model-config automatically-retry-hooks`: on by default; unit agents
// read it from the model (and its change rows) to decide whether to retry a
// failed hook by themselves (as Juju's uniter: hook failures and `resolved`).
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { useApi } from "./support/api.js";

const api = useApi();

const SET = `mutation ($input: SetModelConfigInput!) { setModelConfig(input: $input) { name automaticallyRetryHooks } }`;
const MODEL = `query ($model: String!) { model(name: $model) { revision automaticallyRetryHooks } }`;

async function modelRows(model: string) {
  const rows = await api.store.db.execute(
    sql`select fields from changes where model_id = (select id from models where name = ${model}) and kind = 'model' order by revision`,
  );
  return rowsOf<{ fields: Record<string, unknown> }>(rows).map((r) => r.fields.automaticallyRetryHooks);
}

describe("automaticallyRetryHooks", () => {
  it("is on in a new model, and its creation row says so", async () => {
    const model = await api.newModel();
    expect((await api.ok(MODEL, { model })).model.automaticallyRetryHooks).toBe(true);
    expect(await modelRows(model)).toEqual([true]);
  });

  it("setModelConfig turns it off and on, each change a model change row", async () => {
    const model = await api.newModel();
    expect((await api.ok(SET, { input: { model, automaticallyRetryHooks: false } })).setModelConfig).toEqual({
      name: model,
      automaticallyRetryHooks: false,
    });
    await api.ok(SET, { input: { model, automaticallyRetryHooks: true } });
    expect(await modelRows(model)).toEqual([true, false, true]);
  });

  it("a setting left as it was (or omitted) writes nothing", async () => {
    const model = await api.newModel();
    const { revision } = (await api.ok(MODEL, { model })).model;
    await api.ok(SET, { input: { model, automaticallyRetryHooks: true } });
    await api.ok(SET, { input: { model } });
    expect((await api.ok(MODEL, { model })).model.revision).toBe(revision);
  });

  it("works on a Dying model (its units still run hooks), and refuses an unknown one", async () => {
    const model = await api.newModel();
    await api.ok(`mutation ($name: String!) { destroyModel(name: $name) }`, { name: model });
    expect((await api.ok(SET, { input: { model, automaticallyRetryHooks: false } })).setModelConfig.automaticallyRetryHooks).toBe(false);
    await api.refused("NOT_FOUND", SET, { input: { model: "no-such-model", automaticallyRetryHooks: false } });
  });
});
