// The change log's contract: one discriminated union of change kinds, and one
// constructor per change the model makes. Writers (src/model) build rows only
// through these constructors; readers (watchers, snapshots) narrow on `kind`
// and read `fields` by type, so a field renamed here fails to compile at every
// writer and reader.
//
// Every row carries its entity's id; rows that are all a late reader may ever
// see of an entity (a removal, a scope change) also carry its identifying fields,
// so a resumed stream recognises rows about entities that are long gone.

import type { ConfigSettings } from "../core/config.js";
import type { AgentStatusData, HookResult, ResolvedMode } from "../core/hooks.js";
import type { Life } from "../core/life.js";
import type { ContainerType, MachineJob } from "../core/machine.js";
import { type ShownAgentStatus, shownMachineStatus, shownUnitAgent } from "../core/presence.js";
import type { Role, Scope } from "../core/relation.js";
import { applicationOfUnit } from "../core/unit-name.js";
import type {
  applications,
  charms,
  cleanups,
  hookRuns,
  machines,
  models,
  relationScopes,
  relations,
  StoredConstraints,
  units,
} from "../db/schema.js";

export interface ModelFields {
  defaultSeries?: string;
  constraints?: StoredConstraints;
  /** Juju's automatically-retry-hooks. */
  automaticallyRetryHooks?: boolean;
}

export interface MachineFields {
  series?: string;
  jobs?: MachineJob[];
  constraints?: StoredConstraints;
  parentId?: string | null;
  containerType?: ContainerType | null;
  instanceId?: string | null;
  /** As shown: `down` while its agent is lost (core/presence.ts). Rows about its status carry `agentLostSince` too. */
  status?: string;
  statusMessage?: string;
  /** ISO 8601: since when the status shown holds (rows written before it was kept lack it: the row's commit time stands in). */
  statusSince?: string;
  /** ISO 8601: since when its agent is lost (when it was last connected); null while it is not. */
  agentLostSince?: string | null;
  /** Instance starts that failed since it was added or resolved, and the provider's last error (provisioning you can see). */
  startAttempts?: number;
  lastStartError?: string | null;
}

export interface CharmFields {
  name?: string;
  revision?: number;
  subordinate?: boolean;
  series?: string[];
}

export interface ApplicationFields {
  charmUrl?: string;
  series?: string;
  subordinate?: boolean;
  constraints?: StoredConstraints;
  unitCount?: number;
  relationCount?: number;
  /** Moves with every change to the effective config: a unit agent runs config-changed when it does. */
  configVersion?: number;
  /** The effective config (defaults filled in), when its JSON is at most CONFIG_IN_CHANGES bytes; else read Application.config. */
  config?: ConfigSettings;
}

export interface UnitFields {
  application?: string;
  series?: string;
  /** The machine a principal is assigned to (null for subordinates). */
  machineId?: string | null;
  /** A subordinate's principal's machine, where it runs (it is assigned to none): on its creation and in snapshots. */
  hostMachineId?: string | null;
  /** A subordinate's principal unit (null for principals). */
  principal?: string | null;
  workloadStatus?: string;
  workloadMessage?: string;
  /** ISO 8601: since when the workload status holds (absent from older rows: their commit time stands in). */
  workloadSince?: string;
  /** Rows about the unit's agent carry all five agent fields together. As shown: `lost` while its agent is (core/presence.ts). */
  agentStatus?: ShownAgentStatus;
  agentMessage?: string;
  /** ISO 8601: since when the agent status shown holds (absent from older rows: their commit time stands in). */
  agentSince?: string;
  /** The hook the status is about, while executing or in error. */
  agentStatusData?: AgentStatusData;
  /** What `resolveUnit` asked of the agent; null when nothing. */
  resolved?: ResolvedMode | null;
  /** ISO 8601: since when its agent is lost (when it was last connected); null while it is not. */
  agentLostSince?: string | null;
}

export interface RelationFields {
  /** The canonical key, "<requirer> <provider>"; it names both endpoints, so removal rows carry it. */
  key?: string;
  scope?: Scope;
  interface?: string;
  /** "application:endpoint" for each side. */
  endpoints?: string[];
  unitCount?: number;
}

/** A unit's membership of a relation's scope. Entity "<relation id>:<unit>"; entering and leaving carry every field. */
export interface ScopeFields {
  relationId: number;
  unit: string;
  application: string;
  role: Role;
  /** For container-scoped relations: the principal unit whose container the scope is; else null. */
  container: string | null;
}

/** A unit's relation settings. Entity "<relation id>:<unit>"; a write carries the new version. */
export interface SettingsFields {
  relationId: number;
  unit: string;
  version?: number;
}

