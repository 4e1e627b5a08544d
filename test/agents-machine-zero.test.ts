// A model's machine 0 holds JobManageModel and JobHostUnits: the controller
// runs its machine agent beside the provisioner, with the same credentials
// (machine 0's), so units placed there are deployed like units anywhere else,
// with no instance started for them. Its agent recalls and removes them as
// any deployer does, and never ends machine 0: it stays Alive and started.
import { describe, expect, it } from "vitest";
import { useAgents } from "./support/agents.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const DEADLINE = { timeout: scaled(60_000), interval: 50 };

const agentsFor = useAgents(live);

const STATUS = `query ($model: String!) { model(name: $model) {
  machines { edges { node { id life status { current } } } }
  units { edges { node { name machine { id } agentStatus { current } } } } } }`;
async function status(model: string) {
  const data = (await live.ok(STATUS, { model })).model;
  return {
    machines: data.machines.edges.map((e: any) => e.node),
    units: Object.fromEntries(
      data.units.edges.map((e: any) => [e.node.name, { machine: e.node.machine?.id, agent: e.node.agentStatus.current }]),
    ),
  };
}

describe("machine 0's agent", { timeout: scaled(120_000) }, () => {
  it("deploys units placed on machine 0: their agents report idle, and no instance is started for them", async () => {
    const { name: model } = await live.newModel();
    const { controller, provider } = await agentsFor(model);
    await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", placement: ["0"] }) { name } }`, {
      model,
    });
    await live.ok(`mutation ($model: String!) { addUnit(input: { model: $model, application: "wordpress", placement: ["0"] }) { name } }`, {
      model,
    });
    await expect
      .poll(async () => (await status(model)).units, DEADLINE)
      .toEqual({
        "wordpress/0": { machine: "0", agent: "idle" },
        "wordpress/1": { machine: "0", agent: "idle" },
      });
    const manager = controller.managerAgents.get(model)!;
    expect(manager.credentials.tag).toBe("machine-0");
    expect([...manager.unitAgents.keys()].sort()).toEqual(["wordpress/0", "wordpress/1"]);
    expect((await status(model)).machines).toEqual([{ id: "0", life: "ALIVE", status: { current: "started" } }]);
    expect(await provider.listInstances()).toEqual([]);
  });

  it("recalls and removes a unit removed from machine 0, and machine 0 stays Alive and started", async () => {
    const { name: model } = await live.newModel();
    const { controller } = await agentsFor(model);
    await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress", placement: ["0"] }) { name } }`, {
      model,
    });
    await expect.poll(async () => (await status(model)).units["wordpress/0"]?.agent, DEADLINE).toBe("idle");
    const manager = controller.managerAgents.get(model)!;
    await live.ok(`mutation ($model: String!) { removeUnit(input: { model: $model, units: ["wordpress/0"], force: true }) { outcome } }`, {
      model,
    });
    await expect.poll(async () => (await status(model)).units, DEADLINE).toEqual({});
    await expect.poll(() => manager.unitAgents.size, DEADLINE).toBe(0);
    expect((await status(model)).machines).toEqual([{ id: "0", life: "ALIVE", status: { current: "started" } }]);
  });

  it("stops with its model's provisioner once the model is destroyed", async () => {
    const { name: model } = await live.newModel();
    const { controller } = await agentsFor(model);
    expect(controller.managerAgents.has(model)).toBe(true);
    await live.ok(`mutation ($model: String!) { destroyModel(name: $model) }`, { model });
    await expect.poll(() => controller.managerAgents.has(model), DEADLINE).toBe(false);
    expect(controller.provisioners.has(model)).toBe(false);
  });
});
