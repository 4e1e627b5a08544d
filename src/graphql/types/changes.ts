// Change streams as GraphQL subscriptions (graphql-ws and SSE). Every stream is
// served by the process's ChangeFeed from the one change log; the fields here only
// parse arguments, pick a Watcher, and shape events. Event fields are plain data
// with no loaders, which is what lets the server execute each event once per
// distinct operation and share the result (src/server/shared-execution.ts).
import { GraphQLError, Kind } from "graphql";
import type { EntityKind } from "../../changes/change.js";
import { StreamFailure } from "../../changes/stream.js";
import type { ChangeEvent } from "../../changes/stream-event.js";
import {
  applicationRelations,
  machineLife,
  machineUnits,
  modelChanges,
  relationMembers,
  relationUnits,
  together,
  unitLife,
  type Watcher,
} from "../../changes/watchers.js";
import { LifelineError } from "../../core/errors.js";
import { checkApplicationName, checkMachineId, modelNamed, parseUnitName } from "../../model/index.js";
import { builder } from "../builder.js";
import type { Context } from "../context.js";
import { changedFields, infoDescription, infoTypes } from "./change-info.js";
import { LifeEnum } from "./enums.js";

/** Deeper JSON is refused: storing it (JSON.stringify, the driver) recurses once a level. */
const MAX_JSON_DEPTH = 64;

/**
 * Objects already found shallow enough. A request's variables are coerced up to three times (with a code before
 * execution, by the cost rule, by graphql-js), each time the same object: the walk over a 20,000-key state once.
 */
const shallowEnough = new WeakSet<object>();

function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [object, number][] = value !== null && typeof value === "object" ? [[value, 1]] : [];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (depth > max) return true;
    // Only objects go on the stack; for…in builds no array of the values (a third of the walk on a 20,000-key state).
    for (const key in item) {
      const child = (item as Record<string, unknown>)[key];
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}

builder.scalarType("JSONObject", {
  description: `A JSON object, nested at most ${MAX_JSON_DEPTH} deep.`,
  serialize: (value) => value as Record<string, unknown>,
  parseValue: (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GraphQLError("JSONObject must be an object");
    if (shallowEnough.has(value)) return value as Record<string, unknown>;
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new GraphQLError(`JSONObject nests deeper than ${MAX_JSON_DEPTH} levels`);
    shallowEnough.add(value);
    return value as Record<string, unknown>;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.OBJECT) throw new GraphQLError("JSONObject must be an object");
    throw new GraphQLError("JSONObject literals are not supported; pass a variable");
  },
});

export const EntityKindEnum = builder.enumType("EntityKind", {
  description: "What a change is about.",
  values: {
    MODEL: { value: "model" as const },
    MACHINE: { value: "machine" as const },
    CHARM: { value: "charm" as const },
    APPLICATION: { value: "application" as const },
    UNIT: { value: "unit" as const },
    RELATION: { value: "relation" as const },
    SCOPE: { value: "scope" as const, description: 'A unit entering or leaving a relation\'s scope; entity "<relation id>:<unit>".' },
    SETTINGS: { value: "settings" as const, description: 'A unit\'s relation settings version; entity "<relation id>:<unit>".' },
    HOOK: {
      value: "hook" as const,
      description: "A unit's latest hook run, begun or ended; entity: the unit's name. A snapshot holds each unit's latest run.",
    },
    CLEANUP: {
      value: "cleanup" as const,
      description:
        "A cleanup queued for the cleaner, or done (removed); entity: its id. Only streams that name this kind get these: the cleaner watches them.",
    },
  } satisfies Record<string, { value: EntityKind; description?: string }>,
});

const ChangeTypeEnum = builder.enumType("ChangeType", {
  values: {
    STATE: { value: "state" as const, description: "An entity as it stands at the snapshot's revision (sent first, before any CHANGE)." },
    CHANGE: { value: "change" as const, description: "One change-log row: what changed, at its revision." },
    BOOKMARK: {
      value: "bookmark" as const,
      description:
        "No entity: everything up to `revision` has been sent. Ends a snapshot and a resume's replay; sent while a stream is idle, and soon " +
        "after the model moves past it by changes it does not cover, so a stream always reaches Model.revision (docs/streams.md).",
    },
  },
});

