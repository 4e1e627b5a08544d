// The deployer (src/agents/deployer.ts; Juju's worker/deployer, seed 001), as a
// machine agent runs it for the principals on its machine and a principal's unit
// agent for its subordinates: against a live server, with the machine agent's own
// credentials, and agents that only note what was done to them. The view of the
// units is written as the machineUnits stream would show it.
import type { DocumentNode } from "graphql";
import { afterEach, describe, expect, it } from "vitest";
import { AgentConnection } from "../src/agents/connection.js";
import { type DeployedAgent, type DeployedUnitView, Deployer, type UnitAgentCredentials } from "../src/agents/deployer.js";
import { deadUnitRemovalCalls, unitCredentialsCalls } from "../src/agents/gathered-calls.js";
import { issueMachineCredentials } from "../src/model/index.js";
import { provisionMachines } from "./support/fixtures.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const open: AgentConnection[] = [];
afterEach(async () => {
  for (const api of open.splice(0)) await api.close();
});

/** A unit agent that does nothing but note what its deployer did to it. */
class NotedAgent implements DeployedAgent {
  started = false;
  stopped = false;
  units: ReadonlyMap<string, DeployedUnitView> | null = null;
  private finish: () => void = () => {};
  readonly finished = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(
    readonly credentials: UnitAgentCredentials,
    private readonly startFails: boolean,
  ) {}

  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void {
    this.units = units;
  }

  async start(): Promise<void> {
    if (this.startFails) throw new Error("the server is out of reach");
    this.started = true;
  }

  stop(): void {
    this.stopped = true;
    this.finish();
  }
}

const mutate = (query: string, input: Record<string, unknown>) => live.ok(query, { input });
const view = (life: string, agentStatus = "allocating", principal: string | null = null): DeployedUnitView => ({
  life,
  machineId: principal ? null : "1",
  principal,
  agentStatus,
});
const units = async (model: string) =>
  (
    await live.ok(`query ($model: String!) { model(name: $model) { units(first: 100) { edges { node { name life } } } } }`, { model })
  ).model.units.edges.map((e: any) => `${e.node.name} ${e.node.life}`);

/** wordpress/0, /1 and /2 on machine 1 (provisioned, no agent), and machine 1's deployer of its principals. */
async function scene(options: { startFails?: (unit: string) => boolean } = {}) {
  const { name: model } = await live.newModel();
  await mutate(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { model, charm: "wordpress" });
  await mutate(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
    model,
    application: "wordpress",
    count: 2,
    placement: ["1", "1"],
  });
  await provisionMachines(live, model);
  const { tag, token } = await issueMachineCredentials(live.store.db, { model, machine: "1" });
  const api = new AgentConnection(live.url);
  open.push(api);
  const log: string[] = [];
  const made: NotedAgent[] = [];
  /** The operations the deployer sent, by name. */
  const sent: string[] = [];
  const caller = api.callerFor(token);
  const deployer = new Deployer<NotedAgent>({
    model,
    tag,
    call: (document, variables) => {
      sent.push(operationName(document));
      return caller(document, variables);
    },
    credentialsFor: (unit) => {
      sent.push("IssueUnitCredentials");
      return api.gather(unitCredentialsCalls(api), model, { model, unit }, token);
    },
    removeDead: (unit) => {
      sent.push("RemoveDeadUnit");
      return api.gather(deadUnitRemovalCalls(api), model, { model, unit }, token);
    },
    responsibleFor: (_, unit) => unit.principal === null && unit.machineId === "1",
    noun: "unit",
    agentFor: (credentials) => {
      const agent = new NotedAgent(credentials, options.startFails?.(credentials.unit) ?? false);
      made.push(agent);
      return agent;
    },
    stopped: () => false,
    log: (line) => log.push(line.replace(`${tag}: `, "")),
  });
  return { model, deployer, log, made, sent };
}

const operationName = (document: DocumentNode) =>
  document.definitions.map((d) => (d.kind === "OperationDefinition" ? (d.name?.value ?? "") : "")).join("");

