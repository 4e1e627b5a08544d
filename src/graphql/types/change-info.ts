// What a stream event says of its entity, typed: one GraphQL type per entity kind
// (ModelInfo, MachineInfo, UnitInfo…, as Juju's AllWatcher sends MachineInfo and
// UnitInfo), each field named and typed as the query type's field of the same name
// (Machine.status, Unit.agentStatus, HookRun.result…), with the same enums and value
// types. An event gives its entity in the field of its kind's name (Change.unit for a
// UNIT event), not as a union: GraphQL refuses one selection of a union's members
// whose same-named fields differ in type, and the query types' do (Machine.id is a
// String, Relation.id an Int; Charm.series a list), so a union would have made
// clients alias them or the streams rename them.
//
// A CHANGE carries only what changed: `changed` names the fields it gives, and a
// client merges those into what it holds (STATE events give every field). The values
// are read from the change row alone: no loader, no read, so each event is executed
// once per distinct operation and shared (src/server/shared-execution.ts).
import type { ChangeOf, EntityKind, FieldsOf } from "../../changes/change.js";
import { builder } from "../builder.js";
import { ConstraintsRef, StatusRef } from "./common.js";
import { ContainerTypeEnum, MachineJobEnum, RelationRoleEnum, RelationScopeEnum } from "./enums.js";
import { AgentStatusRef, HookLogLineRef, HookRunResultEnum, ResolvedModeEnum } from "./unit-agent.js";

/** An event's entity, as the info types read it: the row's fields, and when it committed (null for STATE). */
export type InfoOf<K extends EntityKind> = Pick<ChangeOf<K>, "kind" | "entity" | "fields"> & { committedAt: Date | null };

/**
 * Each info type's fields, by the row fields each is made of. An event's `changed` lists the info fields whose row
 * fields it carries; the identifying fields (`always`) are in every event. Typed by the rows: a row field renamed in
 * src/changes/change.ts fails to compile here.
 */
type FieldSources<K extends EntityKind> = Record<string, readonly (keyof FieldsOf<K> & string)[]>;

export const infoFields = {
  model: {
    always: ["name"],
    from: {
      defaultSeries: ["defaultSeries"],
      constraints: ["constraints"],
      automaticallyRetryHooks: ["automaticallyRetryHooks"],
    } satisfies FieldSources<"model">,
  },
  machine: {
    always: ["id"],
    from: {
      series: ["series"],
      jobs: ["jobs"],
      constraints: ["constraints"],
      parentId: ["parentId"],
      containerType: ["containerType"],
      instanceId: ["instanceId"],
      status: ["status", "statusMessage", "statusSince"],
      agentLostSince: ["agentLostSince"],
      startAttempts: ["startAttempts"],
      lastStartError: ["lastStartError"],
    } satisfies FieldSources<"machine">,
  },
  charm: {
    always: ["url"],
    from: { name: ["name"], revision: ["revision"], subordinate: ["subordinate"], series: ["series"] } satisfies FieldSources<"charm">,
  },
  application: {
    always: ["name"],
    from: {
      charmUrl: ["charmUrl"],
      series: ["series"],
      subordinate: ["subordinate"],
      constraints: ["constraints"],
      unitCount: ["unitCount"],
      relationCount: ["relationCount"],
      configVersion: ["configVersion"],
      config: ["config"],
    } satisfies FieldSources<"application">,
  },
  unit: {
    always: ["name"],
    from: {
      applicationName: ["application"],
      series: ["series"],
      machineId: ["machineId", "hostMachineId"],
      principalName: ["principal"],
      subordinate: ["principal"],
      workloadStatus: ["workloadStatus", "workloadMessage", "workloadSince"],
      agentStatus: ["agentStatus", "agentMessage", "agentSince", "agentStatusData"],
      resolved: ["resolved"],
      agentLostSince: ["agentLostSince"],
    } satisfies FieldSources<"unit">,
  },
  relation: {
    always: ["id"],
    from: {
      key: ["key"],
      scope: ["scope"],
      interface: ["interface"],
      endpoints: ["endpoints"],
      unitCount: ["unitCount"],
    } satisfies FieldSources<"relation">,
  },
  scope: {
    always: ["relationId", "unitName"],
    from: { applicationName: ["application"], role: ["role"], container: ["container"] } satisfies FieldSources<"scope">,
  },
  settings: {
    always: ["relationId", "unitName"],
    from: { version: ["version"] } satisfies FieldSources<"settings">,
  },
  hook: {
    always: ["unitName", "applicationName"],
    from: {
      id: ["run"],
      hook: ["hook"],
      relation: ["relationId"],
      remoteUnit: ["remoteUnit"],
      result: ["result"],
      message: ["message"],
      startedAt: ["startedAt"],
      endedAt: ["endedAt"],
      logged: ["log"],
    } satisfies FieldSources<"hook">,
  },
  cleanup: {
    always: ["id", "kind", "target"],
    from: { dueAt: ["dueAt"] } satisfies FieldSources<"cleanup">,
  },
} as const satisfies { [K in EntityKind]: { always: readonly string[]; from: FieldSources<K> } };