const ChangeRef = builder.objectRef<ChangeEvent>("Change").implement({
  description:
    "One event of a change stream. Resume a stream by passing the `revision` of the last event you processed as `since`: " +
    "you get exactly the changes after it.",
  fields: (t) => ({
    type: t.expose("type", { type: ChangeTypeEnum }),
    revision: t.string({
      description: "The model's revision this event brings you to (a decimal integer).",
      resolve: (e) => String(e.revision),
    }),
    kind: t.expose("kind", { type: EntityKindEnum, nullable: true, description: "Null for bookmarks." }),
    entity: t.exposeString("entity", {
      nullable: true,
      description: 'The entity\'s id in the model ("wordpress/0", "1/lxd/0", "3"); null for bookmarks.',
    }),
    life: t.expose("life", { type: LifeEnum, nullable: true }),
    removed: t.exposeBoolean("removed", { description: "The entity is gone from the model." }),
    // The entity, in the field of its kind's name (src/graphql/types/change-info.ts).
    model: t.field({
      type: infoTypes.model,
      nullable: true,
      description: infoDescription("MODEL"),
      resolve: (e) => (e.kind === "model" ? e : null),
    }),
    machine: t.field({
      type: infoTypes.machine,
      nullable: true,
      description: infoDescription("MACHINE"),
      resolve: (e) => (e.kind === "machine" ? e : null),
    }),
    charm: t.field({
      type: infoTypes.charm,
      nullable: true,
      description: infoDescription("CHARM"),
      resolve: (e) => (e.kind === "charm" ? e : null),
    }),
    application: t.field({
      type: infoTypes.application,
      nullable: true,
      description: infoDescription("APPLICATION"),
      resolve: (e) => (e.kind === "application" ? e : null),
    }),
    unit: t.field({
      type: infoTypes.unit,
      nullable: true,
      description: infoDescription("UNIT"),
      resolve: (e) => (e.kind === "unit" ? e : null),
    }),
    relation: t.field({
      type: infoTypes.relation,
      nullable: true,
      description: infoDescription("RELATION"),
      resolve: (e) => (e.kind === "relation" ? e : null),
    }),
    scope: t.field({
      type: infoTypes.scope,
      nullable: true,
      description: infoDescription("SCOPE"),
      resolve: (e) => (e.kind === "scope" ? e : null),
    }),
    settings: t.field({
      type: infoTypes.settings,
      nullable: true,
      description: infoDescription("SETTINGS"),
      resolve: (e) => (e.kind === "settings" ? e : null),
    }),
    hook: t.field({
      type: infoTypes.hook,
      nullable: true,
      description: infoDescription("HOOK"),
      resolve: (e) => (e.kind === "hook" ? e : null),
    }),
    cleanup: t.field({
      type: infoTypes.cleanup,
      nullable: true,
      description: infoDescription("CLEANUP"),
      resolve: (e) => (e.kind === "cleanup" ? e : null),
    }),
    changed: t.stringList({
      description:
        "The fields of the event's entity (in the field of its kind's name) that this event gives values for: merge these into what you hold. Empty for bookmarks.",
      resolve: (e) => (e.type === "bookmark" ? [] : changedFields(e.kind, e.fields)),
    }),
    committedAt: t.expose("committedAt", { type: "DateTime", nullable: true, description: "When a CHANGE committed." }),
  }),
});

const parseRevision = (since: string | null | undefined): number | null => {
  if (since == null) return null;
  if (!/^\d{1,15}$/.test(since))
    throw new LifelineError("INVALID_ARGUMENT", `"since" must be a revision (a decimal integer), got "${since}"`);
  return Number(since);
};

async function open(ctx: Context, model: string, watcher: Watcher, since: string | null | undefined) {
  if (!ctx.feed) throw new Error("change streams are not running in this process");
  const revision = parseRevision(since);
  const row = await modelNamed(ctx.db, model);
  return ctx.feed.open({ modelId: row.id, watcher, since: revision });
}

/** A stream's failure (e.g. RESYNC_REQUIRED once it fell behind the retention window) arrives as its last result's error. */
const resolveEvent = (event: ChangeEvent | StreamFailure): ChangeEvent => {
  if (event instanceof StreamFailure) throw event.error;
  return event;
};

const sinceDescription =
  "Resume after this revision: the changes after it, with no snapshot. Fails with RESYNC_REQUIRED when the log no longer holds them.";

