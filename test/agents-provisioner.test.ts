// The provisioner and machine agents, end to end over real sockets: a real
// server, the real dummy provider, and the agents as GraphQL clients with their
// own credentials, exactly as `npm start` runs them. Waits poll the API with a
// deadline; nothing sleeps and hopes.

import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { afterEach, describe, expect, it } from "vitest";
import { AgentConnection } from "../src/agents/connection.js";
import { Controller } from "../src/agents/controller.js";
import { MachineAgent } from "../src/agents/machine-agent.js";
import { Provisioner } from "../src/agents/provisioner.js";
import { RemoveDeadMachineDocument, RemoveDeadMachinesDocument } from "../src/client/graphql.js";
import { issueMachineCredentials } from "../src/model/index.js";
import { DummyProvider } from "../src/provider/dummy.js";
import type { StartInstanceParams } from "../src/provider/provider.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const DEADLINE = { timeout: scaled(60_000), interval: 50 };

/** The real dummy cloud, remembering what each start asked for (the provider's side of seed 004). */
class RecordingProvider extends DummyProvider {
  readonly asked: StartInstanceParams[] = [];
  override startInstance(params: StartInstanceParams) {
    this.asked.push(params);
    return super.startInstance(params);
  }
}

/** A cloud that starts instances (their agents boot) but answers the provisioner only once released. */
class HeldProvider extends RecordingProvider {
  private open!: () => void;
  private readonly opened = new Promise<void>((resolve) => {
    this.open = resolve;
  });
  release(): void {
    this.open();
  }
  override async startInstance(params: StartInstanceParams) {
    const instance = await super.startInstance(params);
    await this.opened;
    return instance;
  }
}

/** A cloud that counts the provisioner's full walks (each lists the instances). */
class WalkCounting extends DummyProvider {
  walks = 0;
  override async listInstances() {
    this.walks++;
    return super.listInstances();
  }
}

/** A connection on which the machines stream's removals never arrive, and which notes each removal asked for. */
class HoldingRemovals extends AgentConnection {
  /** The machines of each removeDeadMachine(s) call, in order. */
  readonly removals: string[][] = [];

  override subscribe<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    token: string,
    handlers: { next: (data: R) => void; failed: (error: Error) => void },
  ): () => void {
    return super.subscribe(document, variables, token, {
      ...handlers,
      next: (data) => {
        if (!(data as { changes?: { removed?: boolean } }).changes?.removed) handlers.next(data);
      },
    });
  }

  override request<R, V>(document: TypedDocumentNode<R, V>, variables: V, token: string): Promise<R> {
    const input = (variables as { input?: { machine?: string; machines?: string[] } }).input;
    if ((document as unknown) === RemoveDeadMachineDocument) this.removals.push([input!.machine!]);
    if ((document as unknown) === RemoveDeadMachinesDocument) this.removals.push(input!.machines!);
    return super.request(document, variables, token);
  }
}

const controllers: Controller[] = [];
afterEach(async () => {
  await Promise.all(controllers.splice(0).map((c) => c.stop()));
});

/** Runs the agents of one model, as `npm start` does for every model. */
async function agentsFor(model: string, provider = new RecordingProvider(), options: { startAttempts?: number } = {}) {
  const controller = new Controller({
    url: live.url,
    provider,
    models: async () => [model],
    provisionerToken: async (name) => ({
      machine: "0",
      token: (await issueMachineCredentials(live.store.db, { model: name, machine: "0" })).token,
    }),
    startAttempts: options.startAttempts ?? 3,
    retryDelayMs: 10,
    cloudPollMs: 50,
  });
  controllers.push(controller);
  await controller.start();
  return { controller, provider };
}

const MACHINES = `query ($model: String!) { model(name: $model) { machines(first: 1000) { edges { node {
  id life series instanceId constraints { text } status { current message } } } } } }`;

async function machines(model: string): Promise<Record<string, any>> {
  const data = await live.ok(MACHINES, { model });
  return Object.fromEntries(data.model.machines.edges.map((e: any) => [e.node.id, e.node]));
}

const ADD_MACHINE = `mutation ($input: AddMachineInput!) { addMachine(input: $input) { id } }`;
const addMachine = async (model: string, input: Record<string, unknown> = {}) =>
  (await live.ok(ADD_MACHINE, { input: { model, ...input } })).addMachine.id as string;

const UNITS = `query ($model: String!) { model(name: $model) { units(first: 1000) { edges { node { name life agentStatus { current } } } } } }`;
async function units(model: string): Promise<Record<string, any>> {
  const data = await live.ok(UNITS, { model });
  return Object.fromEntries(data.model.units.edges.map((e: any) => [e.node.name, e.node]));
}

