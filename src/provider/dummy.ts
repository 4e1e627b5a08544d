// Lifeline's built-in cloud, for tests and demos: instances in memory, and
// optionally in a file (dummy-state.ts) so the cloud outlives the process that
// runs it. Ids, zones and addresses are derived from counters, never from time
// or randomness, so a test can predict them. Faults (capacity errors, refused
// constraints, failed hardware) are injected through plain methods, and hooks
// let the server run an in-process machine agent for each instance.

import {
  DefaultFailureMessage,
  type DummyChange,
  type DummyState,
  DummyStateError,
  DummyStateFile,
  type StoredInstance,
} from "./dummy-state.js";
import {
  allowedZones,
  DummyInstanceTypes,
  DummyZones,
  type InstanceType,
  matchInstanceType,
  parseRefusalRule,
  type RefusalRule,
  refusedBy,
} from "./instance-types.js";
import { type Instance, type Provider, ProviderError, type StartInstanceParams } from "./provider.js";

/**
 * What onStarted listeners get: userData travels only here, since it holds the agent's credentials and no listing may show it.
 * It fires when an instance starts, and again when bootInstances boots an instance the cloud kept in its file.
 */
export interface InstanceStarted {
  instance: Instance;
  userData: string | undefined;
}

/** What onStopped and onLost listeners get. */
export interface InstanceChanged {
  instance: Instance;
}

/** An admin's view of the dummy cloud: what it offers, what runs, and which faults are armed. */
export interface DummyDescription {
  name: string;
  instanceTypes: readonly InstanceType[];
  zones: readonly string[];
  /** Running and lost instances, oldest first. */
  instances: Instance[];
  /** Starts still to fail transiently, and with what message. */
  failingStarts: number;
  failureMessage: string;
  /** The refusal rule in force, or null. */
  refusing: string | null;
}

export { DefaultFailureMessage };

/**
 * A typed listener list. A throwing listener neither stops the others nor fails
 * the operation that has already happened; its error is rethrown on its own, as
 * an EventTarget reports a listener's error, so a bug in a hook is still loud.
 */
class Hook<E> {
  readonly #listeners = new Set<(event: E) => void>();

  add(listener: (event: E) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: E): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

/** Callers get copies, so nothing outside can change an instance behind the provider's back. */
const copy = (instance: Instance): Instance => ({
  ...instance,
  hardware: { ...instance.hardware, tags: [...instance.hardware.tags] },
  addresses: [...instance.addresses],
});

/** The IPv4 documentation blocks (RFC 5737): public-looking addresses that can never reach a real host. */
const publicBlocks = ["203.0.113", "198.51.100", "192.0.2"] as const;

/** Instance n's private address: host n+1 of 10.0.0.0/8, unique for the first 16 million instances. */
const privateAddress = (n: number) => `10.${((n + 1) >> 16) & 255}.${((n + 1) >> 8) & 255}.${(n + 1) & 255}`;

/** Instance n's public address: hosts .1 to .254 of each documentation block in turn; repeats only after 762 instances. */
function publicAddress(n: number): string {
  const slot = n % (publicBlocks.length * 254);
  return `${publicBlocks[Math.floor(slot / 254)]}.${(slot % 254) + 1}`;
}

export interface DummyOptions {
  /**
   * Where the cloud keeps its state (instances with their userData, counters,
   * armed faults), read when it is made; each change is appended to a journal
   * beside it (`${stateFile}.journal`). Without it the cloud lives in memory only.
   */
  stateFile?: string;
}

/** The dummy cloud. */
export class DummyProvider implements Provider {
  readonly name = "dummy";

  readonly #instances = new Map<string, Instance>();
  /** Kept for bootInstances, never listed. */
  readonly #userData = new Map<string, string | undefined>();
  /** Instance numbers are never reused, so neither are ids. */
  #nextNumber = 0;
  /** Index in DummyZones of the last zone used: the next start takes the next allowed zone after it. */
  #lastZone = -1;
  #failingStarts = 0;
  #failureMessage = DefaultFailureMessage;
  #refusal: RefusalRule | null = null;