/**
 * A unit's latest hook run. Entity: the unit's name; every row of a begin or
 * commit carries every field, so a row is the run as it stands; a row of juju-log
 * lines carries the run's id and the lines only. The removal row (the unit is
 * gone, and its runs are history) carries `unit` and `application` only.
 */
export interface HookFields {
  unit: string;
  application: string;
  /** The run's id (HookRun.id). */
  run?: string;
  hook?: string;
  relationId?: number | null;
  remoteUnit?: string | null;
  result?: HookResult;
  message?: string;
  /** ISO 8601 instants. */
  startedAt?: string;
  endedAt?: string | null;
  /** On a row for juju-log lines only: the lines just kept with the run (the run's others are on HookRun.log). */
  log?: HookLogFields[];
}

/** A juju-log line as a HOOK row carries it. */
export interface HookLogFields {
  level: string;
  message: string;
  /** ISO 8601. */
  loggedAt: string;
}

/**
 * A queued cleanup (the cleaner's work, src/model/cleanups.ts). Entity: the cleanup's id. Queued: every field; done:
 * a removal row. Only a stream that names the kind gets these: they are the cleaner's business, not an entity's.
 */
export interface CleanupFields {
  /** The cleanup's kind ("dying-units", "force-unit", …). */
  kind: string;
  /** What it is about: a relation id, application name, unit name, machine id or model name. */
  target: string;
  /** ISO 8601: not run before then. */
  dueAt?: string;
}

interface Row<K extends string, F> {
  kind: K;
  /** The entity's id in the model: machine id, unit or application name, relation id, charm url, "<relation id>:<unit>". */
  entity: string;
  life: Life | null;
  removed: boolean;
  /** The fields that changed, with their new values (enough to act on without a second read). */
  fields: F;
}

export type Change =
  | Row<"model", ModelFields>
  | Row<"machine", MachineFields>
  | Row<"charm", CharmFields>
  | Row<"application", ApplicationFields>
  | Row<"unit", UnitFields>
  | Row<"relation", RelationFields>
  | Row<"scope", ScopeFields>
  | Row<"settings", SettingsFields>
  | Row<"hook", HookFields>
  | Row<"cleanup", CleanupFields>;

export type EntityKind = Change["kind"];
export type ChangeOf<K extends EntityKind> = Extract<Change, { kind: K }>;
export type FieldsOf<K extends EntityKind> = ChangeOf<K>["fields"];

/** The kinds a stream covers when it names none, in the order a snapshot lists them (every kind but "cleanup"). */
export const entityKinds = [
  "model",
  "machine",
  "charm",
  "application",
  "unit",
  "relation",
  "scope",
  "settings",
  "hook",
] as const satisfies readonly Exclude<EntityKind, "cleanup">[];

const row = <K extends EntityKind>(kind: K, entity: string, life: Life | null, fields: FieldsOf<K>, removed = false): ChangeOf<K> =>
  ({ kind, entity, life, removed, fields }) as ChangeOf<K>;

/** "<relation id>:<unit>": how scope and settings rows name a unit's membership of a relation. */
export const memberId = (relationId: number, unit: string) => `${relationId}:${unit}`;

type ModelRow = typeof models.$inferSelect;
type MachineRow = typeof machines.$inferSelect;
type CharmRow = typeof charms.$inferSelect;
type ApplicationRow = typeof applications.$inferSelect;
type UnitRow = typeof units.$inferSelect;
type RelationRow = typeof relations.$inferSelect;
type ScopeRow = typeof relationScopes.$inferSelect;
type HookRunRow = typeof hookRuns.$inferSelect;
type CleanupRow = typeof cleanups.$inferSelect;

export const modelAdded = (m: ModelRow) =>
  row("model", m.name, m.life, {
    defaultSeries: m.defaultSeries,
    constraints: m.constraints,
    automaticallyRetryHooks: m.automaticallyRetryHooks,
  });
export const modelConfigSet = (m: Pick<ModelRow, "name" | "life" | "automaticallyRetryHooks">) =>
  row("model", m.name, m.life, { automaticallyRetryHooks: m.automaticallyRetryHooks });
export const modelConstraintsSet = (m: Pick<ModelRow, "name" | "life">, constraints: StoredConstraints) =>
  row("model", m.name, m.life, { constraints });
export const modelLifeSet = (name: string, life: Life) => row("model", name, life, {});

export const machineAdded = (m: MachineRow) =>
  row("machine", m.id, m.life, {
    series: m.series,
    jobs: m.jobs,
    constraints: m.constraints,
    parentId: m.parentId,
    status: m.status,
  });
