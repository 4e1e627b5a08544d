import { type ConfigOption, type ConfigOptionType, configOptionTypes } from "../../core/config.js";
import {
  addCharm,
  type CharmEndpoint,
  type CharmHook,
  charmMetadata,
  charmsPage,
  DEFAULT_MODEL,
  entityKey,
  formatConfigValue,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { CharmRef, ModelRef } from "../refs.js";
import { RelationRoleEnum, RelationScopeEnum } from "./enums.js";

export const CharmEndpointRef = builder.objectRef<CharmEndpoint>("CharmEndpoint").implement({
  description: "A relation endpoint a charm declares under provides, requires or peers.",
  fields: (t) => ({
    name: t.exposeString("name"),
    role: t.expose("role", { type: RelationRoleEnum }),
    interface: t.exposeString("interface"),
    scope: t.expose("scope", { type: RelationScopeEnum }),
    implicit: t.exposeBoolean("implicit", { description: "True for juju-info, which every charm provides." }),
  }),
});

const ConfigOptionTypeEnum = builder.enumType("ConfigOptionType", {
  values: Object.fromEntries(configOptionTypes.map((type) => [type.toUpperCase(), { value: type }])) as Record<
    Uppercase<ConfigOptionType>,
    { value: ConfigOptionType }
  >,
});

const CharmConfigOptionRef = builder.objectRef<ConfigOption & { name: string }>("CharmConfigOption").implement({
  description: "An option of the charm's config.yaml.",
  fields: (t) => ({
    name: t.exposeString("name"),
    type: t.expose("type", { type: ConfigOptionTypeEnum }),
    default: t.string({
      nullable: true,
      description: "Its default in `juju config`'s string form; null when it has none (unset until an application sets it).",
      resolve: (o) => (o.default === undefined ? null : formatConfigValue(o.default)),
    }),
    description: t.exposeString("description"),
  }),
});

/** A charm's hooks by name (of those named, when given), sorted: jsonb keeps keys in its own order (by length first). */
export function charmHooks(hooks: Record<string, string>, names?: readonly string[] | null): CharmHook[] {
  const named = names ? new Set(names) : null;
  return Object.entries(hooks)
    .filter(([name]) => !named || named.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, content]) => ({ name, content }));
}

export const CharmHookRef = builder.objectRef<CharmHook>("CharmHook").implement({
  description: "One of the charm's hooks: an executable its unit agents run, named for the hook.",
  fields: (t) => ({
    name: t.exposeString("name", { description: 'e.g. "install", "db-relation-changed".' }),
    content: t.exposeString("content", { description: "The executable's text (a script with its #! line)." }),
  }),
});

CharmRef.implement({
  authScopes: (c) => ({ reached: { modelId: c.modelId, entity: { kind: "charm", url: c.url } } }),
  fields: (t) => ({
    url: t.exposeString("url", { description: '"local:<name>-<revision>" for added charms, "bundled:..." for Lifeline\'s examples.' }),
    name: t.exposeString("name"),
    revision: t.exposeInt("revision"),
    subordinate: t.exposeBoolean("subordinate"),
    series: t.exposeStringList("series", { description: "Supported series, preferred first; empty means any." }),
    summary: t.string({ resolve: (c) => charmMetadata(c).summary }),
    description: t.string({ resolve: (c) => charmMetadata(c).description }),
    endpoints: t.field({ type: [CharmEndpointRef], resolve: (c) => charmMetadata(c).endpoints }),
    metadata: t.exposeString("metadataYaml", { description: "The metadata.yaml the charm was added with." }),
    config: t.exposeString("configYaml", { nullable: true, description: "The config.yaml the charm was added with; null without one." }),
    configOptions: t.field({
      type: [CharmConfigOptionRef],
      description: "Its config options, by name.",
      resolve: (c) =>
        Object.entries(c.config)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([name, option]) => ({ name, ...option })),
    }),
    hooks: t.field({
      type: [CharmHookRef],
      description: "Its hooks, by name (of those named, when `names` is given): what unit agents download and run.",
      args: { names: t.arg.stringList() },
      resolve: (c, args) => charmHooks(c.hooks, args.names),
    }),
  }),
});

builder.objectFields(ModelRef, (t) => ({
  charm: t.field({
    type: CharmRef,
    nullable: true,
    args: { url: t.arg.string({ required: true }) },
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args) => entityKey(model.id, args.url),
  }),
  charms: t.connection({
    type: CharmRef,
    args: { name: t.arg.string() },
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args, ctx) => pagedConnection(args, (window) => charmsPage(ctx.db, model, args, window)),
  }),
}));

const CharmHookInput = builder.inputType("CharmHookInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    content: t.string({ required: true, description: "The executable's text, at most 256 KiB (1 MiB for all of a charm's hooks)." }),
  }),
});

const AddCharmInput = builder.inputType("AddCharmInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    metadata: t.string({ required: true, description: "The charm's metadata.yaml." }),
    config: t.string({ description: "Its config.yaml: `options: { <name>: { type: string|int|float|boolean, default, description } }`." }),
    hooks: t.field({
      type: [CharmHookInput],
      description: "Its hooks: each named for a Juju hook or `<endpoint>-relation-<joined|changed|departed|broken>` of its endpoints.",
    }),
  }),
});

builder.mutationField("addCharm", (t) =>
  t.field({
    type: CharmRef,
    description:
      "Adds a charm from its metadata.yaml, config.yaml and hooks as the next revision of its name (url local:<name>-<revision>). " +
      "INVALID_CHARM_METADATA, INVALID_CHARM_CONFIG, or INVALID_ARGUMENT for a hook it cannot have.",
    args: { input: t.arg({ type: AddCharmInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => addCharm(ctx.db, input),
  }),
);
