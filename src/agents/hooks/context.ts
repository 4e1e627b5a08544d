// What a running hook may read and write through Juju's hook tools. The unit
// agent implements HookContext over the API, one per hook run, as of the
// hook's start (what a hook sees in Juju's worker/uniter/runner/context); the hook runner
// serves the tools against it.

/** A relation as hook tools name it: Juju's relation id "<endpoint>:<id>", e.g. "db:2". */
export interface RelationRef {
  id: number;
  endpoint: string;
}

/** The relation id hook tools print and JUJU_RELATION_ID carries: "db:2". */
export const relationIdText = (relation: RelationRef): string => `${relation.endpoint}:${relation.id}`;

export type WorkloadStatus = "maintenance" | "blocked" | "waiting" | "active";
export const workloadStatuses: readonly WorkloadStatus[] = ["maintenance", "blocked", "waiting", "active"];

export type LogLevel = "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";

/** What a running hook may read and write, as of the hook's start; implemented by the unit agent over the API. */
export interface HookContext {
  /** relation-ids: the unit's relations on that endpoint that are not Dead, by id. */
  relationIds(endpoint: string): Promise<RelationRef[]>;
  /** A relation of the unit by id, or null when the unit is not in it. */
  relation(id: number): Promise<RelationRef | null>;
  /** relation-list: the remote units in the unit's scope of that relation that it has joined (sorted), as of the hook. */
  relationList(relationId: number): Promise<string[]>;
  /** The remote application of the relation (relation-list --app). */
  remoteApplication(relationId: number): Promise<string>;
  /**
   * relation-get: a unit's settings in a relation (its own include this hook's pending relation-set writes).
   * A rejection's message is what the tool prints after "ERROR " (e.g. "unknown unit bad/0").
   */
  relationGet(relationId: number, unit: string): Promise<Record<string, string>>;
  /** relation-set: buffered; committed together, once, only if the hook succeeds. An empty value deletes the key. */
  relationSet(relationId: number, changes: Record<string, string>): void;
  /** status-set: takes effect at once. */
  statusSet(status: WorkloadStatus, message: string): Promise<void>;
  /** unit-get. */
  unitGet(key: "private-address" | "public-address"): Promise<string>;
  /** config-get: the application's charm config, with the charm's defaults filled in. */
  configGet(): Promise<Record<string, string | number | boolean>>;
  /** juju-log: the tool answers once the line is sent on (the unit agent keeps it with the hook's run on the server). */
  log(level: LogLevel, message: string): void | Promise<void>;
}