export const machineLifeSet = (id: string, life: Life) => row("machine", id, life, {});
export const machineProvisioned = (m: Pick<MachineRow, "id" | "life" | "instanceId">) =>
  row("machine", m.id, m.life, { instanceId: m.instanceId });
type MachineStatusRow = Pick<MachineRow, "id" | "life" | "status" | "statusMessage" | "statusSince" | "agentLostSince">;
/** A machine's status fields as change rows and snapshots carry them: as shown, and whether its agent is lost. */
export const machineStatusFields = (m: MachineStatusRow) => {
  const { status, statusMessage, statusSince } = shownMachineStatus(m);
  return { status, statusMessage, statusSince: statusSince.toISOString(), agentLostSince: m.agentLostSince?.toISOString() ?? null };
};
/** Its status set, or its agent lost or back (agent-presence.ts). */
export const machineStatusSet = (m: MachineStatusRow) => row("machine", m.id, m.life, machineStatusFields(m));
/** What the provisioner's attempts to start its instance came to. */
export const machineStartFields = (m: Pick<MachineRow, "startAttempts" | "lastStartError">) => ({
  startAttempts: m.startAttempts,
  lastStartError: m.lastStartError,
});
/** An instance start failed: the attempt counted, and its status (pending and retrying, or error). */
export const machineStartFailed = (m: MachineStatusRow & Pick<MachineRow, "startAttempts" | "lastStartError">) =>
  row("machine", m.id, m.life, { ...machineStatusFields(m), ...machineStartFields(m) });
export const machineResolved = (
  m: MachineStatusRow & Pick<MachineRow, "constraints" | "instanceId" | "startAttempts" | "lastStartError">,
) =>
  row("machine", m.id, m.life, {
    constraints: m.constraints,
    instanceId: m.instanceId,
    ...machineStatusFields(m),
    ...machineStartFields(m),
  });
export const machineRemoved = (m: Pick<MachineRow, "id" | "instanceId">) =>
  row("machine", m.id, "dead", { instanceId: m.instanceId }, true);

export const charmAdded = (c: CharmRow) => row("charm", c.url, null, { name: c.name, revision: c.revision });

/** The most config a change row carries, as JSON bytes: enough for most charms, never a burden on every stream. */
export const CONFIG_IN_CHANGES = 4096;

/** `{ config }` when it is small enough to travel in change rows, else nothing. */
export const configIfSmall = (config: ConfigSettings): { config?: ConfigSettings } =>
  Buffer.byteLength(JSON.stringify(config), "utf8") <= CONFIG_IN_CHANGES ? { config } : {};

export const applicationAdded = (a: ApplicationRow, config: ConfigSettings) =>
  row("application", a.name, a.life, {
    charmUrl: a.charmUrl,
    series: a.series,
    subordinate: a.subordinate,
    constraints: a.constraints,
    configVersion: a.configVersion,
    ...configIfSmall(config),
  });
/** `juju config`: the new version, and the effective config when small. */
export const applicationConfigSet = (a: Pick<ApplicationRow, "name" | "life" | "configVersion">, config: ConfigSettings) =>
  row("application", a.name, a.life, { configVersion: a.configVersion, ...configIfSmall(config) });
export const applicationConstraintsSet = (a: ApplicationRow, constraints: StoredConstraints) =>
  row("application", a.name, a.life, { constraints });
export const applicationLifeSet = (name: string, life: Life) => row("application", name, life, {});
export const applicationRemoved = (name: string) => row("application", name, "dead", {}, true);

/**
 * A unit created; a subordinate's row also says which machine it runs on (its principal's, `host`). Its first statuses
 * (allocating, waiting for its machine) too: a watcher that meets the unit here has no other row to read them from.
 */
export const unitAdded = (u: UnitRow, host: string | null = null) =>
  row("unit", u.name, u.life, {
    application: u.application,
    series: u.series,
    machineId: u.machineId,
    principal: u.principal,
    ...(u.principal !== null && { hostMachineId: host }),
    ...unitAgentFields(u),
    ...unitWorkloadFields(u),
  });
/**
 * Every unit row names the unit's application, so a watcher of an application needs no second read.
 * Its agent's status (as shown), message, hook, resolved mode and lost mark travel together: a row is the agent as it
 * stands. Also the row of its agent lost or back (agent-presence.ts).
 */
export const unitAgentChanged = (
  u: Pick<
    UnitRow,
    "name" | "application" | "life" | "agentStatus" | "agentMessage" | "agentStatusData" | "agentSince" | "resolved" | "agentLostSince"
  >,
) => row("unit", u.name, u.life, { application: u.application, ...unitAgentFields(u) });