describe("the deployer", { timeout: scaled(60_000) }, () => {
  it("deploys each Alive unit it is responsible for with fresh credentials, and leaves the others alone", async () => {
    const { model, deployer, log, made } = await scene();
    const seen = new Map([
      ["wordpress/0", view("ALIVE")],
      ["wordpress/1", view("ALIVE")],
      ["logging/0", view("ALIVE", "allocating", "wordpress/0")], // a subordinate: its principal's to deploy
    ]);
    deployer.unitsChanged(seen);
    expect(await deployer.deploy()).toBe(2);
    expect([...deployer.agents.keys()]).toEqual(["wordpress/0", "wordpress/1"]);
    expect(made.map((a) => [a.credentials.model, a.credentials.unit, a.credentials.tag.length > 0, a.started, a.units])).toEqual([
      [model, "wordpress/0", true, true, seen],
      [model, "wordpress/1", true, true, seen],
    ]);
    expect(log).toEqual(["deployed unit wordpress/0", "deployed unit wordpress/1"]);
    // A second pass finds them deployed: nothing is issued or started again.
    await deployer.deploy();
    expect(made.length).toBe(2);
  });

  it("starts each agent with what it starts from, read with its credentials: it need not ask for it", async () => {
    const { deployer, made } = await scene();
    deployer.unitsChanged(new Map([["wordpress/0", view("ALIVE")]]));
    await deployer.deploy();
    const startup = made[0]!.credentials.startup;
    expect(startup).toMatchObject({ agentState: null, relationsInScope: [], allocating: true });
    expect(startup?.hooks.map((h) => h.name)).toContain("install");
  });

  it("removes at once a unit no longer Alive that was never deployed: no agent will ever run it", async () => {
    const { model, deployer, log, made } = await scene();
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/1"] });
    deployer.unitsChanged(new Map([["wordpress/1", view("DYING")]]));
    await deployer.deploy();
    expect(made).toEqual([]);
    expect(log).toEqual(["removed unit wordpress/1, which was never deployed"]);
    expect(await units(model)).toEqual(["wordpress/0 ALIVE", "wordpress/2 ALIVE"]);
  });

  it("recalls and removes a Dead unit; recalls an agent whose unit has left its view", async () => {
    const { model, deployer, log, made } = await scene();
    deployer.unitsChanged(
      new Map([
        ["wordpress/0", view("ALIVE")],
        ["wordpress/2", view("ALIVE")],
      ]),
    );
    await deployer.deploy();
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/2"] });
    await mutate(`mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name } }`, { model, unit: "wordpress/2" });
    deployer.unitsChanged(new Map([["wordpress/2", view("DEAD", "idle")]]));
    expect(await deployer.deploy()).toBe(1);
    expect(made.map((a) => [a.credentials.unit, a.stopped])).toEqual([
      ["wordpress/0", true],
      ["wordpress/2", true],
    ]);
    expect(deployer.agents.size).toBe(0);
    expect(log.slice(2)).toEqual(["recalled and removed unit wordpress/2"]);
    expect(await units(model)).toEqual(["wordpress/0 ALIVE", "wordpress/1 ALIVE"]);
  });

  it("asks once for a Dead unit's removal: a pass before the stream shows it gone does not ask again", async () => {
    const { model, deployer, sent } = await scene();
    await mutate(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, { model, units: ["wordpress/2"] });
    await mutate(`mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name } }`, { model, unit: "wordpress/2" });
    deployer.unitsChanged(new Map([["wordpress/2", view("DEAD", "idle")]]));
    await deployer.deploy();
    expect(await deployer.deploy()).toBe(1); // still in its view, so still counted
    expect(sent.filter((name) => name === "RemoveDeadUnit")).toHaveLength(1);
    // Gone from its view, then back under the same name (never, in Juju; a restore, say): asked again.
    deployer.unitsChanged(new Map());
    await deployer.deploy();
    deployer.unitsChanged(new Map([["wordpress/2", view("DEAD", "idle")]]));
    await deployer.deploy();
    expect(sent.filter((name) => name === "RemoveDeadUnit")).toHaveLength(2);
  });

  it("drops an agent that fails to start, so that its next pass deploys it afresh", async () => {
    let fail = true;
    const { deployer, made } = await scene({ startFails: () => fail });
    deployer.unitsChanged(new Map([["wordpress/0", view("ALIVE")]]));
    await expect(deployer.deploy()).rejects.toThrow("the server is out of reach");
    expect([deployer.agents.size, made[0]!.stopped]).toEqual([0, true]);
    fail = false;
    await deployer.deploy();
    expect([...deployer.agents.keys()]).toEqual(["wordpress/0"]);
    expect(made.map((a) => a.started)).toEqual([false, true]);
  });

  it("stopAll stops every agent it runs and hands them back, to wait until they have finished", async () => {
    const { deployer } = await scene();
    deployer.unitsChanged(new Map([["wordpress/0", view("ALIVE")]]));
    await deployer.deploy();
    const stopped = deployer.stopAll();
    await Promise.all(stopped.map((a) => a.finished));
    expect([stopped.map((a) => a.stopped), deployer.agents.size]).toEqual([[true], 0]);
  });
});
