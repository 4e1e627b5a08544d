// A hook's view of the world (HookContext) for a unit agent, over the API:
// fixed at the hook's start where Juju fixes it (relations and their members),
// read from the server where Juju reads it (relation settings), with the
// hook's own relation-set writes held back until the hook succeeds.
import type { HookContext, LogLevel, RelationRef, WorkloadStatus } from "../hooks/context.js";
import { PendingRelationSettings } from "../hooks/pending-settings.js";
import { byName, type Hook, type UniterProgress } from "./resolver.js";

/** One relation the unit is in, as the hook sees it. */
export interface RelationInHook {
  ref: RelationRef;
  remoteApplication: string;
  /** relation-list: the remote units joined, as of the hook (the joining one included in -joined, the departing one gone in -departed). */
  members: string[];
}

/**
 * A relation whose scope the unit is in, as `hook` sees it (null when the unit is in no such scope): its remote
 * application (the unit's own for a peer relation) and relation-list, which holds the joining unit in -joined and
 * not the departing one in -departed.
 */
export function relationInHook(
  id: number,
  hook: Hook,
  progress: UniterProgress,
  endpoints: readonly { applicationName: string }[],
  application: string,
): RelationInHook | null {
  const relation = progress.relations[id];
  if (!relation) return null;
  // A peer relation's counterpart is the unit's own application.
  const remoteApplication = endpoints.find((e) => e.applicationName !== application)?.applicationName ?? application;
  const members = new Set(Object.keys(relation.members));
  if (hook.relation?.id === id && hook.remoteUnit) {
    if (hook.name.endsWith("-relation-joined")) members.add(hook.remoteUnit);
    if (hook.name.endsWith("-relation-departed")) members.delete(hook.remoteUnit);
  }
  return {
    ref: { id, endpoint: relation.endpoint },
    remoteApplication,
    members: [...members].sort(byName),
  };
}

export interface ContextSources {
  unit: string;
  relations: ReadonlyMap<number, RelationInHook>;
  /** A unit's committed settings in a relation, from the server. */
  readSettings(relationId: number, unit: string): Promise<Record<string, string>>;
  setStatus(status: WorkloadStatus, message: string): Promise<void>;
  config(): Promise<Record<string, string | number | boolean>>;
  addresses: { private: string; public: string };
  log(level: LogLevel, message: string): Promise<void>;
}

export class ApiHookContext implements HookContext {
  readonly pending = new PendingRelationSettings();

  constructor(private readonly sources: ContextSources) {}

  async relationIds(endpoint: string): Promise<RelationRef[]> {
    return [...this.sources.relations.values()].filter((r) => r.ref.endpoint === endpoint).map((r) => r.ref);
  }

  async relation(id: number): Promise<RelationRef | null> {
    return this.sources.relations.get(id)?.ref ?? null;
  }

  async relationList(relationId: number): Promise<string[]> {
    return [...(this.known(relationId).members ?? [])];
  }

  async remoteApplication(relationId: number): Promise<string> {
    return this.known(relationId).remoteApplication;
  }

  async relationGet(relationId: number, unit: string): Promise<Record<string, string>> {
    const relation = this.known(relationId);
    const own = unit === this.sources.unit;
    if (!own && !relation.members.includes(unit) && !unit.startsWith(`${relation.remoteApplication}/`))
      throw new Error(`cannot read settings for unit "${unit}" in relation "${relation.ref.endpoint}:${relationId}": unit not found`);
    const committed = await this.sources.readSettings(relationId, unit);
    return own ? this.pending.overlay(relationId, committed) : committed;
  }

  relationSet(relationId: number, changes: Record<string, string>): void {
    this.known(relationId);
    this.pending.set(relationId, changes);
  }

  statusSet(status: WorkloadStatus, message: string): Promise<void> {
    return this.sources.setStatus(status, message);
  }

  async unitGet(key: "private-address" | "public-address"): Promise<string> {
    return key === "private-address" ? this.sources.addresses.private : this.sources.addresses.public;
  }

  configGet(): Promise<Record<string, string | number | boolean>> {
    return this.sources.config();
  }

  log(level: LogLevel, message: string): Promise<void> {
    return this.sources.log(level, message);
  }

  private known(relationId: number): RelationInHook {
    const relation = this.sources.relations.get(relationId);
    if (!relation) throw new Error(`invalid value "${relationId}" for option -r: relation not found`);
    return relation;
  }
}
