// The deployer (Juju's worker/deployer; "Lifecycles"): for
// the units it is responsible for (a machine agent: the principals on its
// machine; a principal's unit agent: its subordinates, which run beside it), an
// Alive unit gets fresh credentials and its unit agent started; a non-Alive unit
// never deployed is set Dead and removed at once (no agent will ever run it); a
// Dead one is recalled (its agent stopped) and removed; an agent whose unit has
// left the view is recalled. A unit counts as deployed once its agent has
// reported (its agent status is no longer `allocating`): that lives on the
// server, so a restarted deployer redeploys exactly those.
import { RemoveDeadUnitDocument, SetUnitDeadDocument, type UnitAgentStartupFieldsFragment } from "../client/graphql.js";
import { ApiError, type Call } from "./connection.js";
import type { IssuedUnitCredentials } from "./gathered-calls.js";

/** A unit as its deployer sees it (from the machine's machineUnits stream). */
export interface DeployedUnitView {
  life: string;
  machineId: string | null;
  principal: string | null;
  agentStatus: string;
}

export interface UnitAgentCredentials {
  model: string;
  unit: string;
  tag: string;
  token: string;
  /** What the agent starts from, read with its credentials; without it, the agent reads it itself (UnitAgentState). */
  startup?: UnitAgentStartupFieldsFragment;
}

/** A unit agent as its deployer runs it. */
export interface DeployedAgent {
  readonly credentials: UnitAgentCredentials;
  /** The deployer's view of the units on the machine changed (a principal deploys its subordinates from it). */
  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void;
  start(): Promise<void>;
  stop(): void;
  /** Settles once the agent has stopped. */
  readonly finished: Promise<void>;
}

export interface DeployerConfig<A extends DeployedAgent> {
  model: string;
  /** The deploying agent's tag, in its log lines. */
  tag: string;
  /** Sends an operation as the deploying agent. */
  call: Call;
  /** Asks, as the deploying agent, for a unit's agent's credentials (gathered with other deployers': gathered-calls.ts). */
  credentialsFor: (unit: string) => Promise<IssuedUnitCredentials>;
  /** Removes, as the deploying agent, a Dead unit it deployed (gathered with other deployers' removals). */
  removeDead: (unit: string) => Promise<void>;
  /** The units it deploys, of those on the machine. */
  responsibleFor: (name: string, unit: DeployedUnitView) => boolean;
  /** What its log lines call them ("unit", "subordinate"). */
  noun: string;
  /** A new agent for a unit, with the credentials just issued for it. */
  agentFor: (credentials: UnitAgentCredentials) => A;
  /** True once the deploying agent has been stopped. */
  stopped: () => boolean;
  log: (line: string) => void;
}

export class Deployer<A extends DeployedAgent> {
  /** The agents it deployed, by unit. */
  readonly agents = new Map<string, A>();
  /** The units on the machine, from the deploying agent's view. */
  private units: ReadonlyMap<string, DeployedUnitView> = new Map();
  /**
   * Units it removed that its view still shows: the stream's removal comes after the call's answer, and a pass run
   * between the two would ask again for a unit already gone (refused, since nothing of it is left to deploy).
   */
  private readonly removed = new Set<string>();

  constructor(private readonly config: DeployerConfig<A>) {}

  /** The view of the units on the machine changed: the agents it runs hear of it too. */
  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void {
    this.units = units;
    for (const agent of this.agents.values()) agent.unitsChanged(units);
  }

  /** One pass over the units it is responsible for; returns how many of them remain (deployed or not). */
  async deploy(): Promise<number> {
    const { model, tag, call, noun, log } = this.config;
    for (const [name, agent] of this.agents)
      if (!this.units.has(name)) {
        agent.stop(); // removed behind its back, or no longer assigned here: recalled
        this.agents.delete(name);
      }
    for (const name of this.removed) if (!this.units.has(name)) this.removed.delete(name);
    let remaining = 0;
    for (const [name, unit] of this.units) {
      if (!this.config.responsibleFor(name, unit)) continue;
      remaining++;
      if (this.removed.has(name)) continue;
      const deployed = this.agents.has(name) || unit.agentStatus !== "allocating";
      try {
        if (unit.life === "DEAD") {
          this.agents.get(name)?.stop();
          this.agents.delete(name);
          await this.config.removeDead(name);
          this.removed.add(name);
          log(`${tag}: recalled and removed ${noun} ${name}`);
        } else if (!deployed && unit.life !== "ALIVE") {
          // Never deployed: no agent will ever run it, so it goes at once.
          await call(SetUnitDeadDocument, { input: { model, unit: name } });
          await call(RemoveDeadUnitDocument, { input: { model, unit: name } });
          this.removed.add(name);
          log(`${tag}: removed ${noun} ${name}, which was never deployed`);
        } else if (!this.agents.has(name)) {
          const credentials = await this.config.credentialsFor(name);
          if (this.config.stopped()) return remaining; // stopped meanwhile: whoever deploys next issues credentials again
          await this.run(this.config.agentFor({ model, unit: name, ...credentials }));
          log(`${tag}: deployed ${noun} ${name}`);
        }
      } catch (error) {
        // In scope, subordinates left, already gone: the next event brings it back here.
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return remaining;
  }

  /** Stops every agent it runs (recalled, or the process is stopping); returns them, to wait until they have finished. */
  stopAll(): A[] {
    const agents = [...this.agents.values()];
    for (const agent of agents) agent.stop();
    this.agents.clear();
    return agents;
  }

  /**
   * Starts a deployed unit's agent, kept in `agents`: one that fails to start (the server unreachable, say) is dropped
   * again, so the next pass deploys it afresh instead of keeping a dead agent.
   */
  private async run(agent: A): Promise<void> {
    this.agents.set(agent.credentials.unit, agent);
    agent.unitsChanged(this.units);
    try {
      await agent.start();
    } catch (error) {
      this.agents.delete(agent.credentials.unit);
      agent.stop();
      throw error;
    }
  }
}
