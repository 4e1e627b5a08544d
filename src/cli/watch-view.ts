// `status --watch`'s model, held from the change stream: the snapshot (STATE events up to its BOOKMARK), then each
// CHANGE merged in (the fields its `changed` names) and each removal dropped. It gives status-view.ts the rows the
// CliStatus query would; what the stream does not carry (blockers, endpoints' roles) comes from annotations, read
// again by the watch when they may have moved.
import type { ChangeEventFragment, CliWatchAnnotationsQuery, EntityKind, Life } from "../client/graphql.js";
import { UnitAgentStatus, WorkloadStatus } from "../core/machine.js";
import type { StatusInput } from "./status-view.js";

export type WatchEvent = ChangeEventFragment;
type Kind = "model" | "machine" | "application" | "unit" | "relation";
type Info<K extends Kind> = NonNullable<WatchEvent[K]>;
interface Held<I> {
  life: Life | null;
  info: I;
}
type Annotated = NonNullable<CliWatchAnnotationsQuery["model"]>;
type Blockers = Annotated["blockers"];
type Role = Annotated["relations"]["edges"][number]["node"]["endpoints"][number]["role"];

/** The kinds a status shows: what the watch subscribes to. */
export const WATCHED_KINDS: EntityKind[] = ["MODEL", "MACHINE", "APPLICATION", "UNIT", "RELATION"];

const KIND_FIELD: Partial<Record<EntityKind, Kind>> = {
  MODEL: "model",
  MACHINE: "machine",
  APPLICATION: "application",
  UNIT: "unit",
  RELATION: "relation",
};

export class WatchView {
  private readonly held: { [K in Kind]: Map<string, Held<Info<K>>> } = {
    model: new Map(),
    machine: new Map(),
    application: new Map(),
    unit: new Map(),
    relation: new Map(),
  };
  /** Blockers by `kind:id`, and relation endpoints' roles by `id:application:endpoint`, as last read. */
  private blockers = new Map<string, Blockers>();
  private roles = new Map<string, Role>();
  /** The revision the stream has reached. */
  revision = "0";
  /** A snapshot has been read whole: before that there is nothing to draw. */
  synced = false;
  /** Annotations may have moved since they were read: an integration changed, or something is not Alive. */
  stale = false;

  /** A fresh snapshot follows: what was held goes. */
  reset(): void {
    for (const map of Object.values(this.held)) map.clear();
    this.synced = false;
  }

  /** Applies one event; true when what is drawn may have changed. */
  apply(event: WatchEvent): boolean {
    this.revision = event.revision;
    if (event.type === "BOOKMARK") {
      if (this.synced) return false;
      this.synced = true;
      this.stale = true;
      return true;
    }
    const field = event.kind ? KIND_FIELD[event.kind] : undefined;
    const info = field ? event[field] : null;
    if (!field || !info || !event.entity) return false;
    const map = this.held[field] as Map<string, Held<object>>;
    const previous = map.get(event.entity);
    if (event.removed) map.delete(event.entity);
    else if (event.type === "STATE" || !previous) map.set(event.entity, { life: event.life, info });
    else {
      const next: Record<string, unknown> = { ...previous.info };
      for (const name of event.changed) if (name in info) next[name] = (info as Record<string, unknown>)[name];
      map.set(event.entity, { life: event.life ?? previous.life, info: next });
    }
    if (field === "relation" || (event.life && event.life !== "ALIVE") || this.anyNotAlive()) this.stale = true;
    return this.synced;
  }

  private anyNotAlive(): boolean {
    return Object.values(this.held).some((map) => [...map.values()].some((h) => h.life !== null && h.life !== "ALIVE"));
  }

  /** Takes the blockers and roles a CliWatchAnnotations query read. */
  annotate(model: Annotated): void {
    this.blockers = new Map([["model:", model.blockers]]);
    for (const { node } of model.machines.edges) this.blockers.set(`machine:${node.id}`, node.blockers);
    for (const { node } of model.applications.edges) this.blockers.set(`application:${node.name}`, node.blockers);
    for (const { node } of model.units.edges) this.blockers.set(`unit:${node.name}`, node.blockers);
    this.roles = new Map();
    for (const { node } of model.relations.edges) {
      this.blockers.set(`relation:${node.id}`, node.blockers);
      for (const e of node.endpoints) this.roles.set(`${node.id}:${e.applicationName}:${e.name}`, e.role);
    }
  }

  /**
   * The rows status-view.ts draws, in the order the query gives them (creation order: a snapshot's, then each new
   * entity's as it comes); null before the first snapshot, or when the model is gone.
   */
  input(): StatusInput | null {
    const model = [...this.held.model.values()][0];
    if (!this.synced || !model) return null;
    const life = (h: Held<unknown>) => h.life ?? "ALIVE";
    // A unit's creation event carries no statuses: it starts as every new unit does (src/model/unit.ts).
    const state = (s: { current: string; message: string } | null, initial = "unknown") => ({
      current: s?.current ?? initial,
      message: s?.message ?? "",
    });
    // Nor do applications' events carry their unit count: the units held are counted instead.
    const scale = new Map<string, number>();
    for (const u of this.held.unit.values()) scale.set(u.info.applicationName ?? "", (scale.get(u.info.applicationName ?? "") ?? 0) + 1);
    const blockers = (key: string) => this.blockers.get(key);
    const rows = <K extends Kind>(kind: K) => [...this.held[kind].values()];
    return {
      model: {
        name: model.info.name,
        life: life(model),
        revision: this.revision,
        defaultSeries: model.info.defaultSeries ?? "",
        blockers: blockers("model:"),
      },
      machines: rows("machine").map((m) => ({
        id: m.info.id,
        life: life(m),
        series: m.info.series ?? "",
        instanceId: m.info.instanceId,
        status: state(m.info.status),
        blockers: blockers(`machine:${m.info.id}`),
      })),
      applications: rows("application").map((a) => ({
        name: a.info.name,
        life: life(a),
        series: a.info.series ?? "",
        subordinate: a.info.subordinate ?? false,
        unitCount: scale.get(a.info.name) ?? 0,
        charmUrl: a.info.charmUrl ?? "",
        blockers: blockers(`application:${a.info.name}`),
      })),
      units: rows("unit").map((u) => ({
        name: u.info.name,
        life: life(u),
        applicationName: u.info.applicationName ?? "",
        machineId: u.info.machineId,
        principalName: u.info.principalName,
        workloadStatus: state(u.info.workloadStatus, WorkloadStatus.Waiting),
        agentStatus: state(u.info.agentStatus, UnitAgentStatus.Allocating),
        blockers: blockers(`unit:${u.info.name}`),
      })),
      relations: rows("relation").map((r) => ({
        id: r.info.id,
        key: r.info.key ?? "",
        interface: r.info.interface ?? "",
        scope: r.info.scope ?? "GLOBAL",
        life: life(r),
        endpoints: (r.info.endpoints ?? []).map((e) => ({
          ...e,
          role: this.roles.get(`${r.info.id}:${e.applicationName}:${e.name}`),
        })),
        blockers: blockers(`relation:${r.info.id}`),
      })),
    };
  }
}
