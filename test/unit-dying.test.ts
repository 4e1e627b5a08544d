// Seed 001 "Units": a subordinate's agent sets its own unit Dying (Juju's uniter
// Destroy) when no Alive container-scoped relation with its principal's
// application remains. (Units go Dying with their application through the
// cleaner's dying-units cleanup, not their agents: cleaner.test.ts, agents-units.test.ts.)
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { deploy, integrate, snapshot } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const SET_UNIT_DYING = `mutation ($input: UnitTargetInput!) { setUnitDying(input: $input) { name life subordinates { name life } } }`;

async function scene() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress" });
  await deploy(api, model, { charm: "logging" });
  const log = (await integrate(api, model, "logging", "wordpress")).id;
  const l = lifecycle(api, model);
  await l.enter(log, "wordpress/0"); // creates logging/0
  const dying = (unit: string) => api.ok(SET_UNIT_DYING, { input: { model, unit } }).then((d) => d.setUnitDying);
  return { model, l, log, dying };
}

describe("setUnitDying", () => {
  it("sets an Alive principal Dying, and its subordinates follow it", async () => {
    const { dying } = await scene();
    expect(await dying("wordpress/0")).toEqual({
      name: "wordpress/0",
      life: "DYING",
      subordinates: [{ name: "logging/0", life: "DYING" }],
    });
  });

  it("works on a subordinate (removeUnit refuses them: their own agent decides)", async () => {
    const { l, dying } = await scene();
    expect(await dying("logging/0")).toMatchObject({ name: "logging/0", life: "DYING" });
    expect((await l.status()).units["wordpress/0"].life).toBe("ALIVE");
  });

  it("is a no-op for a unit that is not Alive: nothing changes", async () => {
    const { model, dying } = await scene();
    await dying("wordpress/0");
    const before = await snapshot(api, model);
    expect(await dying("wordpress/0")).toMatchObject({ life: "DYING" });
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("works in a Dying model: that is how a model empties", async () => {
    const { model, dying } = await scene();
    await api.ok(`mutation ($name: String!) { destroyModel(name: $name) }`, { name: model });
    expect(await dying("logging/0")).toMatchObject({ life: "DYING" });
  });

  it("refuses malformed and unknown units, changing nothing", async () => {
    const { model } = await scene();
    const before = await snapshot(api, model);
    await api.refused("INVALID_ID", SET_UNIT_DYING, { input: { model, unit: "wordpress" } });
    await api.refused("NOT_FOUND", SET_UNIT_DYING, { input: { model, unit: "wordpress/9" } });
    expect(await snapshot(api, model)).toEqual(before);
  });
});