/** Each kind's info fields with their row fields, listed once: `changedFields` runs for every event an operation gets. */
const sourcesByKind = new Map(
  Object.entries(infoFields).map(([kind, { from }]) => [kind, Object.entries(from) as [string, readonly string[]][]]),
);

/** The info fields an event gives values for: its identifying fields, and those whose row fields it carries. */
export function changedFields(kind: EntityKind, fields: object): string[] {
  const changed: string[] = [...infoFields[kind].always];
  for (const [name, sources] of sourcesByKind.get(kind)!) if (sources.some((source) => source in fields)) changed.push(name);
  return changed;
}

const at = (iso: string | null | undefined) => (iso == null ? iso : new Date(iso));
/** A status's `since`: the row's, else (rows written before it was kept) when the row committed. */
const since = (iso: string | undefined, e: { committedAt: Date | null }) => (iso ? new Date(iso) : (e.committedAt ?? new Date(0)));

const ModelInfo = builder.objectRef<InfoOf<"model">>("ModelInfo").implement({
  description: "A model, as a stream event gives it (fields as Model's).",
  fields: (t) => ({
    name: t.string({ resolve: (e) => e.entity }),
    defaultSeries: t.string({ nullable: true, resolve: (e) => e.fields.defaultSeries }),
    constraints: t.field({ type: ConstraintsRef, nullable: true, resolve: (e) => e.fields.constraints }),
    automaticallyRetryHooks: t.boolean({ nullable: true, resolve: (e) => e.fields.automaticallyRetryHooks }),
  }),
});

const MachineInfo = builder.objectRef<InfoOf<"machine">>("MachineInfo").implement({
  description: "A machine, as a stream event gives it (fields as Machine's).",
  fields: (t) => ({
    id: t.string({ resolve: (e) => e.entity }),
    series: t.string({ nullable: true, resolve: (e) => e.fields.series }),
    jobs: t.field({ type: [MachineJobEnum], nullable: true, resolve: (e) => e.fields.jobs }),
    constraints: t.field({ type: ConstraintsRef, nullable: true, resolve: (e) => e.fields.constraints }),
    parentId: t.string({ nullable: true, resolve: (e) => e.fields.parentId }),
    containerType: t.field({ type: ContainerTypeEnum, nullable: true, resolve: (e) => e.fields.containerType }),
    instanceId: t.string({ nullable: true, resolve: (e) => e.fields.instanceId }),
    status: t.field({
      type: StatusRef,
      nullable: true,
      resolve: ({ fields: f, committedAt }) =>
        f.status === undefined ? null : { current: f.status, message: f.statusMessage ?? "", since: since(f.statusSince, { committedAt }) },
    }),
    agentLostSince: t.field({ type: "DateTime", nullable: true, resolve: (e) => at(e.fields.agentLostSince) }),
    startAttempts: t.int({ nullable: true, resolve: (e) => e.fields.startAttempts }),
    lastStartError: t.string({ nullable: true, resolve: (e) => e.fields.lastStartError }),
  }),
});

const CharmInfo = builder.objectRef<InfoOf<"charm">>("CharmInfo").implement({
  description: "A charm, as a stream event gives it (fields as Charm's).",
  fields: (t) => ({
    url: t.string({ resolve: (e) => e.entity }),
    name: t.string({ nullable: true, resolve: (e) => e.fields.name }),
    revision: t.int({ nullable: true, resolve: (e) => e.fields.revision }),
    subordinate: t.boolean({ nullable: true, resolve: (e) => e.fields.subordinate }),
    series: t.stringList({ nullable: true, resolve: (e) => e.fields.series }),
  }),
});