/** A unit agent's fields as change rows and snapshots carry them. */
export const unitAgentFields = (
  u: Pick<UnitRow, "life" | "agentStatus" | "agentMessage" | "agentStatusData" | "agentSince" | "resolved" | "agentLostSince">,
) => {
  const shown = shownUnitAgent(u);
  return {
    agentStatus: shown.agentStatus,
    agentMessage: shown.agentMessage,
    agentSince: shown.agentSince.toISOString(),
    agentStatusData: shown.agentStatusData,
    resolved: u.resolved,
    agentLostSince: u.agentLostSince?.toISOString() ?? null,
  };
};
/** A charm's status-set. */
export const unitWorkloadStatusSet = (
  u: Pick<UnitRow, "name" | "application" | "life" | "workloadStatus" | "workloadMessage" | "statusSince">,
) => row("unit", u.name, u.life, { application: u.application, ...unitWorkloadFields(u) });
/** A unit's workload status as change rows and snapshots carry it. */
export const unitWorkloadFields = (u: Pick<UnitRow, "workloadStatus" | "workloadMessage" | "statusSince">) => ({
  workloadStatus: u.workloadStatus,
  workloadMessage: u.workloadMessage,
  workloadSince: u.statusSince.toISOString(),
});
export const unitLifeSet = (u: Pick<UnitRow, "name" | "application">, life: Life) =>
  row("unit", u.name, life, { application: u.application });
export const unitRemoved = (u: Pick<UnitRow, "name" | "application" | "machineId" | "principal">) =>
  row("unit", u.name, "dead", { application: u.application, machineId: u.machineId, principal: u.principal }, true);

export const relationAdded = (r: RelationRow, endpoints: string[]) =>
  row("relation", String(r.id), r.life, { key: r.key, scope: r.scope, interface: r.interface, endpoints });
export const relationLifeSet = (id: number, life: Life) => row("relation", String(id), life, {});
export const relationRemoved = (r: Pick<RelationRow, "id" | "key">) => row("relation", String(r.id), "dead", { key: r.key }, true);

const scopeFields = (s: ScopeRow): ScopeFields => ({
  relationId: s.relationId,
  unit: s.unit,
  application: s.application,
  role: s.role,
  container: s.container,
});
export const scopeEntered = (s: ScopeRow) => row("scope", memberId(s.relationId, s.unit), "alive", scopeFields(s));
export const scopeLeft = (s: ScopeRow) => row("scope", memberId(s.relationId, s.unit), null, scopeFields(s), true);

export const settingsWritten = (relationId: number, unit: string, version: number) =>
  row("settings", memberId(relationId, unit), null, { relationId, unit, version });
export const settingsRemoved = (relationId: number, unit: string) =>
  row("settings", memberId(relationId, unit), null, { relationId, unit }, true);

export const hookRunFields = (r: HookRunRow): HookFields => ({
  unit: r.unit,
  application: applicationOfUnit(r.unit),
  run: String(r.id),
  hook: r.hook,
  relationId: r.relationId,
  remoteUnit: r.remoteUnit,
  result: r.result,
  message: r.message,
  startedAt: r.startedAt.toISOString(),
  endedAt: r.endedAt?.toISOString() ?? null,
});
/** A hook run begun or ended: the unit's latest run, as it now stands. */
export const hookRunRecorded = (r: HookRunRow) => row("hook", r.unit, null, hookRunFields(r));
/**
 * A run's juju-log lines kept: the run's identity and the lines just appended (HookFields.log), nothing else, so a
 * reader counting runs by their result counts no line as a run.
 */
export const hookLogAppended = (r: HookRunRow, log: HookLogFields[]) =>
  row("hook", r.unit, null, { unit: r.unit, application: applicationOfUnit(r.unit), run: String(r.id), log });
/** The unit is gone: its latest run leaves the streams (its runs stay, as history: Model.hookHistory). */
export const hookRunsRemoved = (unit: string) => row("hook", unit, null, { unit, application: applicationOfUnit(unit) }, true);

export const cleanupFields = (c: Pick<CleanupRow, "kind" | "target" | "dueAt">): CleanupFields => ({
  kind: c.kind,
  target: c.target,
  dueAt: c.dueAt.toISOString(),
});
/** A cleanup queued: the cleaner's cue to run the queue (Juju's cleaner watches its cleanups collection). */
export const cleanupQueued = (c: Pick<CleanupRow, "id" | "kind" | "target" | "dueAt">) =>
  row("cleanup", String(c.id), null, cleanupFields(c));
/** A cleanup done and gone from the queue. */
export const cleanupDone = (c: Pick<CleanupRow, "id" | "kind" | "target">) =>
  row("cleanup", String(c.id), null, { kind: c.kind, target: c.target }, true);
