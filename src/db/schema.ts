// The store's tables. Every entity row belongs to one model; natural Juju
// identifiers (machine "1/lxd/0", unit "wordpress/0", application name) are
// the keys, so foreign keys read the way Juju's documents reference each other.
// `seq` columns give each table a stable creation order for cursor pagination.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { ConfigOptions, ConfigSettings } from "../core/config.js";
import type { Constraints } from "../core/constraints.js";
import type { AgentStatusData, HookResult, ResolvedMode } from "../core/hooks.js";
import { lives } from "../core/life.js";
import type { ContainerType, MachineJob, UnitAgentStatus } from "../core/machine.js";
import { roles, scopes } from "../core/relation.js";

/** Declared in lifecycle order, so `life < 'dying'` compares as the seeds mean. */
export const lifeEnum = pgEnum("life", lives);
export const roleEnum = pgEnum("relation_role", roles);
export const scopeEnum = pgEnum("relation_scope", scopes);

/** Constraints as stored: the parsed form of Juju's `mem=2G cores=4` syntax. */
export type StoredConstraints = Constraints;

export const models = pgTable("models", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  life: lifeEnum("life").notNull().default("alive"),
  defaultSeries: text("default_series").notNull(),
  constraints: jsonb("constraints").$type<StoredConstraints>().notNull().default({}),
  /** Juju's automatically-retry-hooks: unit agents retry a failed hook by themselves, with backoff, unless this is off. */
  automaticallyRetryHooks: boolean("automatically_retry_hooks").notNull().default(true),
  /** Bumped last in every transaction that changes the model: commit order is revision order. */
  revision: bigint("revision", { mode: "number" }).notNull().default(0),
  /** Change rows at or below this revision have been compacted away; resuming from before it needs a resync. */
  compactedThrough: bigint("compacted_through", { mode: "number" }).notNull().default(0),
  seq: bigserial("seq", { mode: "number" }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Monotonic per-model counters (machine ids, container ids, unit numbers, relation ids); never reused. */
export const sequences = pgTable(
  "sequences",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.name] })],
);

export const machines = pgTable(
  "machines",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    parentId: text("parent_id"),
    containerType: text("container_type").$type<ContainerType>(),
    series: text("series").notNull(),
    jobs: text("jobs").array().$type<MachineJob[]>().notNull(),
    constraints: jsonb("constraints").$type<StoredConstraints>().notNull().default({}),
    instanceId: text("instance_id"),
    status: text("status").notNull().default("pending"),
    statusMessage: text("status_message").notNull().default(""),
    statusSince: timestamp("status_since", { withTimezone: true }).notNull().defaultNow(),
    life: lifeEnum("life").notNull().default("alive"),
    /** Set while its agent is lost (src/model/agent-presence.ts): when it was last connected. Its status then reads `down`. */
    agentLostSince: timestamp("agent_lost_since", { withTimezone: true }),
    /** Instance starts that failed since it was added (or last resolved), the provider's last error, and when. */
    startAttempts: integer("start_attempts").notNull().default(0),
    lastStartError: text("last_start_error"),
    lastStartAttemptAt: timestamp("last_start_attempt_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.id] }),
    foreignKey({ columns: [t.modelId, t.parentId], foreignColumns: [t.modelId, t.id] }),
    index("machines_parent_idx").on(t.modelId, t.parentId),
    index("machines_seq_idx").on(t.modelId, t.seq),
  ],
);

export const charms = pgTable(
  "charms",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    name: text("name").notNull(),
    revision: integer("revision").notNull(),
    subordinate: boolean("subordinate").notNull(),
    series: text("series").array().notNull(),
    /** The normalized metadata (see src/model/charm.ts), endpoints included. */
    metadata: jsonb("metadata").notNull(),
    metadataYaml: text("metadata_yaml").notNull(),
    /** Its hooks/ directory: hook name → the executable's text. */
    hooks: jsonb("hooks").$type<Record<string, string>>().notNull().default({}),
    /** Its config.yaml's options, parsed (src/model/charm-config.ts); the text it was added with, if any. */
    config: jsonb("config").$type<ConfigOptions>().notNull().default({}),
    configYaml: text("config_yaml"),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.url] }),
    unique("charms_name_revision").on(t.modelId, t.name, t.revision),
    index("charms_seq_idx").on(t.modelId, t.seq),
  ],
);

