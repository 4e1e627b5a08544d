// A model's machines as an agent sees them: built from a `changes` stream of
// kind MACHINE. The stream's first events are the full state (STATE events,
// then a BOOKMARK); later CHANGE events carry what changed. A resubscription
// (after a reconnect) starts over with a full state, which replaces the view,
// so an agent always reconciles against where things stand.
import type { ChangeEventFragment, Life } from "../client/graphql.js";
import type { InstanceConstraints } from "../provider/provider.js";

export interface MachineView {
  id: string;
  life: Life;
  series: string;
  jobs: string[];
  constraints: InstanceConstraints;
  instanceId: string | null;
  status: string;
  statusMessage: string;
}

type StreamEvent = ChangeEventFragment;

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
      if (event.entity) this.incoming.set(event.entity, merge(undefined, event));
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
    if (!event.entity) return false;
    if (event.removed) this.machines.delete(event.entity);
    else this.machines.set(event.entity, merge(this.machines.get(event.entity), event));
    return this.synced;
  }
}

function merge(previous: MachineView | undefined, event: StreamEvent): MachineView {
  const f = event.fields;
  const has = (key: string) => Object.hasOwn(f, key);
  return {
    id: event.entity!,
    life: event.life ?? previous?.life ?? "ALIVE",
    series: has("series") ? String(f.series) : (previous?.series ?? ""),
    jobs: has("jobs") ? (f.jobs as string[]) : (previous?.jobs ?? []),
    constraints: has("constraints") ? (f.constraints as InstanceConstraints) : (previous?.constraints ?? {}),
    instanceId: has("instanceId") ? ((f.instanceId as string | null) ?? null) : (previous?.instanceId ?? null),
    status: has("status") ? String(f.status) : (previous?.status ?? "pending"),
    statusMessage: has("statusMessage") ? String(f.statusMessage) : (previous?.statusMessage ?? ""),
  };
}
