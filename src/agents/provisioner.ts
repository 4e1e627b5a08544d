// The provisioner (Juju's worker/provisioner): the
// agent of a model's JobManageModel machine. It watches the model's machines
// through the `changes` stream and reconciles the provider with them:
// - an Alive machine without an instance gets one, started with the machine's
//   own series and constraints and the machine agent's fresh credentials; the
//   instance id is recorded once (setMachineProvisioned);
// - a start that keeps failing (bounded tries) leaves the machine in status
//   `error` with the provider's message, until someone runs resolveMachine;
// - a Dying machine that never got an instance is set Dead and removed;
// - a Dead machine's instance is stopped, then the machine removed;
// - instances no machine owns are stopped (Juju's harvest mode "destroyed").
// A change to a machine is acted on for that machine alone; every machine and the
// cloud's instance list are walked on the cloud poll (and after a resubscription),
// so a pass costs what changed, not the size of the model (at 3,000 machines, a
// full walk per change was a tenth of the server's CPU).
// Everything it knows comes from the stream and the provider, so a provisioner
// killed at any point and started again picks up where things stand: a start
// whose recording was lost leaves a stray instance, which is harvested, and the
// machine is provisioned again.
import {
  ChangesDocument,
  IssueMachineCredentialsDocument,
  IssueMachinesCredentialsDocument,
  RecordStartFailureDocument,
  RemoveDeadMachineDocument,
  RemoveDeadMachinesDocument,
  SetMachineDeadDocument,
  SetMachineProvisionedDocument,
  SetMachineStatusDocument,
  SetMachinesProvisionedDocument,
} from "../client/graphql.js";
import { type Instance, type Provider, ProviderError } from "../provider/provider.js";
import { Batch } from "./batch.js";
import { type AgentConnection, ApiError, passesAgain } from "./connection.js";
import { MachinesView, type MachineView } from "./machine-view.js";
import { SerialPasses } from "./serial.js";

export interface ProvisionerOptions {
  model: string;
  /** The provisioner's own credentials: those of the model's JobManageModel machine agent. */
  token: string;
  provider: Provider;
  /** Tries of a start that fails transiently before the machine is put in error (Juju: 10). */
  startAttempts?: number;
  /** The wait between those tries (Juju: 10 s). */
  retryDelayMs?: number;
  /** How often it looks at the cloud with no change in the model (lost instances raise no event; Juju polls too). */
  cloudPollMs?: number;
  /** What the provider hands the instance: the machine agent's credentials and where to find the API. */
  userData: (machine: string, agent: { tag: string; token: string }) => string;
  log?: (line: string) => void;
}

/** Machines in one bulk call: the server's limit (MAX_MACHINES_A_CALL). */
const MACHINES_A_CALL = 100;

/** A start the provisioner is busy with (credentials, provider, recording): the harvest leaves its instance alone. */
type InFlight = Set<string>;

export class Provisioner {
  private readonly view = new MachinesView();
  private readonly inFlight: InFlight = new Set();
  /** Machines changed since the last pass; `everything` asks the next pass to walk all machines and the cloud. */
  private dirty = new Set<string>();
  private everything = true;
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly log: (line: string) => void;
  private readonly passes: SerialPasses;
  /** The credentials of the machines a pass starts, issued in one call (as Juju's SetPasswords). */
  private readonly credentials: Batch<string, { tag: string; token: string }>;
  /** The instances started in one turn, recorded in one call (as Juju's SetInstanceInfo). */
  private readonly recordings: Batch<{ machine: string; instanceId: string }, { id: string; instanceId: string | null }>;
  /** The Dead machines of a pass, removed in one call. */
  private readonly removals: Batch<string, boolean>;
  /**
   * Machines it removed that its view still shows: the stream's removal comes after the call's answer, and a pass run
   * between the two asked again, refused (NOT_FOUND) and with it the whole bulk call its neighbours were in.
   */
  private readonly removed = new Set<string>();

