// `juju config`: an application's settings over its charm's options
// (config.yaml), checked and coerced to each option's type; every change to the
// effective config bumps a version its units' agents watch to run config-changed.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbTx } from "../src/changes/append.js";
import { stateReaders } from "../src/changes/snapshot.js";
import { rowsOf } from "../src/db/connect.js";
import { useApi } from "./support/api.js";
import { deploy, snapshot } from "./support/fixtures.js";

const api = useApi();

const metadata = "name: blog\nprovides:\n  website:\n    interface: http\n";
const config = `options:
  port: { type: int, default: 8080, description: Where it listens. }
  ratio: { type: float, default: 0.5 }
  debug: { type: boolean, default: false }
  title: { type: string, description: No default. }
`;
const APP = `query ($model: String!) { model(name: $model) { application(name: "blog") { config configVersion } } }`;
const SET = `mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name config configVersion } }`;
const DEPLOY = `mutation ($input: DeployInput!) { deploy(input: $input) { name config configVersion } }`;

async function scene(deployConfig?: { key: string; value: string }[]) {
  const model = await api.newModel();
  await api.ok(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, { input: { model, metadata, config } });
  const deployed = (await api.ok(DEPLOY, { input: { model, charm: "blog", numUnits: 0, config: deployConfig } })).deploy;
  const set = (input: Record<string, unknown>) =>
    api.ok(SET, { input: { model, application: "blog", ...input } }).then((d) => d.setApplicationConfig);
  return { model, deployed, set };
}

/** The application change rows written after `revision`. */
async function applicationRowsSince(model: string, revision: string) {
  const rows = await api.store.db.execute(
    sql`select fields from changes where model_id = (select id from models where name = ${model}) and revision > ${Number(revision)} and kind = 'application' order by revision`,
  );
  return rowsOf<{ fields: Record<string, unknown> }>(rows).map((r) => r.fields);
}

const revision = (model: string) =>
  api.ok(`query ($model: String!) { model(name: $model) { revision } }`, { model }).then((d) => d.model.revision);

describe("Application.config", () => {
  it("is the charm's defaults until something is set; options with no default are left out; version 0", async () => {
    const { deployed } = await scene();
    expect(deployed).toEqual({ name: "blog", config: { debug: false, port: 8080, ratio: 0.5 }, configVersion: 0 });
  });

  it("deploy takes config (`juju deploy --config`), coerced to the options' types", async () => {
    const { deployed } = await scene([
      { key: "port", value: "80" },
      { key: "title", value: "My blog" },
    ]);
    expect(deployed).toMatchObject({ config: { debug: false, port: 80, ratio: 0.5, title: "My blog" }, configVersion: 0 });
  });
});

describe("setApplicationConfig", () => {
  it("sets values coerced to each option's type, and bumps the config version", async () => {
    const { set } = await scene();
    expect(
      await set({
        values: [
          { key: "port", value: "9000" },
          { key: "ratio", value: "1.25" },
          { key: "debug", value: "true" },
          { key: "title", value: "" },
        ],
      }),
    ).toEqual({ name: "blog", config: { debug: true, port: 9000, ratio: 1.25, title: "" }, configVersion: 1 });
  });

  it("reset returns an option to its charm's default (or unset), and bumps the version", async () => {
    const { set } = await scene();
    await set({
      values: [
        { key: "port", value: "1" },
        { key: "title", value: "t" },
      ],
    });
    expect(await set({ reset: ["port", "title"] })).toEqual({
      name: "blog",
      config: { debug: false, port: 8080, ratio: 0.5 },
      configVersion: 2,
    });
  });

  it("a change that leaves the effective config as it was writes nothing: no version, no change row", async () => {
    const { model, set } = await scene();
    await set({ values: [{ key: "port", value: "9000" }] });
    const before = await revision(model);
    expect(
      (
        await set({
          values: [
            { key: "port", value: "9000" },
            { key: "debug", value: "false" },
          ],
          reset: ["ratio"],
        })
      ).configVersion,
    ).toBe(1);
    expect(await revision(model)).toBe(before);
  });

  it("the application's change row carries the new version and the effective config; so does its state in a snapshot", async () => {
    const { model, set } = await scene();
    const before = await revision(model);
    await set({ values: [{ key: "port", value: "9000" }] });
    expect(await applicationRowsSince(model, before)).toEqual([{ configVersion: 1, config: { debug: false, port: 9000, ratio: 0.5 } }]);
    const modelId = (await api.ok(`query ($model: String!) { model(name: $model) { uuid } }`, { model })).model.uuid;
    const [state] = await stateReaders.application(api.store.db as unknown as DbTx, modelId, { ids: ["blog"] }, 10);
    expect(state!.fields).toMatchObject({ configVersion: 1, config: { debug: false, port: 9000, ratio: 0.5 } });
  });

  it("a config too big for change rows is left out of them (agents read Application.config)", async () => {
    const { model, set } = await scene();
    const before = await revision(model);
    await set({ values: [{ key: "title", value: "x".repeat(5000) }] });
    expect(await applicationRowsSince(model, before)).toEqual([{ configVersion: 1 }]);
  });

  it("refuses unknown keys (naming them), values not of their type, keys given twice, changing nothing", async () => {
    const { model } = await scene();
    const before = await snapshot(api, model);
    const set = (code: string, input: Record<string, unknown>) =>
      api.refused(code, SET, { input: { model, application: "blog", ...input } });
    expect((await set("INVALID_ARGUMENT", { values: [{ key: "colour", value: "red" }] })).message).toBe(
      'application "blog" has no config option "colour" (its options: debug, port, ratio, title)',
    );
    expect((await set("INVALID_ARGUMENT", { reset: ["colour"] })).extensions?.key).toBe("colour");
    expect((await set("INVALID_ARGUMENT", { values: [{ key: "port", value: "eighty" }] })).message).toBe(
      'config option "port" is a int: "eighty" is not one',
    );
    await set("INVALID_ARGUMENT", { values: [{ key: "port", value: "1.5" }] });
    await set("INVALID_ARGUMENT", { values: [{ key: "ratio", value: "half" }] });
    await set("INVALID_ARGUMENT", { values: [{ key: "debug", value: "maybe" }] });
    await set("INVALID_ARGUMENT", {
      values: [
        { key: "port", value: "1" },
        { key: "port", value: "2" },
      ],
    });
    await set("INVALID_ARGUMENT", { values: [{ key: "port", value: "1" }], reset: ["port"] });
    await set("NOT_FOUND", { application: "nope", values: [] });
    await api.refused("INVALID_ARGUMENT", DEPLOY, {
      input: { model, charm: "blog", application: "blog-two", config: [{ key: "colour", value: "red" }] },
    });
    expect(await snapshot(api, model)).toEqual(before);
    expect((await api.ok(APP, { model })).model.application).toEqual({
      config: { debug: false, port: 8080, ratio: 0.5 },
      configVersion: 0,
    });
  });

  it("works on a Dying application: fixing its config is how its stuck units get moving", async () => {
    const { model } = await scene();
    await deploy(api, model, { charm: "wordpress" });
    await api.ok(`mutation ($model: String!) { removeApplication(input: { model: $model, applications: ["wordpress"] }) { outcome } }`, {
      model,
    });
    const data = await api.ok(
      `mutation ($model: String!) { setApplicationConfig(input: { model: $model, application: "wordpress", values: [{ key: "port", value: "8080" }] }) { life config configVersion } }`,
      { model },
    );
    expect(data.setApplicationConfig).toMatchObject({ life: "DYING", config: { port: 8080 }, configVersion: 1 });
  });
});