export const applications = pgTable(
  "applications",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    charmUrl: text("charm_url").notNull(),
    series: text("series").notNull(),
    subordinate: boolean("subordinate").notNull(),
    constraints: jsonb("constraints").$type<StoredConstraints>().notNull().default({}),
    /** `juju config`: the options set, typed; the charm's defaults fill in the rest. */
    config: jsonb("config").$type<ConfigSettings>().notNull().default({}),
    /** Bumped by every change to the effective config: unit agents run config-changed when it moves. */
    configVersion: integer("config_version").notNull().default(0),
    life: lifeEnum("life").notNull().default("alive"),
    /** Juju's refcounts: units of the application, relations it takes part in. */
    unitCount: integer("unit_count").notNull().default(0),
    relationCount: integer("relation_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.name] }),
    foreignKey({ columns: [t.modelId, t.charmUrl], foreignColumns: [charms.modelId, charms.url] }),
    index("applications_seq_idx").on(t.modelId, t.seq),
  ],
);

export const units = pgTable(
  "units",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    application: text("application").notNull(),
    number: integer("number").notNull(),
    /** Set on subordinates: the principal unit whose container they share. */
    principal: text("principal"),
    /** Set on principals once assigned. */
    machineId: text("machine_id"),
    series: text("series").notNull(),
    /** Model and application constraints merged at creation (seed 004); not exposed in the API. */
    constraints: jsonb("constraints").$type<StoredConstraints>().notNull().default({}),
    life: lifeEnum("life").notNull().default("alive"),
    workloadStatus: text("workload_status").notNull().default("waiting"),
    workloadMessage: text("workload_message").notNull().default(""),
    agentStatus: text("agent_status").$type<UnitAgentStatus>().notNull().default("allocating"),
    /** Juju's `hook failed: "<hook>"` in error, `running <hook> hook` while executing; empty otherwise. */
    agentMessage: text("agent_message").notNull().default(""),
    /** The hook the agent status is about (its relation and remote unit too), while executing or in error. */
    agentStatusData: jsonb("agent_status_data").$type<AgentStatusData>().notNull().default({}),
    agentSince: timestamp("agent_since", { withTimezone: true }).notNull().defaultNow(),
    /** `juju resolved` on an agent in error: what its agent is to do with the failed hook; null when nothing is asked. */
    resolved: text("resolved").$type<ResolvedMode>(),
    /** The workload status's. */
    statusSince: timestamp("status_since", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set while its agent is lost (src/model/agent-presence.ts): when it was last connected. Its agent status then reads
     * `lost`; the status its agent last set is kept, and reads again once it is back.
     */
    agentLostSince: timestamp("agent_lost_since", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.name] }),
    unique("units_application_number").on(t.modelId, t.application, t.number),
    foreignKey({ columns: [t.modelId, t.application], foreignColumns: [applications.modelId, applications.name] }),
    foreignKey({ columns: [t.modelId, t.machineId], foreignColumns: [machines.modelId, machines.id] }),
    foreignKey({ columns: [t.modelId, t.principal], foreignColumns: [t.modelId, t.name] }),
    index("units_machine_idx").on(t.modelId, t.machineId),
    index("units_principal_idx").on(t.modelId, t.principal),
    index("units_seq_idx").on(t.modelId, t.seq),
  ],
);

export const relations = pgTable(
  "relations",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    id: integer("id").notNull(),
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** Canonical key: "<requirer app:rel> <provider app:rel>", or the single peer endpoint. */
    key: text("key").notNull(),
    interface: text("interface").notNull(),
    scope: scopeEnum("scope").notNull(),
    life: lifeEnum("life").notNull().default("alive"),
    /** Units in scope (Juju's relation unitcount). */
    unitCount: integer("unit_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.id] }),
    unique("relations_key").on(t.modelId, t.key),
    index("relations_seq_idx").on(t.modelId, t.seq),
  ],
);

export const relationEndpoints = pgTable(
  "relation_endpoints",
  {
    modelId: uuid("model_id").notNull(),
    relationId: integer("relation_id").notNull(),
    application: text("application").notNull(),
    name: text("name").notNull(),
    role: roleEnum("role").notNull(),
    interface: text("interface").notNull(),
    scope: scopeEnum("scope").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.relationId, t.application] }),
    foreignKey({ columns: [t.modelId, t.relationId], foreignColumns: [relations.modelId, relations.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.modelId, t.application], foreignColumns: [applications.modelId, applications.name] }),
    index("relation_endpoints_application_idx").on(t.modelId, t.application),
  ],
);

