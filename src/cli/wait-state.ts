// What `wait-for` evaluates its query against: the model's models, machines, applications and units as the changes
// stream tells of them (a snapshot, then each CHANGE's fields merged over it, as docs/streams.md describes), and each
// kind's scope in Juju's words (life, status, workload-status, unit-count, units, …).
import type { CliWaitChangesSubscription, EntityKind } from "../client/graphql.js";
import type { Fields, Scope } from "./wait-query.js";

export type WaitEvent = CliWaitChangesSubscription["changes"];
type Held = "model" | "machine" | "application" | "unit";
export type WaitKind = Held;

interface Entity<I> {
  life: string;
  info: I;
}
type Infos = { [K in Held]: NonNullable<WaitEvent[K]> };
type Entities = { [K in Held]: Map<string, Entity<Infos[K]>> };

const emptyEntities = (): Entities => ({ model: new Map(), machine: new Map(), application: new Map(), unit: new Map() });

/** The stream's kinds each wait needs: what its entity's scope reads. */
export const kindsFor: Record<WaitKind, EntityKind[]> = {
  model: ["MODEL", "MACHINE", "APPLICATION", "UNIT"],
  application: ["APPLICATION", "UNIT"],
  unit: ["UNIT"],
  machine: ["MACHINE", "UNIT"],
};

/** Juju's default goal for each kind (`juju wait-for <kind> --help`). */
export const defaultQuery: Record<WaitKind, string> = {
  model: 'life=="alive" && status=="available"',
  application: 'life=="alive" && status=="active"',
  unit: 'life=="alive" && workload-status=="active"',
  machine: 'life=="alive" && status=="started"',
};

const unitFields: Fields = Object.fromEntries(
  [
    "name",
    "application",
    "life",
    "status",
    "workload-status",
    "workload-message",
    "agent-status",
    "agent-message",
    "machine",
    "principal",
    "subordinate",
    "series",
  ].map((f) => [f, "value"]),
);
const machineFields: Fields = {
  ...Object.fromEntries(["id", "life", "status", "message", "series", "instance-id", "parent", "container-type"].map((f) => [f, "value"])),
  units: unitFields,
  "unit-count": "value",
};
const applicationFields: Fields = {
  ...Object.fromEntries(["name", "life", "status", "message", "charm", "series", "subordinate"].map((f) => [f, "value"])),
  units: unitFields,
  "unit-count": "value",
};

/** The fields a query may read, per kind. */
export const fieldsFor: Record<WaitKind, Fields> = {
  unit: unitFields,
  machine: machineFields,
  application: applicationFields,
  model: {
    ...Object.fromEntries(["name", "life", "status", "series"].map((f) => [f, "value"])),
    applications: applicationFields,
    machines: machineFields,
    units: unitFields,
    "application-count": "value",
    "machine-count": "value",
    "unit-count": "value",
  },
};

/** Juju's order of concern: an application shows its most pressing unit's workload status (as `lifeline status` does). */
const concern = ["error", "blocked", "maintenance", "waiting", "active", "unknown"];
const lower = (word: string | null | undefined) => (word ?? "").toLowerCase();

/** The entities of one model as the stream has told of them so far. */
export class WaitState {
  private entities = emptyEntities();
  private incoming: Entities | null = null;
  /** True once a snapshot has been read whole: before that, nothing is known to be missing. */
  synced = false;
  /** Set when the entity waited for was removed (a CHANGE with `removed`): its last state, for the verdict. */
  readonly removed = new Map<string, Scope>();

  /** The stream starts over from a snapshot. */
  reset(): void {
    this.incoming = emptyEntities();
  }

