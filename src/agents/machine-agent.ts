// A machine agent (Juju's machiner, ../shared/JUJU-AGENTS.md), with the
// credentials the provisioner handed its instance. It reports status `started`;
// once its machine is Dying and nothing is left on it (no principals, no
// containers), it reports `stopped`, sets the machine Dead, and stops for good
// (its credentials stop working then). The deployer side (starting unit agents)
// is not built yet: see the README's "Agents" section.
import { ChangesDocument, MachineUnitsDocument, SetMachineDeadDocument, SetMachineStatusDocument } from "../client/graphql.js";
import { type AgentConnection, ApiError } from "./connection.js";
import { MachinesView } from "./machine-view.js";
import { SerialPasses } from "./serial.js";

/** What the provisioner hands an instance (the provider's userData). */
export interface MachineAgentCredentials {
  model: string;
  machine: string;
  tag: string;
  token: string;
}

export class MachineAgent {
  private readonly view = new MachinesView();
  /** Principal units and the machine each is assigned to. */
  private readonly units = new Map<string, string | null>();
  private readonly unsubscribe: (() => void)[] = [];
  private done = false;
  private readonly passes: SerialPasses;

  constructor(
    private readonly api: AgentConnection,
    readonly credentials: MachineAgentCredentials,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.passes = new SerialPasses(
      () => this.act(),
      (error) => this.log(`${credentials.tag}: ${String(error)}`),
    );
  }

  async start(): Promise<void> {
    const { model, machine, token, tag } = this.credentials;
    await this.api.request(SetMachineStatusDocument, { input: { model, machine, status: "STARTED" } }, token);
    this.log(`${tag}: started`);
    const failed = (error: Error) => {
      if (!this.done) this.log(`${tag}: a stream ended: ${error.message}`);
    };
    // The model's machines: its own life, and which containers it still holds.
    this.unsubscribe.push(
      this.api.subscribe(ChangesDocument, { model, kinds: ["MACHINE"] }, token, {
        next: (data) => {
          if (this.view.apply(data.changes) || data.changes.type === "BOOKMARK") this.passes.poke();
        },
        failed,
      }),
    );
    // The units on it (Juju's deployer watches the same).
    this.unsubscribe.push(
      this.api.subscribe(MachineUnitsDocument, { model, machine }, token, {
        next: (data) => {
          const event = data.machineUnits;
          if (!event.entity) return;
          if (event.removed) this.units.delete(event.entity);
          else if (Object.hasOwn(event.fields, "machineId")) this.units.set(event.entity, event.fields.machineId as string | null);
          this.passes.poke();
        },
        failed,
      }),
    );
  }

  stop(): void {
    this.done = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    void this.passes.stop();
  }

  /** A Dying machine with nothing left on it reports `stopped` and becomes Dead (the API checks again: HAS_UNITS, HAS_CONTAINERS). */
  private async act(): Promise<void> {
    const { model, machine, token, tag } = this.credentials;
    const own = this.view.machines.get(machine);
    if (!this.view.synced || !own || own.life !== "DYING") return;
    const occupied =
      [...this.units.values()].includes(machine) || [...this.view.machines.keys()].some((id) => id.startsWith(`${machine}/`));
    if (occupied) return;
    await this.api.request(SetMachineStatusDocument, { input: { model, machine, status: "STOPPED" } }, token);
    try {
      await this.api.request(SetMachineDeadDocument, { input: { model, machine } }, token);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "HAS_UNITS" || error.code === "HAS_CONTAINERS")) return;
      throw error;
    }
    this.log(`${tag}: machine ${machine} is Dead; stopping for good`);
    this.stop();
  }
}
