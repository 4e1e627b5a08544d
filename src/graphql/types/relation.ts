// A relation, its endpoints, scope and settings, and how a model answers for its relations; its operations are beside
// it, in relation-mutations.ts.
import { LifelineError } from "../../core/errors.js";
import {
  entityKey,
  type RelationEndpointRow,
  relationBlockers,
  relationEndpointsFor,
  relationsPage,
  relationWithKey,
  type ScopeRow,
  type SettingsRow,
  scopeMembers,
  unitSettings,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { ApplicationRef, ModelRef, RelationRef, UnitRef } from "../refs.js";
import { BlockerRef, blockersDescription } from "./blocker.js";
import { LifeEnum, RelationRoleEnum, RelationScopeEnum } from "./enums.js";

const RelationEndpointRef = builder.objectRef<RelationEndpointRow>("RelationEndpoint").implement({
  fields: (t) => ({
    applicationName: t.exposeString("application"),
    application: t.field({ type: ApplicationRef, resolve: (e) => entityKey(e.modelId, e.application) }),
    name: t.exposeString("name"),
    role: t.expose("role", { type: RelationRoleEnum }),
    interface: t.exposeString("interface"),
    scope: t.expose("scope", { type: RelationScopeEnum }),
  }),
});

export const ScopeMemberRef = builder.objectRef<ScopeRow>("ScopeMember").implement({
  description: "A unit in a relation's scope.",
  fields: (t) => ({
    unit: t.field({ type: UnitRef, resolve: (m) => entityKey(m.modelId, m.unit) }),
    unitName: t.exposeString("unit"),
    role: t.expose("role", { type: RelationRoleEnum }),
    container: t.exposeString("container", {
      nullable: true,
      description: "For container-scoped relations: the principal whose container this scope is.",
    }),
  }),
});

const SettingRef = builder.objectRef<{ key: string; value: string }>("Setting").implement({
  fields: (t) => ({ key: t.exposeString("key"), value: t.exposeString("value") }),
});

const RelationSettingsRef = builder.objectRef<SettingsRow>("RelationSettings").implement({
  description: "A unit's settings in a relation (relation-get). They outlive its departure until the relation is removed.",
  fields: (t) => ({
    unit: t.exposeString("unit"),
    unitName: t.exposeString("unit", { description: "The same as `unit`, spelled as ScopeMember and the streams' SettingsInfo spell it." }),
    version: t.exposeInt("version"),
    values: t.field({
      type: [SettingRef],
      resolve: (s) =>
        Object.entries(s.settings)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, value]) => ({ key, value })),
    }),
  }),
});

RelationRef.implement({
  description: 'A relation between applications\' endpoints, known by its id and its canonical key ("wordpress:db mysql:db").',
  authScopes: (r) => ({ reached: { modelId: r.modelId, entity: { kind: "relation", key: r.key } } }),
  fields: (t) => ({
    id: t.exposeInt("id"),
    key: t.exposeString("key"),
    interface: t.exposeString("interface"),
    scope: t.expose("scope", { type: RelationScopeEnum }),
    life: t.expose("life", { type: LifeEnum }),
    unitCount: t.exposeInt("unitCount", { description: "Units in the relation's scope." }),
    endpoints: t.loadableList({
      type: RelationEndpointRef,
      load: (keys: string[], ctx) => relationEndpointsFor(ctx.db, keys),
      resolve: (r) => entityKey(r.modelId, r.id),
    }),
    members: t.field({
      type: [ScopeMemberRef],
      description: "The units in the relation's scope.",
      resolve: (r, _args, ctx) => scopeMembers(ctx.db, r),
    }),
    settings: t.field({
      type: RelationSettingsRef,
      nullable: true,
      args: { unit: t.arg.string({ required: true }) },
      resolve: (r, args, ctx) => unitSettings(ctx.db, r, args.unit),
    }),
    blockers: t.field({ type: [BlockerRef], description: blockersDescription, resolve: (r, _args, ctx) => relationBlockers(ctx.db, r) }),
  }),
});

builder.objectFields(ModelRef, (t) => ({
  relation: t.field({
    type: RelationRef,
    nullable: true,
    description: "A relation by id or by canonical key; give one.",
    args: { id: t.arg.int(), key: t.arg.string() },
    authScopes: (model, args) => ({ readsRelation: { model: model.name, relation: args.id ?? args.key ?? "" } }),
    resolve: (model, args, ctx) => {
      if ((args.id == null) === (args.key == null))
        throw new LifelineError("INVALID_ARGUMENT", "look a relation up by exactly one of id and key");
      return args.id != null ? entityKey(model.id, args.id) : relationWithKey(ctx.db, model, args.key!);
    },
  }),
  relations: t.connection({
    type: RelationRef,
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args, ctx) => pagedConnection(args, (window) => relationsPage(ctx.db, model, window)),
  }),
}));
