// A machine agent (Juju's machiner and deployer), with
// the credentials the provisioner handed its instance. Once its machine has an
// instance recorded (Juju's agent cannot even log in before SetProvisioned), it
// reports status `started`, so a started machine always shows its instance; then it
// deploys: an Alive principal assigned to its machine gets fresh
// credentials and its unit agent started; a non-Alive principal never deployed
// is set Dead and removed at once (no agent will ever run it); a Dead one is
// recalled (its agent stopped) and removed. A unit counts as deployed once its
// agent has reported (its agent status is no longer `allocating`): that state
// lives on the server, so a restarted machine agent redeploys exactly those.
// Once its machine is Dying with nothing left on it (no principals, no
// containers), it sets the machine Dead (its status `stopped` with it), and stops for good
// (its credentials stop working then). A JobManageModel machine (the model's
// machine 0, whose agent the controller runs) is never set Dead by its agent:
// it cannot become Dying, and goes only with its model.

import { tmpdir } from "node:os";
import { join } from "node:path";
import { MachineAgentDocument } from "../client/graphql.js";
import { type AgentConnection, ApiError, passesAgain } from "./connection.js";
import { type DeployedUnitView, Deployer } from "./deployer.js";
import { deadUnitRemovalCalls, machineDeadCalls, machineStatusCalls, unitCredentialsCalls } from "./gathered-calls.js";
import { HookRunner } from "./hooks/run-hook.js";
import { MachinesView } from "./machine-view.js";
import { SerialPasses } from "./serial.js";
import { UnitAgent } from "./unit-agent.js";
import type { HookRetryOptions } from "./uniter/retry.js";

export interface MachineAgentOptions {
  /** The machine's private address, which its units publish in their relations (a host knows its own; Juju's machiner reports it). */
  privateAddress?: string;
  /** Runs its units' hooks: one per process, shared by every agent in it; the agent makes its own when none is given. */
  runner?: HookRunner;
  /** Where its unit agents keep their charm directories (a cache of what the API holds); a temporary directory by default. */
  dataDir?: string;
  /** Its unit agents' retry of a failed hook, where the model allows it: the first wait, doubling up to the second (Juju: 5 s, 5 min). */
  hookRetry?: HookRetryOptions;
  log?: (line: string) => void;
}

/** What the provisioner hands an instance (the provider's userData). */
export interface MachineAgentCredentials {
  model: string;
  machine: string;
  tag: string;
  token: string;
}

export class MachineAgent {
  private readonly view = new MachinesView();
  /** The units on the machine (principals and their subordinates), from its machineUnits stream. */
  private readonly units = new Map<string, DeployedUnitView>();
  /** Its deployer: the principals assigned to its machine (deployer.ts). */
  private readonly deployer: Deployer<UnitAgent>;
  private readonly unsubscribe: (() => void)[] = [];
  private done = false;
  /** Set once it has reported `started`: before that it deploys nothing. */
  private started = false;
  private provisioned: () => void = () => {};
  private readonly passes: SerialPasses;
  private finish: () => void = () => {};
  /** Settles once the agent has stopped (its machine is Dead, or it was told to). */
  readonly finished = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  private readonly log: (line: string) => void;
  private readonly runner: HookRunner;
  private readonly ownsRunner: boolean;

  constructor(
    private readonly api: AgentConnection,
    readonly credentials: MachineAgentCredentials,
    options: MachineAgentOptions = {},
  ) {
    this.log = options.log ?? (() => {});
    this.runner = options.runner ?? new HookRunner();
    this.ownsRunner = !options.runner;
    // Once per machine agent: os.tmpdir() reads the environment, which cost a worker thread 70 µs a unit started.
    const dataDir = options.dataDir ?? join(tmpdir(), "lifeline-agents");
    this.passes = new SerialPasses(
      () => this.act(),
      (error) => this.log(`${credentials.tag}: ${String(error)}`),
      { retryable: passesAgain },
    );
    const { model, machine, tag, token } = credentials;
    this.deployer = new Deployer<UnitAgent>({
      model,
      tag,
      call: api.callerFor(token),
      credentialsFor: (unit) => api.gather(unitCredentialsCalls(api), model, { model, unit }, token),
      removeDead: (unit) => api.gather(deadUnitRemovalCalls(api), model, { model, unit }, token),
      // Subordinates are their principals' to deploy.
      responsibleFor: (_, unit) => unit.principal === null && unit.machineId === machine,
      noun: "unit",
      agentFor: (unit) =>
        new UnitAgent(api, unit, {
          privateAddress: options.privateAddress ?? "127.0.0.1",
          machineId: machine,
          runner: this.runner,
          dataDir,
          ...(options.hookRetry ? { hookRetry: options.hookRetry } : {}),
          log: this.log,
        }),
      stopped: () => this.done,
      log: this.log,
    });
  }