  /** Applies one event; true when what the queries read may have changed. */
  apply(event: WaitEvent): boolean {
    if (event.type === "BOOKMARK") {
      if (!this.incoming) return false;
      this.entities = this.incoming;
      this.incoming = null;
      this.synced = true;
      return true;
    }
    const kind = lower(event.kind) as Held;
    const info = event[kind];
    if (!info || !event.entity || !(kind in this.entities)) return false;
    if (event.type === "STATE") {
      this.incoming ??= emptyEntities();
      this.incoming[kind].set(event.entity, { life: lower(event.life), info } as never);
      return false;
    }
    const held = this.entities[kind] as Map<string, Entity<object>>;
    const previous = held.get(event.entity);
    if (event.removed) {
      if (previous) this.removed.set(`${kind} ${event.entity}`, { ...this.scope(kind, event.entity)!, life: "dead" });
      held.delete(event.entity);
      return this.synced;
    }
    this.removed.delete(`${kind} ${event.entity}`);
    if (!previous) held.set(event.entity, { life: lower(event.life), info });
    else {
      const next = { ...previous.info };
      for (const field of event.changed) if (field in info) Reflect.set(next, field, Reflect.get(info, field));
      held.set(event.entity, { life: event.life ? lower(event.life) : previous.life, info: next });
    }
    return this.synced;
  }

  /** The entity's scope for a query, or null while it does not exist. */
  scope(kind: WaitKind, name: string): Scope | null {
    switch (kind) {
      case "unit":
        return this.unitScope(name);
      case "machine":
        return this.machineScope(name);
      case "application":
        return this.applicationScope(name);
      case "model":
        return this.modelScope(name);
    }
  }

  private unitScope(name: string): Scope | null {
    const unit = this.entities.unit.get(name);
    if (!unit) return null;
    const { info } = unit;
    const workload = lower(info.workloadStatus?.current) || "unknown";
    return {
      name,
      application: info.applicationName ?? name.split("/")[0]!,
      life: unit.life,
      status: workload,
      "workload-status": workload,
      "workload-message": info.workloadStatus?.message ?? "",
      "agent-status": lower(info.agentStatus?.current),
      "agent-message": info.agentStatus?.message ?? "",
      machine: info.machineId ?? null,
      principal: info.principalName ?? null,
      subordinate: Boolean(info.subordinate),
      series: info.series ?? null,
    };
  }

  private unitsWhere(test: (unit: Infos["unit"]) => boolean): Scope[] {
    return [...this.entities.unit.entries()].filter(([, u]) => test(u.info)).map(([name]) => this.unitScope(name)!);
  }

  private machineScope(id: string): Scope | null {
    const machine = this.entities.machine.get(id);
    if (!machine) return null;
    const { info } = machine;
    const units = this.unitsWhere((u) => u.machineId === id);
    return {
      id,
      life: machine.life,
      status: lower(info.status?.current) || "pending",
      message: info.status?.message ?? "",
      series: info.series ?? null,
      "instance-id": info.instanceId ?? null,
      parent: info.parentId ?? null,
      "container-type": lower(info.containerType) || null,
      units,
      "unit-count": units.length,
    };
  }

  private applicationScope(name: string): Scope | null {
    const application = this.entities.application.get(name);
    if (!application) return null;
    const { info } = application;
    const units = this.unitsWhere((u) => u.applicationName === name);
    const rank = (s: Scope) => {
      const at = concern.indexOf(String(s["workload-status"]));
      return at < 0 ? concern.length : at;
    };
    const pressing = [...units].sort((a, b) => rank(a) - rank(b))[0];
    return {
      name,
      life: application.life,
      status: pressing ? String(pressing["workload-status"]) : "unknown",
      message: pressing ? String(pressing["workload-message"]) : "",
      charm: info.charmUrl ?? null,
      series: info.series ?? null,
      subordinate: Boolean(info.subordinate),
      units,
      "unit-count": units.length,
    };
  }

  private modelScope(name: string): Scope | null {
    const model = [...this.entities.model.values()].find((m) => m.info.name === name);
    if (!model) return null;
    const applications = [...this.entities.application.keys()].map((a) => this.applicationScope(a)!);
    const machines = [...this.entities.machine.keys()].map((m) => this.machineScope(m)!);
    const units = [...this.entities.unit.keys()].map((u) => this.unitScope(u)!);
    // Juju's model status: available while it lives; destroying once it does not.
    const status = model.life === "alive" ? "available" : model.life === "dying" ? "destroying" : "dead";
    return {
      name,
      life: model.life,
      status,
      series: model.info.defaultSeries ?? null,
      applications,
      machines,
      units,
      "application-count": applications.length,
      "machine-count": machines.length,
      "unit-count": units.length,
    };
  }
}