  readonly #started = new Hook<InstanceStarted>();
  readonly #stopped = new Hook<InstanceChanged>();
  readonly #lost = new Hook<InstanceChanged>();
  /** The files the state is kept in; null in memory, or once closed. */
  #file: DummyStateFile | null;

  /** Reads the state file when there is one; a file that cannot be used is refused (DummyStateError), never overwritten. */
  constructor(options: DummyOptions = {}) {
    this.#file = options.stateFile === undefined ? null : new DummyStateFile(options.stateFile);
    const state = this.#file?.read() ?? null;
    if (state) this.#restore(state, this.#file!);
  }

  /**
   * Checks in the order a cloud would: constraints against the catalog, then
   * the refusal rule (both permanent), then an injected capacity error
   * (transient). Only a start that would otherwise succeed uses up an injected
   * failure, so failNextStarts(n) means n capacity errors.
   */
  async startInstance(params: StartInstanceParams): Promise<Instance> {
    const type = matchInstanceType(params.constraints);
    const zones = allowedZones(params.constraints);
    if (this.#refusal) {
      const matched = refusedBy(this.#refusal, params.constraints);
      if (matched !== null)
        throw new ProviderError(`the dummy provider refuses starts asking for ${this.#refusal.text}; this one asks for ${matched}`, false);
    }
    if (this.#failingStarts > 0) {
      this.#failingStarts--;
      this.#recordFaults();
      throw new ProviderError(this.#failureMessage, true);
    }
    const zone = this.#nextZone(zones);
    const n = this.#nextNumber++;
    const instance: Instance = {
      id: `dummy-${n}`,
      model: params.model,
      machineId: params.machineId,
      series: params.series,
      hardware: {
        arch: type.arch,
        cores: type.cores,
        cpuPower: type.cpuPower,
        mem: type.mem,
        rootDisk: type.rootDisk,
        instanceType: type.name,
        zone,
        tags: [...type.tags],
      },
      addresses: [privateAddress(n), publicAddress(n)],
      status: "running",
    };
    this.#instances.set(instance.id, instance);
    this.#userData.set(instance.id, params.userData);
    this.#record([{ change: "started", instance, userData: params.userData, nextNumber: this.#nextNumber, lastZone: this.#lastZone }]);
    this.#started.emit({ instance: copy(instance), userData: params.userData });
    return copy(instance);
  }

  /** Round-robin over all zones, skipping those not allowed, so instances spread across the cloud. */
  #nextZone(allowed: readonly string[]): string {
    for (let step = 1; step <= DummyZones.length; step++) {
      const index = (this.#lastZone + step) % DummyZones.length;
      const zone = DummyZones[index]!;
      if (allowed.includes(zone)) {
        this.#lastZone = index;
        return zone;
      }
    }
    throw new ProviderError(`no zone of ${DummyZones.join(", ")} is allowed`, false); // allowedZones already refused this
  }

  /** Stopped instances are forgotten (their ids stay used); each stop fires onStopped once, lost instances included. */
  async stopInstances(ids: readonly string[]): Promise<void> {
    const stopped: Instance[] = [];
    for (const id of ids) {
      const instance = this.#instances.get(id);
      if (!instance) continue;
      this.#instances.delete(id);
      this.#userData.delete(id);
      instance.status = "stopped";
      stopped.push(instance);
    }
    // The whole batch in one append, before the first onStopped.
    this.#record(stopped.map(({ id }) => ({ change: "stopped", id })));
    for (const instance of stopped) this.#stopped.emit({ instance: copy(instance) });
  }

  async listInstances(): Promise<Instance[]> {
    return [...this.#instances.values()].map(copy);
  }

  /** Runs after an instance starts, with the userData it was started with (the server starts a machine agent here). */
  onStarted(listener: (event: InstanceStarted) => void): () => void {
    return this.#started.add(listener);
  }

  /** Runs after an instance is stopped (the server stops its agent here). */
  onStopped(listener: (event: InstanceChanged) => void): () => void {
    return this.#stopped.add(listener);
  }

  /** Runs when an instance's hardware fails; the instance stays listed as lost until stopped. */
  onLost(listener: (event: InstanceChanged) => void): () => void {
    return this.#lost.add(listener);
  }

  /** The next `count` starts fail transiently with `message`, like a cloud out of capacity; replaces any earlier count (0 disarms). */
  failNextStarts(count: number, message: string = DefaultFailureMessage): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`failNextStarts: expected a whole number of starts, got ${count}`);
    this.#failingStarts = count;
    this.#failureMessage = message;
    this.#recordFaults();
  }

  /** While set, starts asking for what the rule names fail permanently (see RefusalRule); null clears it. */
  refuseConstraints(text: string | null): void {
    this.#refusal = text === null ? null : parseRefusalRule(text);
    this.#recordFaults();
  }

  /** The instance's hardware fails: it is listed as lost and onLost fires; losing a lost instance again does nothing. */
  loseInstance(id: string): Instance {
    const instance = this.#instances.get(id);
    if (!instance) throw new RangeError(`loseInstance: no instance "${id}" (stopped or never started)`);
    if (instance.status !== "lost") {
      instance.status = "lost";
      this.#record([{ change: "lost", id }]);
      this.#lost.emit({ instance: copy(instance) });
    }
    return copy(instance);
  }

  /** For an admin query: the catalog, the instances, and the armed faults. */
  describe(): DummyDescription {
    return {
      name: this.name,
      instanceTypes: DummyInstanceTypes,
      zones: DummyZones,
      instances: [...this.#instances.values()].map(copy),
      failingStarts: this.#failingStarts,
      failureMessage: this.#failureMessage,
      refusing: this.#refusal?.text ?? null,
    };
  }

  /**
   * Boots every running instance again, as a host comes back up after the
   * cloud (the process that ran it) restarted: onStarted fires for each, with
   * the userData it was first started with, so whoever ran its agent then runs
   * it again. Lost instances stay down. Call it once its listeners are registered.
   */
  bootInstances(): void {
    for (const instance of this.#instances.values())
      if (instance.status === "running") this.#started.emit({ instance: copy(instance), userData: this.#userData.get(instance.id) });
  }

  /** Stops writing the state file (another process's cloud now owns it); the cloud goes on in memory. */
  close(): void {
    this.#file = null;
  }

  /** Appended in the same turn as the changes it records, before any listener hears of them, so the file never lags behind what a listener was told. */
  #record(changes: DummyChange[]): void {
    this.#file?.append(changes, this.#instances.size, () => this.#state());
  }

  #recordFaults(): void {
    this.#record([
      {
        change: "faults",
        failingStarts: this.#failingStarts,
        failureMessage: this.#failureMessage,
        refusing: this.#refusal?.text ?? null,
      },
    ]);
  }

  /** The whole state, for a compaction of the journal into the snapshot. */
  #state(): DummyState {
    const instances: StoredInstance[] = [...this.#instances.values()].map((instance) => {
      const userData = this.#userData.get(instance.id);
      return userData === undefined ? { instance: copy(instance) } : { instance: copy(instance), userData };
    });
    return {
      nextNumber: this.#nextNumber,
      lastZone: this.#lastZone,
      failingStarts: this.#failingStarts,
      failureMessage: this.#failureMessage,
      refusing: this.#refusal?.text ?? null,
      instances,
    };
  }

  #restore(state: DummyState, file: DummyStateFile): void {
    this.#nextNumber = state.nextNumber;
    this.#lastZone = state.lastZone;
    this.#failingStarts = state.failingStarts;
    this.#failureMessage = state.failureMessage;
    try {
      this.#refusal = state.refusing === null ? null : parseRefusalRule(state.refusing);
    } catch (error) {
      throw new DummyStateError(file.file, `has a refusal rule the cloud cannot read (${(error as Error).message})`, file.journal);
    }
    for (const { instance, userData } of state.instances) {
      this.#instances.set(instance.id, copy(instance));
      this.#userData.set(instance.id, userData);
    }
  }
}