builder.subscriptionFields((t) => ({
  changes: t.field({
    type: ChangeRef,
    description:
      "A model's changes: first the current state of everything the filters cover (STATE events at revision R, then a BOOKMARK at R), " +
      "then every change after R, in order. Filters combine with AND; a removal always passes the life filter.",
    args: {
      model: t.arg.string({ required: true }),
      kinds: t.arg({ type: [EntityKindEnum] }),
      entities: t.arg.stringList({ description: "Entity ids, as events spell them." }),
      life: t.arg({ type: [LifeEnum] }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ wholeModel: args.model }),
    subscribe: (_root, args, ctx) => open(ctx, args.model, modelChanges(args), args.since),
    resolve: resolveEvent,
  }),
  unitLife: t.field({
    type: ChangeRef,
    description: "A unit's own changes and its application's: what a unit agent watches to know when to stop.",
    args: {
      model: t.arg.string({ required: true }),
      unit: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ readsUnit: args }),
    subscribe: (_root, args, ctx) => {
      parseUnitName(args.unit);
      return open(ctx, args.model, unitLife(args.unit), args.since);
    },
    resolve: resolveEvent,
  }),
  machineLife: t.field({
    type: ChangeRef,
    description: "A machine's own changes and its containers': what its machine agent watches to know when it is Dying and empty.",
    args: {
      model: t.arg.string({ required: true }),
      machine: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ readsMachine: args }),
    subscribe: (_root, args, ctx) => open(ctx, args.model, machineLife(checkMachineId(args.machine)), args.since),
    resolve: resolveEvent,
  }),
  machineUnits: t.field({
    type: ChangeRef,
    description: "The units assigned to a machine, principals and their subordinates: what a machine agent deploys and removes.",
    args: {
      model: t.arg.string({ required: true }),
      machine: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ readsMachine: args }),
    subscribe: (_root, args, ctx) => open(ctx, args.model, machineUnits(checkMachineId(args.machine)), args.since),
    resolve: resolveEvent,
  }),
  machineAgent: t.field({
    type: ChangeRef,
    description:
      "What a machine agent watches, in one stream: its machine's and containers' changes (as machineLife) and the units assigned to it " +
      "(as machineUnits), one snapshot for both.",
    args: {
      model: t.arg.string({ required: true }),
      machine: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ readsMachine: args }),
    subscribe: (_root, args, ctx) => {
      const machine = checkMachineId(args.machine);
      return open(ctx, args.model, together(machineLife(machine), machineUnits(machine)), args.since);
    },
    resolve: resolveEvent,
  }),
  unitAgent: t.field({
    type: ChangeRef,
    description:
      "What a unit agent watches, in one stream: its unit's and its application's changes (as unitLife), its application's " +
      "relations (as applicationRelations) and, in each of those relations, the members it sees as relationUnits shows them to it " +
      "(counterpart units entering and leaving scope, their settings versions while in scope), whether or not it is in the relation's " +
      "scope yet; one snapshot for all three.",
    args: {
      model: t.arg.string({ required: true }),
      unit: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    // Both streams' checks: the unit, and its application (a unit's machine agent reads the one, not the other).
    authScopes: (_root, args) => ({
      $all: { readsUnit: args, readsApplication: { model: args.model, application: args.unit.slice(0, args.unit.indexOf("/")) } },
    }),
    subscribe: (_root, args, ctx) => {
      const { application } = parseUnitName(args.unit);
      return open(
        ctx,
        args.model,
        together(unitLife(args.unit), applicationRelations(application), relationMembers(args.unit)),
        args.since,
      );
    },
    resolve: resolveEvent,
  }),
  applicationRelations: t.field({
    type: ChangeRef,
    description: "The relations an application takes part in: what a unit agent joins and departs.",
    args: {
      model: t.arg.string({ required: true }),
      application: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ readsApplication: args }),
    subscribe: (_root, args, ctx) => open(ctx, args.model, applicationRelations(checkApplicationName(args.application)), args.since),
    resolve: resolveEvent,
  }),
  relationUnits: t.field({
    type: ChangeRef,
    description:
      "A relation as one of its units sees it (seed 002): the relation's own changes; the counterpart units entering and leaving scope " +
      "(providers see requirers, requirers see providers, peers see each other; container-scoped relations only within the unit's container); " +
      "and the settings versions of those units while they are in scope.",
    args: {
      model: t.arg.string({ required: true }),
      relation: t.arg.int({ required: true }),
      unit: t.arg.string({ required: true }),
      since: t.arg.string({ description: sinceDescription }),
    },
    authScopes: (_root, args) => ({ watchesRelation: args }),
    subscribe: (_root, args, ctx) => {
      parseUnitName(args.unit);
      return open(ctx, args.model, relationUnits(args.relation, args.unit), args.since);
    },
    resolve: resolveEvent,
  }),
}));
