import { addCharm, type CharmEndpoint, charmMetadata, charmsPage, DEFAULT_MODEL, entityKey } from "../../model/index.js";
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

CharmRef.implement({
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
  }),
});

builder.objectFields(ModelRef, (t) => ({
  charm: t.field({
    type: CharmRef,
    nullable: true,
    args: { url: t.arg.string({ required: true }) },
    resolve: (model, args) => entityKey(model.id, args.url),
  }),
  charms: t.connection({
    type: CharmRef,
    args: { name: t.arg.string() },
    resolve: (model, args, ctx) => pagedConnection(args, (window) => charmsPage(ctx.db, model, args, window)),
  }),
}));

const AddCharmInput = builder.inputType("AddCharmInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    metadata: t.string({ required: true, description: "The charm's metadata.yaml." }),
  }),
});

builder.mutationField("addCharm", (t) =>
  t.field({
    type: CharmRef,
    description: "Adds a charm from its metadata.yaml as the next revision of its name (url local:<name>-<revision>).",
    args: { input: t.arg({ type: AddCharmInput, required: true }) },
    authScopes: { person: "operator" },
    resolve: (_root, { input }, ctx) => addCharm(ctx.db, input),
  }),
);