const ApplicationInfo = builder.objectRef<InfoOf<"application">>("ApplicationInfo").implement({
  description: "An application, as a stream event gives it (fields as Application's).",
  fields: (t) => ({
    name: t.string({ resolve: (e) => e.entity }),
    charmUrl: t.string({ nullable: true, resolve: (e) => e.fields.charmUrl }),
    series: t.string({ nullable: true, resolve: (e) => e.fields.series }),
    subordinate: t.boolean({ nullable: true, resolve: (e) => e.fields.subordinate }),
    constraints: t.field({ type: ConstraintsRef, nullable: true, resolve: (e) => e.fields.constraints }),
    unitCount: t.int({ nullable: true, resolve: (e) => e.fields.unitCount }),
    relationCount: t.int({ nullable: true, resolve: (e) => e.fields.relationCount }),
    configVersion: t.int({ nullable: true, resolve: (e) => e.fields.configVersion }),
    config: t.field({
      type: "JSONObject",
      nullable: true,
      description: "Its effective config, when small enough to travel with the event (4 KiB of JSON); else read Application.config.",
      resolve: (e) => e.fields.config,
    }),
  }),
});

const UnitInfo = builder.objectRef<InfoOf<"unit">>("UnitInfo").implement({
  description: "A unit, as a stream event gives it (fields as Unit's).",
  fields: (t) => ({
    name: t.string({ resolve: (e) => e.entity }),
    applicationName: t.string({ nullable: true, resolve: (e) => e.fields.application }),
    series: t.string({ nullable: true, resolve: (e) => e.fields.series }),
    machineId: t.string({
      nullable: true,
      description: "The machine it runs on: a principal's assigned machine, a subordinate's principal's.",
      resolve: (e) => e.fields.machineId ?? e.fields.hostMachineId,
    }),
    principalName: t.string({ nullable: true, resolve: (e) => e.fields.principal }),
    subordinate: t.boolean({ nullable: true, resolve: (e) => (e.fields.principal === undefined ? null : e.fields.principal !== null) }),
    workloadStatus: t.field({
      type: StatusRef,
      nullable: true,
      resolve: ({ fields: f, committedAt }) =>
        f.workloadStatus === undefined
          ? null
          : { current: f.workloadStatus, message: f.workloadMessage ?? "", since: since(f.workloadSince, { committedAt }) },
    }),
    agentStatus: t.field({
      type: AgentStatusRef,
      nullable: true,
      resolve: ({ fields: f, committedAt }) =>
        f.agentStatus === undefined
          ? null
          : {
              current: f.agentStatus,
              message: f.agentMessage ?? "",
              since: since(f.agentSince, { committedAt }),
              hook: f.agentStatusData?.hook ?? null,
              relation: f.agentStatusData?.relationId ?? null,
              remoteUnit: f.agentStatusData?.remoteUnit ?? null,
            },
    }),
    resolved: t.field({ type: ResolvedModeEnum, nullable: true, resolve: (e) => e.fields.resolved }),
    agentLostSince: t.field({ type: "DateTime", nullable: true, resolve: (e) => at(e.fields.agentLostSince) }),
  }),
});

interface EndpointName {
  applicationName: string;
  name: string;
}

const RelationEndpointInfo = builder.objectRef<EndpointName>("RelationEndpointInfo").implement({
  description: "One side of a relation, as a stream event names it (fields as RelationEndpoint's).",
  fields: (t) => ({ applicationName: t.exposeString("applicationName"), name: t.exposeString("name") }),
});

/** "wordpress:db" → its application and endpoint names. */
const endpointNamed = (spelled: string): EndpointName => {
  const at = spelled.indexOf(":");
  return { applicationName: spelled.slice(0, at), name: spelled.slice(at + 1) };
};

const RelationInfo = builder.objectRef<InfoOf<"relation">>("RelationInfo").implement({
  description: "A relation, as a stream event gives it (fields as Relation's).",
  fields: (t) => ({
    id: t.int({ resolve: (e) => Number(e.entity) }),
    key: t.string({ nullable: true, resolve: (e) => e.fields.key }),
    scope: t.field({ type: RelationScopeEnum, nullable: true, resolve: (e) => e.fields.scope }),
    interface: t.string({ nullable: true, resolve: (e) => e.fields.interface }),
    endpoints: t.field({ type: [RelationEndpointInfo], nullable: true, resolve: (e) => e.fields.endpoints?.map(endpointNamed) }),
    unitCount: t.int({ nullable: true, resolve: (e) => e.fields.unitCount }),
  }),
});