/** Relation scope membership: which units have entered which relation, and in which container. */
export const relationScopes = pgTable(
  "relation_scopes",
  {
    modelId: uuid("model_id").notNull(),
    relationId: integer("relation_id").notNull(),
    unit: text("unit").notNull(),
    application: text("application").notNull(),
    role: roleEnum("role").notNull(),
    /** For container-scoped relations, the principal unit whose container this membership lives in. */
    container: text("container"),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.relationId, t.unit] }),
    foreignKey({ columns: [t.modelId, t.relationId], foreignColumns: [relations.modelId, relations.id] }),
    foreignKey({ columns: [t.modelId, t.unit], foreignColumns: [units.modelId, units.name] }),
    index("relation_scopes_unit_idx").on(t.modelId, t.unit),
    // A unit's relationUnits stream reads the counterpart role's members only (seed 002).
    index("relation_scopes_role_idx").on(t.modelId, t.relationId, t.role, t.container),
  ],
);

/**
 * Per-unit relation settings. They outlive the unit's departure from scope and
 * are deleted only when the relation itself is removed, hence no foreign keys.
 */
export const relationSettings = pgTable(
  "relation_settings",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    relationId: integer("relation_id").notNull(),
    unit: text("unit").notNull(),
    settings: jsonb("settings").$type<Record<string, string>>().notNull().default({}),
    version: integer("version").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.relationId, t.unit] })],
);

/**
 * A unit agent's progress, kept on the server (the seeds' hardware-failure BUG:
 * an agent redeployed with nothing local still knows where it was): an opaque
 * JSON document the agent defines (hooks run, each relation's members and
 * settings versions, the pending operation), saved with each hook it begins
 * and commits. Deleted with its unit.
 */
export const unitAgentStates = pgTable(
  "unit_agent_states",
  {
    modelId: uuid("model_id").notNull(),
    unit: text("unit").notNull(),
    state: jsonb("state").$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.modelId, t.unit] }),
    foreignKey({ columns: [t.modelId, t.unit], foreignColumns: [units.modelId, units.name] }).onDelete("cascade"),
  ],
);

/**
 * Every hook a unit agent ran (issue 10: "so a person can see why a unit is
 * where it is"): begun `running`, ended by its agent's commit. They outlive
 * their unit (issue 35: what ran and why it failed, after a removal), so no
 * foreign key to it: a removal marks them `unitRemovedAt`, and the history is
 * bounded instead, by the latest HOOK_RUNS_KEPT of each unit name and by age
 * (hook-history.ts).
 */
export const hookRuns = pgTable(
  "hook_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    unit: text("unit").notNull(),
    hook: text("hook").notNull(),
    /** For relation hooks: the relation's id (the relation may be gone by the time `-broken` runs). */
    relationId: integer("relation_id"),
    /** For `-joined`, `-changed` and `-departed`: the unit the hook is about. */
    remoteUnit: text("remote_unit"),
    result: text("result").$type<HookResult>().notNull().default("running"),
    /** What the agent said when it committed the run (a failed hook's exit status, say). */
    message: text("message").notNull().default(""),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** When its unit was removed: null while the unit lives. A unit of the same name later is another unit. */
    unitRemovedAt: timestamp("unit_removed_at", { withTimezone: true }),
    /** How many `juju-log` lines hook_log holds for it: bounded (HOOK_LOG_LINES_KEPT). */
    logLines: integer("log_lines").notNull().default(0),
  },
  (t) => [
    index("hook_runs_unit_idx").on(t.modelId, t.unit, t.id),
    index("hook_runs_model_idx").on(t.modelId, t.id),
    // The age bound's prune walks runs by their start.
    index("hook_runs_started_idx").on(t.startedAt),
  ],
);

