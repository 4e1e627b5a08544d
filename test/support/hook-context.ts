// An in-memory HookContext, for the hook tests: what the unit agent implements
// over the API, reduced to a few maps. Contexts of several units share one
// RelationSettingsStore, as units share the controller, so one unit's committed
// relation-set is the next hook's relation-get on the other side.
import type { HookContext, LogLevel, RelationRef, WorkloadStatus } from "../../src/agents/hooks/context.js";
import { PendingRelationSettings } from "../../src/agents/hooks/pending-settings.js";

/** Committed relation settings: by relation id, then unit. */
export class RelationSettingsStore {
  private readonly byRelation = new Map<number, Map<string, Record<string, string>>>();

  get(relationId: number, unit: string): Record<string, string> | undefined {
    return this.byRelation.get(relationId)?.get(unit);
  }

  put(relationId: number, unit: string, settings: Record<string, string>): void {
    let units = this.byRelation.get(relationId);
    if (!units) {
      units = new Map();
      this.byRelation.set(relationId, units);
    }
    units.set(unit, settings);
  }
}

/** A relation the unit is in, as its hook sees it. */
export interface MemoryRelation extends RelationRef {
  remoteApp: string;
  /** Remote units the unit has joined. */
  members: string[];
}

export interface MemoryHookContextOptions {
  unit: string;
  relations?: MemoryRelation[];
  settings?: RelationSettingsStore;
  config?: Record<string, string | number | boolean>;
  addresses?: { private: string; public: string };
}

export class MemoryHookContext implements HookContext {
  readonly unit: string;
  readonly relations: MemoryRelation[];
  readonly settings: RelationSettingsStore;
  config: Record<string, string | number | boolean>;
  readonly addresses: { private: string; public: string };
  /** This hook's relation-set writes, not yet committed. */
  pending = new PendingRelationSettings();
  readonly statuses: { status: WorkloadStatus; message: string }[] = [];
  readonly logs: { level: LogLevel; message: string }[] = [];

  constructor(options: MemoryHookContextOptions) {
    this.unit = options.unit;
    this.relations = options.relations ?? [];
    this.settings = options.settings ?? new RelationSettingsStore();
    this.config = options.config ?? { "fail-hook": "" };
    this.addresses = options.addresses ?? { private: "10.0.0.1", public: "203.0.113.1" };
  }

  /** What the unit agent does after a successful hook: the writes committed together, then a fresh buffer for the next hook. */
  commit(): void {
    for (const relationId of this.pending.changes().keys()) {
      this.settings.put(relationId, this.unit, this.pending.overlay(relationId, this.settings.get(relationId, this.unit) ?? {}));
    }
    this.discard();
  }

  /** What the unit agent does after a failed hook: the writes dropped. */
  discard(): void {
    this.pending = new PendingRelationSettings();
  }

  /** The latest status-set. */
  get status(): { status: WorkloadStatus; message: string } | undefined {
    return this.statuses.at(-1);
  }

  private find(id: number): MemoryRelation {
    const relation = this.relations.find((candidate) => candidate.id === id);
    if (!relation) throw new Error("relation not found");
    return relation;
  }

  async relationIds(endpoint: string): Promise<RelationRef[]> {
    return this.relations.filter((relation) => relation.endpoint === endpoint).map(({ id, endpoint }) => ({ id, endpoint }));
  }

  async relation(id: number): Promise<RelationRef | null> {
    const relation = this.relations.find((candidate) => candidate.id === id);
    return relation ? { id: relation.id, endpoint: relation.endpoint } : null;
  }

  async relationList(relationId: number): Promise<string[]> {
    return [...this.find(relationId).members].sort();
  }

  async remoteApplication(relationId: number): Promise<string> {
    return this.find(relationId).remoteApp;
  }

  async relationGet(relationId: number, unit: string): Promise<Record<string, string>> {
    this.find(relationId);
    const committed = this.settings.get(relationId, unit);
    if (unit === this.unit) return this.pending.overlay(relationId, committed ?? {});
    if (!committed) throw new Error(`unknown unit ${unit}`);
    return { ...committed };
  }

  relationSet(relationId: number, changes: Record<string, string>): void {
    this.find(relationId);
    this.pending.set(relationId, changes);
  }

  async statusSet(status: WorkloadStatus, message: string): Promise<void> {
    this.statuses.push({ status, message });
  }

  async unitGet(key: "private-address" | "public-address"): Promise<string> {
    return key === "private-address" ? this.addresses.private : this.addresses.public;
  }

  async configGet(): Promise<Record<string, string | number | boolean>> {
    return { ...this.config };
  }

  log(level: LogLevel, message: string): void {
    this.logs.push({ level, message });
  }
}
