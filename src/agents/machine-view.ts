// A model's machines as an agent sees them: built from a `changes` stream of
// kind MACHINE. The stream's first events are the full state (STATE events,
// then a BOOKMARK); later CHANGE events carry what changed. A resubscription
// (after a reconnect) starts over with a full state, which replaces the view,
// so an agent always reconciles against where things stand.
import type { ConstraintsFieldsFragment, Life, MachineInfoFieldsFragment, MachineJob } from "../client/graphql.js";
import type { InstanceConstraints } from "../provider/provider.js";
import type { StreamEvent as Envelope } from "./stream-view.js";

export interface MachineView {
  id: string;
  life: Life;
  series: string;
  jobs: MachineJob[];
  constraints: InstanceConstraints;
  instanceId: string | null;
  status: string;
  statusMessage: string;
}

/** A machines stream's event (the provisioner's `changes(kinds: [MACHINE])`, a machine agent's machineLife). */
type StreamEvent = Envelope & { machine?: MachineInfoFieldsFragment | null };

export class MachinesView {
  readonly machines = new Map<string, MachineView>();
  /** The snapshot being read (between a stream's first STATE event and its BOOKMARK). */
  private incoming: Map<string, MachineView> | null = null;
  /** True once a full state has been read: before that, an agent has nothing to reconcile. */
  synced = false;

  /** What an agent itself just wrote, known before its stream brings it back. */
  recorded(id: string, fields: Partial<Pick<MachineView, "instanceId" | "status">>): void {
    const machine = this.machines.get(id);
    if (machine) this.machines.set(id, { ...machine, ...fields });
  }

  /** Applies one event; true when the view changed in a way worth reconciling. */
  apply(event: StreamEvent): boolean {
    if (event.type === "STATE") {
      this.incoming ??= new Map();
      if (event.entity && event.machine) this.incoming.set(event.entity, merge(undefined, event, event.machine));
      return false;
    }
    if (event.type === "BOOKMARK") {
      if (!this.incoming && this.synced) return false; // an idle stream's bookmark
      // The end of a snapshot: it replaces whatever came before (possibly nothing: an empty snapshot).
      this.machines.clear();
      for (const [id, machine] of this.incoming ?? []) this.machines.set(id, machine);
      this.incoming = null;
      this.synced = true;
      return true;
    }
    if (!event.entity || !event.machine) return false;
    if (event.removed) this.machines.delete(event.entity);
    else this.machines.set(event.entity, merge(this.machines.get(event.entity), event, event.machine));
    return this.synced;
  }
}

/** The machine after the event: the fields it names in `changed`, over what was known. */
function merge(previous: MachineView | undefined, event: StreamEvent, info: MachineInfoFieldsFragment): MachineView {
  const has = (field: keyof MachineInfoFieldsFragment) => event.changed.includes(field);
  return {
    id: info.id,
    life: event.life ?? previous?.life ?? "ALIVE",
    series: has("series") ? (info.series ?? "") : (previous?.series ?? ""),
    jobs: has("jobs") ? (info.jobs ?? []) : (previous?.jobs ?? []),
    constraints: has("constraints") ? constraintsOf(info.constraints) : (previous?.constraints ?? {}),
    instanceId: has("instanceId") ? info.instanceId : (previous?.instanceId ?? null),
    status: has("status") ? (info.status?.current ?? "pending") : (previous?.status ?? "pending"),
    statusMessage: has("status") ? (info.status?.message ?? "") : (previous?.statusMessage ?? ""),
  };
}

/** Constraints as a provider takes them: the keys set, and no others. */
function constraintsOf(c: ConstraintsFieldsFragment | null): InstanceConstraints {
  if (!c) return {};
  return {
    ...(c.arch !== null && { arch: c.arch }),
    ...(c.container !== null && { container: c.container }),
    ...(c.cores !== null && { cores: c.cores }),
    ...(c.cpuPower !== null && { cpuPower: c.cpuPower }),
    ...(c.instanceType !== null && { instanceType: c.instanceType }),
    ...(c.mem !== null && { mem: c.mem }),
    ...(c.rootDisk !== null && { rootDisk: c.rootDisk }),
    ...(c.tags !== null && { tags: c.tags }),
    ...(c.zones !== null && { zones: c.zones }),
  };
}