  /** The unit agents it runs, by unit. */
  get unitAgents(): ReadonlyMap<string, UnitAgent> {
    return this.deployer.agents;
  }

  /**
   * Subscribes to its machine and the units on it, waits until the machine has an instance (the manager machine, the
   * controller's own, needs none), and reports `started`. Rejects when its first stream fails before that (its
   * credentials refused, say); resolves without reporting when it is stopped first.
   */
  async start(): Promise<void> {
    const { model, machine, token, tag } = this.credentials;
    let refused: (error: Error) => void = () => {};
    const provisioned = new Promise<void>((resolve, reject) => {
      this.provisioned = resolve;
      refused = reject;
    });
    const failed = (error: Error) => {
      if (!this.started && !this.done) refused(error);
      if (!this.done) this.log(`${tag}: a stream ended: ${error.message}`);
    };
    // One stream (machineAgent): its own life, its instance and which containers it still holds, as Juju's machine agent
    // watches its machine; and the units on it, as Juju's deployer watches them.
    this.unsubscribe.push(
      this.api.subscribe(MachineAgentDocument, { model, machine }, token, {
        next: (data) => {
          const event = data.machineAgent;
          if (this.view.apply(event) || event.type === "BOOKMARK") {
            const own = this.view.machines.get(machine);
            if (this.view.synced && own && (own.instanceId !== null || own.jobs.includes("MANAGE_MODEL"))) this.provisioned();
          }
          const info = event.unit;
          if (event.entity && info) {
            if (event.removed) this.units.delete(event.entity);
            else {
              const before = this.units.get(event.entity);
              const has = (field: keyof typeof info) => event.changed.includes(field);
              this.units.set(event.entity, {
                life: event.life ?? before?.life ?? "ALIVE",
                machineId: has("machineId") ? info.machineId : (before?.machineId ?? null),
                principal: has("principalName") ? info.principalName : (before?.principal ?? null),
                agentStatus: has("agentStatus") ? (info.agentStatus?.current ?? "allocating") : (before?.agentStatus ?? "allocating"),
              });
            }
            // Principals' agents deploy their subordinates from the same view: no stream of their own for it.
            this.deployer.unitsChanged(this.units);
          }
          this.passes.poke();
        },
        failed,
      }),
    );
    await provisioned;
    if (this.done) return;
    await this.api.gather(machineStatusCalls(this.api), model, { model, machine, status: "STARTED" }, token);
    this.started = true;
    this.log(`${tag}: started`);
    this.passes.poke();
  }

  stop(): void {
    this.done = true;
    this.provisioned(); // a start still waiting returns without reporting
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    const unitAgents = this.deployer.stopAll();
    // The hook runner goes last: a unit agent still finishing a hook must not have its tools pulled from under it.
    void Promise.all([this.passes.stop(), ...unitAgents.map((agent) => agent.finished)])
      .then(() => (this.ownsRunner ? this.runner.close() : undefined))
      .then(this.finish);
  }

  /** A Dying machine with nothing left on it becomes Dead, and `stopped` with it (the API checks again: HAS_UNITS, HAS_CONTAINERS). */
  private async act(): Promise<void> {
    if (!this.started) return;
    const { model, machine, token, tag } = this.credentials;
    await this.deployer.deploy();
    const own = this.view.machines.get(machine);
    if (!this.view.synced || !own || own.life !== "DYING") return;
    // The model's manager: removeMachine refuses it, and it goes with its model (finishModel), never by its agent.
    if (own.jobs.includes("MANAGE_MODEL")) return;
    const occupied =
      [...this.units.values()].some((u) => u.machineId === machine) ||
      [...this.view.machines.keys()].some((id) => id.startsWith(`${machine}/`));
    if (occupied) return;
    try {
      // Dead, its status becomes `stopped` with it (one call where Juju's machiner makes two).
      await this.api.gather(machineDeadCalls(this.api), model, { model, machine }, token);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "HAS_UNITS" || error.code === "HAS_CONTAINERS")) return;
      throw error;
    }
    this.log(`${tag}: machine ${machine} is Dead; stopping for good`);
    this.stop();
  }
}