  constructor(
    private readonly api: AgentConnection,
    private readonly options: ProvisionerOptions,
  ) {
    this.log = options.log ?? (() => {});
    const { model, token } = options;
    this.credentials = new Batch(
      async (machines) =>
        (await api.request(IssueMachinesCredentialsDocument, { input: { model, machines } }, token)).issueMachinesCredentials,
      async (machine) => (await api.request(IssueMachineCredentialsDocument, { input: { model, machine } }, token)).issueMachineCredentials,
      MACHINES_A_CALL,
    );
    this.recordings = new Batch(
      async (machines) => (await api.request(SetMachinesProvisionedDocument, { input: { model, machines } }, token)).setMachinesProvisioned,
      async (machine) => (await api.request(SetMachineProvisionedDocument, { input: { model, ...machine } }, token)).setMachineProvisioned,
      MACHINES_A_CALL,
    );
    this.removals = new Batch(
      async (machines) => (await api.request(RemoveDeadMachinesDocument, { input: { model, machines } }, token)).removeDeadMachines,
      async (machine) => (await api.request(RemoveDeadMachineDocument, { input: { model, machine } }, token)).removeDeadMachine,
      MACHINES_A_CALL,
    );
    this.passes = new SerialPasses(
      () => this.reconcile(),
      (error) => this.log(`provisioner of ${this.options.model}: ${String(error)}`),
      { retryable: passesAgain },
    );
  }