const ScopeInfo = builder.objectRef<InfoOf<"scope">>("ScopeInfo").implement({
  description: "A unit in a relation's scope, as a stream event gives it (fields as ScopeMember's, with the relation's id).",
  fields: (t) => ({
    relationId: t.int({ resolve: (e) => e.fields.relationId }),
    unitName: t.string({ resolve: (e) => e.fields.unit }),
    applicationName: t.string({ nullable: true, resolve: (e) => e.fields.application }),
    role: t.field({ type: RelationRoleEnum, nullable: true, resolve: (e) => e.fields.role }),
    container: t.string({ nullable: true, resolve: (e) => e.fields.container }),
  }),
});

const SettingsInfo = builder.objectRef<InfoOf<"settings">>("SettingsInfo").implement({
  description: "A unit's settings in a relation, by their version (fields as RelationSettings', with the relation's id).",
  fields: (t) => ({
    relationId: t.int({ resolve: (e) => e.fields.relationId }),
    unitName: t.string({ resolve: (e) => e.fields.unit }),
    version: t.int({ nullable: true, resolve: (e) => e.fields.version }),
  }),
});

const HookInfo = builder.objectRef<InfoOf<"hook">>("HookInfo").implement({
  description: "A unit's latest hook run, as a stream event gives it (fields as HookRun's).",
  fields: (t) => ({
    id: t.id({ nullable: true, resolve: (e) => e.fields.run }),
    unitName: t.string({ resolve: (e) => e.fields.unit }),
    applicationName: t.string({ resolve: (e) => e.fields.application }),
    hook: t.string({ nullable: true, resolve: (e) => e.fields.hook }),
    relation: t.int({ nullable: true, resolve: (e) => e.fields.relationId }),
    remoteUnit: t.string({ nullable: true, resolve: (e) => e.fields.remoteUnit }),
    result: t.field({ type: HookRunResultEnum, nullable: true, resolve: (e) => e.fields.result }),
    message: t.string({ nullable: true, resolve: (e) => e.fields.message }),
    startedAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => at(e.fields.startedAt) }),
    endedAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => at(e.fields.endedAt) }),
    logged: t.field({
      type: [HookLogLineRef],
      nullable: true,
      description:
        "On an event for the run's juju-log lines only: the lines just kept (the run's earlier ones are on HookRun.log); null otherwise.",
      resolve: (e) => e.fields.log?.map((l) => ({ ...l, loggedAt: new Date(l.loggedAt) })) ?? null,
    }),
  }),
});

const CleanupInfo = builder.objectRef<InfoOf<"cleanup">>("CleanupInfo").implement({
  description: "A cleanup queued for the cleaner (src/model/cleanups.ts), or done.",
  fields: (t) => ({
    id: t.id({ resolve: (e) => e.entity }),
    kind: t.string({ resolve: (e) => e.fields.kind, description: 'What it does: "dying-units", "force-unit", …' }),
    target: t.string({
      resolve: (e) => e.fields.target,
      description: "What it is about: a relation id, application, unit, machine or model.",
    }),
    dueAt: t.field({ type: "DateTime", nullable: true, resolve: (e) => at(e.fields.dueAt), description: "Not run before then." }),
  }),
});

export const infoDescription = (kind: string) =>
  `For ${kind} events, the entity (null for other events), with the query types' field names, enums and scalars. STATE: every field the ` +
  "stream knows. CHANGE: the fields in `changed` (the others are null here and did not change); a removal gives its identifying fields.";

/** Each kind's info type: a field of Change of the kind's name (Change.unit, Change.machine…). */
export const infoTypes = {
  model: ModelInfo,
  machine: MachineInfo,
  charm: CharmInfo,
  application: ApplicationInfo,
  unit: UnitInfo,
  relation: RelationInfo,
  scope: ScopeInfo,
  settings: SettingsInfo,
  hook: HookInfo,
  cleanup: CleanupInfo,
} as const;
