// What `npm start` runs beside the API: for each Alive model, the agent of its
// machine 0 (JobManageModel and JobHostUnits, so it deploys units placed there
// like any machine agent) and its provisioner, both with machine 0's
// credentials; and a machine agent for every instance the (in-process, dummy)
// provider starts, or boots again after a restart (the cloud kept it in its file);
// and each model's cleaner.
// They are ordinary API clients, sharing one graphql-ws connection to the
// server, each operation sent with its own agent's credentials.
import type { DummyProvider } from "../provider/dummy.js";
import { Cleaner } from "./cleaner.js";
import { AgentConnection } from "./connection.js";
import { HookRunner } from "./hooks/run-hook.js";
import { MachineAgent, type MachineAgentCredentials, type MachineAgentOptions } from "./machine-agent.js";
import { Provisioner } from "./provisioner.js";
import type { HookRetryOptions } from "./uniter/retry.js";

export interface ControllerOptions {
  /** The API's url. */
  url: string;
  provider: DummyProvider;
  /** The models to provision now (called again every `pollMs`). */
  models: () => Promise<string[]>;
  /** Credentials of a model's JobManageModel machine's agent (machine 0), issued by the controller itself: its provisioner and machine agent use them. */
  provisionerToken: (model: string) => Promise<{ machine: string; token: string }>;
  pollMs?: number;
  startAttempts?: number;
  retryDelayMs?: number;
  /** How often each provisioner looks at the cloud with no change in its model. */
  cloudPollMs?: number;
  /** How often each model's cleaner runs with nothing waking it (Juju: 30 s). */
  cleanerIntervalMs?: number;
  /** The controller machine's private address, published by units placed on machine 0. */
  controllerAddress?: string;
  /** Where unit agents keep their charm directories; a temporary directory by default. */
  dataDir?: string;
  /** Unit agents' retry of a failed hook, where the model allows it (Juju: 5 s doubling to 5 min). */
  hookRetry?: HookRetryOptions;
  log?: (line: string) => void;
}

export class Controller {
  readonly api: AgentConnection;
  readonly provisioners = new Map<string, Provisioner>();
  readonly cleaners = new Map<string, Cleaner>();
  /** Each model's machine 0 agent, by model: the controller's own machine, which hosts units too. */
  readonly managerAgents = new Map<string, MachineAgent>();
  readonly machineAgents = new Map<string, MachineAgent>();
  /** Runs the hooks of every unit agent in the process. */
  private readonly runner = new HookRunner();
  private timer: NodeJS.Timeout | null = null;
  private readonly log: (line: string) => void;
  private readonly unhook: (() => void)[] = [];

  constructor(private readonly options: ControllerOptions) {
    this.api = new AgentConnection(options.url);
    this.log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    const { provider } = this.options;
    this.unhook.push(
      provider.onStarted(({ instance, userData }) => {
        // An instance without credentials runs no agent; one already running its agent needs no second.
        if (!userData || this.machineAgents.has(instance.id)) return;
        const credentials = JSON.parse(userData) as MachineAgentCredentials;
        const agent = new MachineAgent(this.api, credentials, this.agentOptions(instance.addresses[0] ?? "127.0.0.1"));
        this.machineAgents.set(instance.id, agent);
        agent.start().catch((error) => this.log(`${credentials.tag}: could not start: ${String(error)}`));
      }),
      provider.onStopped(({ instance }) => this.stopAgent(instance.id)),
      provider.onLost(({ instance }) => this.stopAgent(instance.id)),
    );
    // Instances the cloud kept from an earlier run come up again, before the provisioners look at them.
    provider.bootInstances();
    await this.refresh();
    this.timer = setInterval(() => void this.refresh().catch((e) => this.log(`controller: ${String(e)}`)), this.options.pollMs ?? 2000);
  }

  /** Every machine agent of the process shares one hook runner. */
  private agentOptions(privateAddress: string): MachineAgentOptions {
    const { dataDir, hookRetry } = this.options;
    return { privateAddress, runner: this.runner, log: this.log, ...(dataDir ? { dataDir } : {}), ...(hookRetry ? { hookRetry } : {}) };
  }

  private stopAgent(instanceId: string): void {
    this.machineAgents.get(instanceId)?.stop();
    this.machineAgents.delete(instanceId);
  }

  /** Starts machine 0's agent and the provisioner of each model that has none yet; stops those of models that are gone. */
  private async refresh(): Promise<void> {
    const models = new Set(await this.options.models());
    for (const [model, provisioner] of this.provisioners)
      if (!models.has(model)) {
        this.provisioners.delete(model);
        this.managerAgents.get(model)?.stop();
        this.managerAgents.delete(model);
        await Promise.all([provisioner.stop(), this.cleaners.get(model)?.stop()]);
        this.cleaners.delete(model);
      }
    for (const model of models) {
      if (this.provisioners.has(model)) continue;
      // One model's trouble (its provisioner's credentials taken over, say) must not keep the others, or the server, from starting.
      await this.startModelAgents(model).catch((error) =>
        this.log(`controller: provisioner of model ${model}: ${String(error)}; retrying`),
      );
    }
  }

  private async startModelAgents(model: string): Promise<void> {
    const { machine, token } = await this.options.provisionerToken(model);
    const provisioner = new Provisioner(this.api, {
      model,
      token,
      provider: this.options.provider,
      userData: (id, agent) => JSON.stringify({ model, machine: id, ...agent } satisfies MachineAgentCredentials),
      log: this.log,
      ...(this.options.startAttempts ? { startAttempts: this.options.startAttempts } : {}),
      ...(this.options.retryDelayMs !== undefined ? { retryDelayMs: this.options.retryDelayMs } : {}),
      ...(this.options.cloudPollMs !== undefined ? { cloudPollMs: this.options.cloudPollMs } : {}),
    });
    // The controller's own machine runs both agents, as Juju's machine 0 runs its provisioner and its deployer.
    // Starting its machine agent reports the machine `started`; units placed on it are deployed like anywhere else.
    const manager = new MachineAgent(
      this.api,
      { model, machine, tag: `machine-${machine.replaceAll("/", "-")}`, token },
      this.agentOptions(this.options.controllerAddress ?? "127.0.0.1"),
    );
    try {
      await manager.start();
    } catch (error) {
      manager.stop();
      throw error;
    }
    this.managerAgents.set(model, manager);
    this.provisioners.set(model, provisioner);
    provisioner.start();
    // The cleaner runs on the manager machine too, with its credentials (Juju's cleaner is a worker of the controller).
    const cleaner = new Cleaner(this.api, {
      model,
      token,
      log: this.log,
      ...(this.options.cleanerIntervalMs !== undefined ? { intervalMs: this.options.cleanerIntervalMs } : {}),
    });
    this.cleaners.set(model, cleaner);
    cleaner.start();
    this.log(`controller: provisioner of model ${model} started (machine-${machine})`);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const unhook of this.unhook) unhook();
    const machineAgents = [...this.machineAgents.values(), ...this.managerAgents.values()];
    for (const agent of machineAgents) agent.stop();
    await Promise.all([...this.provisioners.values(), ...this.cleaners.values()].map((agent) => agent.stop()));
    // Hooks still running finish (uncommitted: they run again after a restart) before their tools go away.
    await Promise.all(machineAgents.map((agent) => agent.finished));
    await this.runner.close();
    await this.api.close();
  }
}