  start(): void {
    this.unsubscribe = this.api.subscribe(ChangesDocument, { model: this.options.model, kinds: ["MACHINE"] }, this.options.token, {
      next: (data) => {
        const event = data.changes;
        const resynced = event.type === "BOOKMARK";
        if (!this.view.apply(event)) return;
        if (resynced) this.everything = true;
        else if (event.entity) this.dirty.add(event.entity);
        this.passes.poke();
      },
      failed: (error) => this.log(`provisioner of ${this.options.model}: the machines stream ended: ${error.message}`),
    });
    this.timer = setInterval(() => {
      if (!this.view.synced) return;
      this.everything = true;
      this.passes.poke();
    }, this.options.cloudPollMs ?? 5000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    await this.passes.stop();
  }

  private async reconcile(): Promise<void> {
    const everything = this.everything;
    const ids = everything ? [...this.view.machines.keys()] : [...this.dirty];
    this.everything = false;
    this.dirty = new Set();
    // Only a full walk looks at the cloud: lost and stray instances raise no machine change.
    const instances = everything ? new Map((await this.options.provider.listInstances()).map((i) => [i.id, i])) : null;
    for (const id of this.removed) if (!this.view.machines.has(id)) this.removed.delete(id);
    const dead: MachineView[] = [];
    for (const id of ids) {
      if (this.stopped) return;
      // As it stands now: a start finished during this pass may have recorded an instance.
      const machine = this.view.machines.get(id);
      if (!machine) continue;
      // The controller's own machines were provisioned at bootstrap.
      if (machine.jobs.includes("MANAGE_MODEL") || this.inFlight.has(machine.id)) continue;
      if (machine.life === "ALIVE" && machine.instanceId === null && machine.status !== "error") void this.provision(machine);
      else if (machine.life === "ALIVE" && machine.instanceId !== null && machine.status !== "error")
        await this.checkInstance(machine, instances?.get(machine.instanceId)?.status);
      else if (machine.life === "DYING" && machine.instanceId === null) await this.removeUnprovisioned(machine);
      else if (machine.life === "DEAD" && !this.removed.has(machine.id)) dead.push(machine);
    }
    if (dead.length) await this.release(dead);
    if (instances) await this.harvest([...instances.values()]);
  }

  /** Asks for a pass over `machine` (after a start of it ended, whichever way). */
  private revisit(machine: string): void {
    this.dirty.add(machine);
    this.passes.poke();
  }

  /**
   * An instance whose hardware failed leaves its machine in error until someone acts. (An instance
   * missing from the list is not taken as gone: it may have started after the list was read.)
   */
  private async checkInstance(machine: MachineView, status: string | undefined): Promise<void> {
    if (status !== "lost") return;
    const { model, token } = this.options;
    const message = `instance ${machine.instanceId} was lost (its hardware failed): resolveMachine starts a new one, or remove the machine with force`;
    await this.api.request(SetMachineStatusDocument, { input: { model, machine: machine.id, status: "ERROR", message } }, token);
    this.view.recorded(machine.id, { status: "error" });
    this.log(`provisioner of ${model}: machine ${machine.id}: ${message}`);
  }

  private async provision(machine: MachineView): Promise<void> {
    const { model, token, provider } = this.options;
    this.inFlight.add(machine.id);
    try {
      const agent = await this.credentials.add(machine.id);
      const attempts = this.options.startAttempts ?? 10;
      for (let attempt = 1; ; attempt++) {
        try {
          const instance = await provider.startInstance({
            model,
            machineId: machine.id,
            series: machine.series,
            constraints: machine.constraints,
            userData: this.options.userData(machine.id, agent),
          });
          await this.record(machine, instance.id);
          return;
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          const retryDelayMs = this.options.retryDelayMs ?? 10_000;
          const giveUp = !error.transient || attempt >= attempts;
          // Every failed attempt is recorded, the last as the machine's error: "no further attempts" can be read.
          await this.api.request(
            RecordStartFailureDocument,
            { input: { model, machine: machine.id, message: error.message, retryInMs: giveUp ? null : retryDelayMs } },
            token,
          );
          if (giveUp) {
            this.log(`provisioner of ${model}: machine ${machine.id} cannot be provisioned (attempt ${attempt}): ${error.message}`);
            this.view.recorded(machine.id, { status: "error" });
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        }
      }
    } catch (error) {
      this.log(`provisioner of ${model}: machine ${machine.id}: ${String(error)}`);
    } finally {
      this.inFlight.delete(machine.id);
      this.revisit(machine.id);
    }
  }

  /** Records the instance once; if the machine no longer wants it (no longer Alive, or already recorded), it is stopped. */
  private async record(machine: MachineView, instanceId: string): Promise<void> {
    const { model, provider } = this.options;
    try {
      await this.recordings.add({ machine: machine.id, instanceId });
      // Known now, before the stream brings it back: the next pass must not start another.
      this.view.recorded(machine.id, { instanceId });
      this.log(`provisioner of ${model}: machine ${machine.id} is instance ${instanceId}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await provider.stopInstances([instanceId]);
      this.log(`provisioner of ${model}: stopped instance ${instanceId}: machine ${machine.id} refused it (${error.code})`);
    }
  }

  /** Seed 004's open question, answered as Juju does: a Dying machine that never got an instance has no agent to finish it. */
  private async removeUnprovisioned(machine: MachineView): Promise<void> {
    const { model, token } = this.options;
    try {
      await this.api.request(SetMachineDeadDocument, { input: { model, machine: machine.id } }, token);
      await this.api.request(RemoveDeadMachineDocument, { input: { model, machine: machine.id } }, token);
      this.log(`provisioner of ${model}: removed machine ${machine.id}, which never had an instance`);
    } catch (error) {
      // Units or containers still on it: the cloud poll's walk brings it back here.
      if (!(error instanceof ApiError)) throw error;
    }
  }

  /**
   * A pass's Dead machines: their instances stopped (one call to the cloud), then the machines removed (bulk calls),
   * as Juju's provisioner task stops a pass's instances together before it removes their machines.
   */
  private async release(machines: readonly MachineView[]): Promise<void> {
    const { model, provider } = this.options;
    const instances = machines.flatMap((m) => (m.instanceId === null ? [] : [m.instanceId]));
    if (instances.length) await provider.stopInstances(instances);
    await Promise.all(
      machines.map(async (machine) => {
        try {
          await this.removals.add(machine.id);
          this.removed.add(machine.id);
          this.log(`provisioner of ${model}: stopped ${machine.instanceId ?? "no instance"} and removed machine ${machine.id}`);
        } catch (error) {
          if (!(error instanceof ApiError && error.code === "NOT_FOUND")) throw error;
          this.removed.add(machine.id); // gone already: by another provisioner, or before a restart
        }
      }),
    );
  }

  /** Stops instances no machine owns (a start whose recording was lost, or a machine removed behind its back). */
  private async harvest(instances: Instance[]): Promise<void> {
    const { model, provider } = this.options;
    const owned = new Set([...this.view.machines.values()].map((m) => m.instanceId).filter((id) => id !== null));
    const strays = instances.filter((i) => i.model === model && !owned.has(i.id) && !this.inFlight.has(i.machineId));
    if (!strays.length) return;
    await provider.stopInstances(strays.map((i) => i.id));
    for (const stray of strays) this.log(`provisioner of ${model}: stopped stray instance ${stray.id} (machine ${stray.machineId})`);
  }
}
