import {
  applicationBlockers,
  applicationConfig,
  applicationsPage,
  charmMetadata,
  checkApplicationName,
  DEFAULT_MODEL,
  deploy,
  entityKey,
  relationsOfApplications,
  removeApplications,
  setApplicationConfig,
  unitsPage,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { ApplicationRef, CharmRef, ModelRef, RelationRef, UnitRef } from "../refs.js";
import { BlockerRef, blockersDescription } from "./blocker.js";
import { CharmEndpointRef } from "./charm.js";
import { ConstraintsRef, SettingInput } from "./common.js";
import { LifeEnum } from "./enums.js";
import { RemovalResultRef, removal, removalOptions } from "./removal.js";

ApplicationRef.implement({
  description: "An application: a charm deployed under a name, with its units and relations.",
  authScopes: (app) => ({ reached: { modelId: app.modelId, entity: { kind: "application", name: app.name } } }),
  fields: (t) => ({
    name: t.exposeString("name"),
    life: t.expose("life", { type: LifeEnum }),
    series: t.exposeString("series", { description: "Set at deploy; never changes (seed 004)." }),
    subordinate: t.exposeBoolean("subordinate"),
    constraints: t.field({
      type: ConstraintsRef,
      description: "Captured by each unit at its creation, merged over the model's (seed 004).",
      resolve: (app) => app.constraints,
    }),
    config: t.field({
      type: "JSONObject",
      description:
        "Its effective config (`juju config <application>`): each option's setting, else its charm's default; options with neither are left out.",
      resolve: async (app, _args, ctx) =>
        applicationConfig(app, await CharmRef.getDataloader(ctx).load(entityKey(app.modelId, app.charmUrl))),
    }),
    configVersion: t.exposeInt("configVersion", {
      description: "Moves with every change to its effective config: its units' agents run config-changed when it does.",
    }),
    unitCount: t.exposeInt("unitCount"),
    relationCount: t.exposeInt("relationCount"),
    charmUrl: t.exposeString("charmUrl"),
    charm: t.field({ type: CharmRef, resolve: (app) => entityKey(app.modelId, app.charmUrl) }),
    endpoints: t.field({
      type: [CharmEndpointRef],
      description: "The charm's endpoints, including the implicit juju-info.",
      resolve: async (app, _args, ctx) => {
        const charm = await CharmRef.getDataloader(ctx).load(entityKey(app.modelId, app.charmUrl));
        return charmMetadata(charm).endpoints;
      },
    }),
    units: t.connection({
      type: UnitRef,
      // Its units' agents read their application, not their peers' units.
      authScopes: (app) => ({ reached: { modelId: app.modelId, entity: { kind: "model" } } }),
      resolve: (app, args, ctx) =>
        pagedConnection(args, (window) => unitsPage(ctx.db, { modelId: app.modelId, application: app.name }, window)),
    }),
    relations: t.loadableList({
      type: RelationRef,
      load: (keys: string[], ctx) => relationsOfApplications(ctx.db, keys),
      resolve: (app) => entityKey(app.modelId, app.name),
    }),
    blockers: t.field({ type: [BlockerRef], description: blockersDescription, resolve: (a, _args, ctx) => applicationBlockers(ctx.db, a) }),
  }),
});

builder.objectFields(ModelRef, (t) => ({
  application: t.field({
    type: ApplicationRef,
    nullable: true,
    args: { name: t.arg.string({ required: true }) },
    authScopes: (model, args) => ({ readsApplication: { model: model.name, application: args.name } }),
    resolve: (model, args) => entityKey(model.id, checkApplicationName(args.name)),
  }),
  applications: t.connection({
    type: ApplicationRef,
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args, ctx) => pagedConnection(args, (window) => applicationsPage(ctx.db, model, window)),
  }),
}));

const DeployInput = builder.inputType("DeployInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    charm: t.string({
      required: true,
      description: 'A charm name ("wordpress": the latest revision, or the bundled charm) or url ("local:wordpress-0").',
    }),
    application: t.string({ description: "Defaults to the charm's name." }),
    numUnits: t.int({ description: "Defaults to 1, or 0 for a subordinate (which must have none)." }),
    series: t.string({ description: "Defaults to the charm's first series, else the model's default series." }),
    constraints: t.string({ description: 'Juju syntax, e.g. "mem=2G cores=2".' }),
    placement: t.stringList({ description: 'One directive per unit: "3", "lxd:3" or "lxd".' }),
    config: t.field({ type: [SettingInput], description: "`--config`: option values, as setApplicationConfig takes them." }),
  }),
});

const SetApplicationConfigInput = builder.inputType("SetApplicationConfigInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    application: t.string({ required: true }),
    values: t.field({
      type: [SettingInput],
      description: "Options to set, in `juju config`'s string form (coerced to each option's type).",
    }),
    reset: t.stringList({ description: "Options to return to their charm's defaults." }),
  }),
});

const RemoveApplicationInput = builder.inputType("RemoveApplicationInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    applications: t.stringList({ required: true, description: "Application names." }),
    ...removalOptions(t),
  }),
});

builder.mutationField("setApplicationConfig", (t) =>
  t.field({
    type: ApplicationRef,
    description:
      "`juju config <application> key=value … --reset key`: checked against its charm's options (INVALID_ARGUMENT names an unknown key, " +
      "or a value not of its option's type). A change to the effective config bumps `configVersion`; one that changes nothing writes nothing.",
    args: { input: t.arg({ type: SetApplicationConfigInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => setApplicationConfig(ctx.db, input),
  }),
);

builder.mutationField("deploy", (t) =>
  t.field({
    type: ApplicationRef,
    description: "`juju deploy`: the application, its peer relations and its units (each on a new machine unless placed).",
    args: { input: t.arg({ type: DeployInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => deploy(ctx.db, input),
  }),
);

builder.mutationField("removeApplication", (t) =>
  t.field({
    type: [RemovalResultRef],
    description:
      "`juju remove-application`: removed at once when nothing holds it; else Dying, its relations destroyed and its units made Dying in batches.",
    args: { input: t.arg({ type: RemoveApplicationInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => removeApplications(ctx.db, removal(input, input.applications)),
  }),
);
