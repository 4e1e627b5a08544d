// A cloud, as a provisioner sees it: Juju's provider ("environ") interface
// reduced to starting, stopping and listing instances. Nothing here knows the
// model; a provider is handed constraints and a machine id, and answers with
// instances or a ProviderError that says whether retrying could help.
import type { Constraints } from "../core/constraints.js";

/** Juju's constraints, in the shape the model keeps them. A key absent or empty (0, "", []) is no constraint. */
export type InstanceConstraints = Constraints;

/** What a provisioner asks for: one instance for one machine. */
export interface StartInstanceParams {
  /** The model the instance is for: one cloud serves several models, and each provisioner harvests only its own (Juju tags instances with the model's uuid). */
  model: string;
  /** The model's machine id, recorded on the instance so instances can be matched back to machines. */
  machineId: string;
  series: string;
  constraints: InstanceConstraints;
  /** Opaque data the provider hands to whatever runs on the instance (the machine agent's credentials). */
  userData?: string;
}

/** What the cloud actually gave, which may exceed what was asked; sizes in MiB. */
export interface InstanceHardware {
  arch: string;
  cores: number;
  cpuPower: number;
  mem: number;
  rootDisk: number;
  instanceType: string;
  zone: string;
  tags: string[];
}

/** Lost is a cloud's word for an instance whose hardware failed: it still exists until stopped. */
export type InstanceStatus = "running" | "stopped" | "lost";

/** A started instance, as the provider reports it. */
export interface Instance {
  /** The provider's id, never reused, so a stale id can never name a new instance. */
  id: string;
  model: string;
  machineId: string;
  series: string;
  hardware: InstanceHardware;
  /** Private address first, then public. */
  addresses: string[];
  status: InstanceStatus;
}

/** The operations a provisioner needs from a cloud. */
export interface Provider {
  /** Names the provider in logs and status. */
  readonly name: string;
  /** Starts one instance; rejects with a ProviderError. */
  startInstance(params: StartInstanceParams): Promise<Instance>;
  /** Idempotent: unknown or already stopped ids are fine, so a retried stop never fails. */
  stopInstances(ids: readonly string[]): Promise<void>;
  /** Every instance not stopped (running or lost), so a provisioner can find instances it no longer wants. */
  listInstances(): Promise<Instance[]>;
}

/** A cloud's refusal; `transient` says whether the same request may succeed later (a capacity error) or never will (a bad constraint). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