describe("the machine agent's deployer", { timeout: scaled(120_000) }, () => {
  it("deploys every Alive principal assigned to its machine: the unit's agent gets its own credentials and reports idle", async () => {
    const { name: model } = await live.newModel();
    const { controller } = await agentsFor(model);
    await live.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, {
      input: { model, charm: "wordpress", numUnits: 2 },
    });
    await expect.poll(async () => Object.values(await units(model)).map((u) => u.agentStatus.current), DEADLINE).toEqual(["idle", "idle"]);
    const deployed = [...controller.machineAgents.values()].flatMap((agent) => [...agent.unitAgents.values()]);
    expect(deployed.map((a) => a.credentials.tag).sort()).toEqual(["unit-wordpress-0", "unit-wordpress-1"]);
  });

  it("restarted, it removes at once a principal that was removed before it was ever deployed (no agent will run it)", async () => {
    const { name: model } = await live.newModel();
    const { controller } = await agentsFor(model);
    const id = await addMachine(model);
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    const instance = (await machines(model))[id].instanceId;
    const agent = controller.machineAgents.get(instance)!;
    agent.stop(); // killed
    await live.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, {
      input: { model, charm: "wordpress", placement: [id] },
    });
    await live.ok(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, {
      input: { model, units: ["wordpress/0"] },
    });
    expect((await units(model))["wordpress/0"]).toMatchObject({ life: "DYING", agentStatus: { current: "allocating" } });
    const restarted = new MachineAgent(controller.api, agent.credentials);
    await restarted.start();
    try {
      await expect.poll(async () => (await units(model))["wordpress/0"], DEADLINE).toBeUndefined();
    } finally {
      restarted.stop();
    }
  });
});

