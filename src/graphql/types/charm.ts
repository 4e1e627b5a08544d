import { and, eq } from "drizzle-orm";
import { charms } from "../../db/schema.js";
import type { CharmEndpoint } from "../../model/charm.js";
import { addCharm, charmMetadata, type CharmRow } from "../../model/charms.js";
import { getAliveModel, DEFAULT_MODEL } from "../../model/models.js";
import { entityKey, loadCharms } from "../../model/read.js";
import { transact } from "../../model/tx.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { loaderFor } from "../loaders.js";
import { RelationRoleEnum, RelationScopeEnum } from "./enums.js";
import { ModelRef } from "./model.js";

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

export const CharmRef = builder.loadableObjectRef<CharmRow, string>("Charm", {
  load: loaderFor<CharmRow>("charm", loadCharms),
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
    resolve: (model, args, ctx) =>
      pagedConnection(ctx, charms, and(eq(charms.modelId, model.id), args.name ? eq(charms.name, args.name) : undefined), args),
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
    resolve: (_root, { input }, ctx) =>
      transact(ctx.db, async (tx) => addCharm(tx, await getAliveModel(tx, input.model), input.metadata)),
  }),
);