/** A hook's `juju-log` lines, kept with its run (and pruned with it), in the order its agent sent them. */
export const hookLog = pgTable(
  "hook_log",
  {
    runId: bigint("run_id", { mode: "number" })
      .notNull()
      .references(() => hookRuns.id, { onDelete: "cascade" }),
    /** The line's place in its run: 1, 2, … */
    seq: integer("seq").notNull(),
    /** juju-log's level: DEBUG, INFO, WARNING, ERROR or CRITICAL. */
    level: text("level").notNull(),
    message: text("message").notNull(),
    loggedAt: timestamp("logged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * Bearer credentials, stored only as a SHA-256 hash of the token (tokens are
 * 256 random bits, so a fast hash is enough). People's tokens carry a role;
 * an agent's names its entity, and stops working once the entity is Dead or
 * gone. Login codes are single-use and short-lived: `npm start` prints one in
 * its GraphiQL URL, and redeeming it gives the browser a session token.
 */
export const credentials = pgTable(
  "credentials",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    kind: text("kind").$type<"person" | "machine" | "unit" | "login">().notNull(),
    /** For people: what they may do. */
    role: text("role").$type<"admin" | "operator" | "read-only">(),
    /** For agents: their entity. */
    modelId: uuid("model_id").references(() => models.id, { onDelete: "cascade" }),
    entity: text("entity"),
    description: text("description").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** For people: the models the token may reach, by name; null for every model. */
    models: text("models").array(),
    /** Where a person's token came from: "issued" (issueToken), "environment" (LIFELINE_ADMIN_TOKEN), "bootstrap", "session" (a browser's, from a login link). */
    source: text("source").$type<"issued" | "environment" | "bootstrap" | "session">(),
    /** When the token was last used (kept coarsely): a browser session ends after a while unused. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("credentials_entity_idx").on(t.modelId, t.kind, t.entity)],
);

/** The ordered change log: one row per entity change, numbered by the model's revision. */
export const changes = pgTable(
  "changes",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    revision: bigint("revision", { mode: "number" }).notNull(),
    kind: text("kind").notNull(),
    entity: text("entity").notNull(),
    life: lifeEnum("life"),
    removed: boolean("removed").notNull().default(false),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull().default({}),
    committedAt: timestamp("committed_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.revision] })],
);

/**
 * Work that must happen after a transaction commits, queued inside it: the
 * cleanup queue seed 000 says does not exist (its BUG). A closed list of
 * kinds, each with one handler in src/model/cleanups.ts.
 */
export const cleanups = pgTable(
  "cleanups",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The entity the work is about: a relation id, application name, unit name or machine id. */
    target: text("target").notNull(),
    args: jsonb("args").$type<Record<string, unknown>>().notNull().default({}),
    /** Not run before this instant (force's optional wait before its fallback, or a failed run's backoff). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    /** Runs that failed; the cleaner backs off and goes on with the rest of the queue. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("cleanups_due_idx").on(t.modelId, t.dueAt), index("cleanups_target_idx").on(t.modelId, t.kind, t.target)],
);

/**
 * The server processes on this database, each with its lease: the agents connected to a process count as connected
 * until its lease ends (src/model/agent-presence.ts). A process renews its lease every few seconds, in one statement.
 */
export const serverProcesses = pgTable("server_processes", {
  id: uuid("id").primaryKey(),
  /** Host and pid, for people. */
  label: text("label").notNull(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
  /** Its heartbeat plus its grace period: past this, its agents are lost. */
  leaseUntil: timestamp("lease_until", { withTimezone: true }).notNull(),
});

/**
 * Juju's agent presence: where each agent that has connected is connected (a server process), or since when it is not.
 * Written when an agent arrives at or leaves a process, in batches, not per request; the process's lease stands for
 * every agent it holds.
 */
export const agentPresence = pgTable(
  "agent_presence",
  {
    modelId: uuid("model_id")
      .notNull()
      .references(() => models.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"machine" | "unit">().notNull(),
    /** The machine id or unit name. */
    entity: text("entity").notNull(),
    /** The process it is connected to; null once it left (and then `lostAfter` says when it is lost). */
    server: uuid("server"),
    /** When it was last known connected: its arrival while connected, its departure once gone. */
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
    /** For an agent connected nowhere: its departure plus the grace period of the process it left. */
    lostAfter: timestamp("lost_after", { withTimezone: true }),
    /** Set once it is marked lost (its entity's agentLostSince too): when it was last connected. */
    lostSince: timestamp("lost_since", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.kind, t.entity] }), index("agent_presence_server_idx").on(t.server)],
);