describe("the provisioner", { timeout: scaled(120_000) }, () => {
  it("starts an instance for every Alive machine with its own series and constraints, records it once, and its agent reports started", async () => {
    const { name: model } = await live.newModel();
    const { provider } = await agentsFor(model);
    const id = await addMachine(model, { series: "focal", constraints: "mem=8G cores=4" });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    const machine = (await machines(model))[id];
    expect(machine.instanceId).toMatch(/^dummy-\d+$/);
    const [instance] = (await provider.listInstances()).filter((i) => i.id === machine.instanceId);
    expect(instance).toMatchObject({ model, machineId: id, series: "focal", status: "running" });
    expect(instance!.hardware.mem).toBeGreaterThanOrEqual(8 * 1024);
    expect(instance!.hardware.cores).toBeGreaterThanOrEqual(4);
    expect(provider.asked.filter((p) => p.machineId === id)).toHaveLength(1);
    // The controller's own machine was provisioned at bootstrap; its agent is the provisioner.
    expect((await machines(model))["0"]).toMatchObject({ instanceId: null, status: { current: "started" } });
  });

  it("a machine agent reports started only once its machine's instance is recorded (Juju's agent cannot log in before SetProvisioned)", async () => {
    const { name: model } = await live.newModel();
    const provider = new HeldProvider();
    await agentsFor(model, provider);
    const id = await addMachine(model);
    // The instance runs, and its agent boots, but the provisioner has not heard back from the cloud yet.
    await expect.poll(async () => (await provider.listInstances()).some((i) => i.machineId === id), DEADLINE).toBe(true);
    const seen: string[] = [];
    const held = Date.now();
    while (Date.now() - held < 1000) seen.push((await machines(model))[id].status.current); // an agent that did not wait reports within milliseconds
    expect(new Set(seen)).toEqual(new Set(["pending"]));
    provider.release();
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    expect((await machines(model))[id].instanceId).toMatch(/^dummy-/);
  });

  it("seed 004's constraints sequence reaches the provider as the seed says", async () => {
    const { name: model } = await live.newModel();
    await live.ok(`mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`, {
      input: { model, constraints: "mem=4G" },
    });
    const { provider } = await agentsFor(model);
    const DEPLOY = `mutation ($input: DeployInput!) { deploy(input: $input) { name } }`;
    await live.ok(DEPLOY, { input: { model, charm: "wordpress", constraints: "cores=2" } }); // machine 1
    await live.ok(`mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`, {
      input: { model, application: "wordpress", constraints: "cores=8" },
    });
    await live.ok(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, { input: { model, application: "wordpress" } }); // 2
    const alone = await addMachine(model); // 3: a machine added without a unit takes the model's
    await expect.poll(async () => provider.asked.map((p) => p.machineId).sort(), DEADLINE).toEqual(["1", "2", alone].sort());
    const asked = Object.fromEntries(provider.asked.map((p) => [p.machineId, p.constraints]));
    // "The unit's constraints are the application's merged over the model's, captured when the unit is created."
    expect(asked["1"]).toEqual({ mem: 4096, cores: 2 });
    expect(asked["2"]).toEqual({ mem: 4096, cores: 8 });
    expect(asked[alone]).toEqual({ mem: 4096 });
  });

  it("a start that keeps failing leaves no instance and status error with the provider's message; resolveMachine with new constraints fixes it", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    const id = await addMachine(model, { constraints: "mem=1024G" });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("error");
    expect((await machines(model))[id]).toMatchObject({
      instanceId: null,
      status: { message: "no instance type satisfies mem=1T (largest: 256G)" },
    });
    const RESOLVE = `mutation ($input: ResolveMachineInput!) { resolveMachine(input: $input) { status { current } constraints { text } } }`;
    expect((await live.ok(RESOLVE, { input: { model, machine: id, constraints: "mem=2G cpu-power=400" } })).resolveMachine).toEqual({
      status: { current: "pending" },
      constraints: { text: "cpu-power=400 mem=2G" },
    });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    expect((await machines(model))[id].instanceId).toMatch(/^dummy-/);
  });

  it("resolveMachine is refused, with NOT_IN_ERROR, for a machine not in error", async () => {
    const { name: model } = await live.newModel();
    const id = await addMachine(model);
    const result = await live.post(`mutation ($input: ResolveMachineInput!) { resolveMachine(input: $input) { id } }`, {
      input: { model, machine: id },
    });
    expect(result.errors?.map((e: any) => e.extensions.code)).toEqual(["NOT_IN_ERROR"]);
  });

  it("transient failures are retried a bounded number of times", async () => {
    const { name: model } = await live.newModel();
    const provider = new RecordingProvider();
    provider.failNextStarts(2);
    await agentsFor(model, provider, { startAttempts: 3 });
    const id = await addMachine(model);
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    expect(provider.asked.filter((p) => p.machineId === id)).toHaveLength(3);

    provider.failNextStarts(3, "no capacity in zone-a");
    const unlucky = await addMachine(model);
    await expect
      .poll(async () => (await machines(model))[unlucky]?.status, DEADLINE)
      .toEqual({
        current: "error",
        message: "no capacity in zone-a",
      });
    expect(provider.asked.filter((p) => p.machineId === unlucky)).toHaveLength(3);
  });

  const ATTEMPTS = `query ($model: String!, $id: String!) { model(name: $model) { machine(id: $id) {
    startAttempts lastStartError lastStartAttemptAt status { current message } } } }`;

  it("every failed start is counted with the provider's error: a machine that got its instance says how many starts failed first", async () => {
    const { name: model } = await live.newModel();
    const provider = new RecordingProvider();
    provider.failNextStarts(2, "no capacity in zone-b");
    await agentsFor(model, provider, { startAttempts: 3 });
    const id = await addMachine(model);
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    const { machine } = (await live.ok(ATTEMPTS, { model, id })).model;
    expect(machine).toMatchObject({ startAttempts: 2, lastStartError: "no capacity in zone-b" });
    expect(Date.parse(machine.lastStartAttemptAt)).not.toBeNaN();
  });

  it("out of attempts, the machine is in error with the count and the error, so 'no further attempts' is read, not inferred; resolveMachine starts a new round", async () => {
    const { name: model } = await live.newModel();
    const provider = new RecordingProvider();
    provider.failNextStarts(3, "no capacity in zone-c");
    await agentsFor(model, provider, { startAttempts: 3 });
    const id = await addMachine(model);
    await expect
      .poll(async () => (await live.ok(ATTEMPTS, { model, id })).model.machine, DEADLINE)
      .toMatchObject({
        startAttempts: 3,
        lastStartError: "no capacity in zone-c",
        status: { current: "error", message: "no capacity in zone-c" },
      });
    await live.ok(`mutation ($input: ResolveMachineInput!) { resolveMachine(input: $input) { id } }`, { input: { model, machine: id } });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    expect((await live.ok(ATTEMPTS, { model, id })).model.machine).toMatchObject({ startAttempts: 0, lastStartError: null });
  });

  it("a removed machine goes Dying, its agent sets it Dead, the provisioner stops its instance and removes it", async () => {
    const { name: model } = await live.newModel();
    const { provider } = await agentsFor(model);
    const id = await addMachine(model);
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    const instance = (await machines(model))[id].instanceId;
    await live.ok(`mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { outcome } }`, {
      input: { model, machines: [id] },
    });
    await expect.poll(async () => (await machines(model))[id], DEADLINE).toBeUndefined();
    expect((await provider.listInstances()).map((i) => i.id)).not.toContain(instance);
  });

  it("asks once for a Dead machine's removal: its passes before the stream shows it gone do not ask again", async () => {
    const { name: model } = await live.newModel();
    const id = await addMachine(model);
    await live.ok(`mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`, {
      input: { model, machine: id, instanceId: "i-held" },
    });
    await live.ok(`mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { outcome } }`, {
      input: { model, machines: [id] },
    });
    await live.ok(`mutation ($input: MachineTargetInput!) { setMachineDead(input: $input) { id } }`, { input: { model, machine: id } });
    const api = new HoldingRemovals(live.url);
    const provider = new WalkCounting();
    const provisioner = new Provisioner(api, {
      model,
      token: (await issueMachineCredentials(live.store.db, { model, machine: "0" })).token,
      provider,
      cloudPollMs: 20,
      userData: () => "",
    });
    provisioner.start();
    try {
      await expect.poll(() => api.removals.length, DEADLINE).toBe(1);
      await expect.poll(async () => (await machines(model))[id], DEADLINE).toBeUndefined();
      // The removal's event is held back: full passes walk the Dead machine in the view again.
      const walks = provider.walks;
      await expect.poll(() => provider.walks, DEADLINE).toBeGreaterThanOrEqual(walks + 3);
      expect(api.removals).toEqual([[id]]);
    } finally {
      await provisioner.stop();
      await api.close();
    }
  });

  it("a Dying machine that never got an instance is removed by the provisioner (no agent will ever run on it)", async () => {
    const { name: model } = await live.newModel();
    await agentsFor(model);
    const id = await addMachine(model, { constraints: "arch=s390x" });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("error");
    await live.ok(`mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { outcome } }`, {
      input: { model, machines: [id] },
    });
    await expect.poll(async () => (await machines(model))[id], DEADLINE).toBeUndefined();
  });

  it("notices a lost instance: the machine goes into error saying so; resolveMachine starts a new instance and the lost one is stopped", async () => {
    const { name: model } = await live.newModel();
    const { provider, controller } = await agentsFor(model);
    const id = await addMachine(model);
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    const lost = (await machines(model))[id].instanceId;
    provider.loseInstance(lost);
    await expect
      .poll(async () => (await machines(model))[id]?.status, DEADLINE)
      .toEqual({
        current: "error",
        message: `instance ${lost} was lost (its hardware failed): resolveMachine starts a new one, or remove the machine with force`,
      });
    expect([...controller.machineAgents.keys()]).not.toContain(lost);
    await live.ok(`mutation ($input: ResolveMachineInput!) { resolveMachine(input: $input) { id } }`, { input: { model, machine: id } });
    await expect.poll(async () => (await machines(model))[id]?.status.current, DEADLINE).toBe("started");
    expect((await machines(model))[id].instanceId).not.toBe(lost);
    await expect.poll(async () => (await provider.listInstances()).map((i) => i.id), DEADLINE).not.toContain(lost);
  });

  it("stops instances no machine of its model owns, and leaves other models' alone", async () => {
    const { name: model } = await live.newModel();
    const provider = new RecordingProvider();
    const stray = await provider.startInstance({ model, machineId: "99", series: "jammy", constraints: {} });
    const elsewhere = await provider.startInstance({ model: "someone-else", machineId: "1", series: "jammy", constraints: {} });
    await agentsFor(model, provider);
    await expect.poll(async () => (await provider.listInstances()).map((i) => i.id), DEADLINE).not.toContain(stray.id);
    expect((await provider.listInstances()).map((i) => i.id)).toContain(elsewhere.id);
  });

  it("killed and started again at any point, it converges: every machine provisioned once, no instance left over", async () => {
    const { name: model } = await live.newModel();
    const provider = new RecordingProvider();
    const first = await agentsFor(model, provider);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await addMachine(model));
    // Killed while it works through them (some started, some recorded, some neither).
    await expect.poll(() => provider.asked.length, DEADLINE).toBeGreaterThan(0);
    await first.controller.stop();
    controllers.splice(controllers.indexOf(first.controller), 1);
    await agentsFor(model, provider);
    await expect
      .poll(async () => Object.values(await machines(model)).filter((m) => m.id !== "0" && m.instanceId !== null).length, DEADLINE)
      .toBe(ids.length);
    const recorded = new Set(Object.values(await machines(model)).map((m) => m.instanceId));
    // Instances started but never recorded were harvested.
    await expect
      .poll(async () => (await provider.listInstances()).filter((i) => i.model === model && !recorded.has(i.id)), DEADLINE)
      .toEqual([]);
  });
});
