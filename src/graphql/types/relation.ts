import { and, eq } from "drizzle-orm";
import { relations } from "../../db/schema.js";
import { LifelineError } from "../../model/errors.js";
import { DEFAULT_MODEL } from "../../model/models.js";
import { entityKey, loadRelations, relationEndpointsFor, type RelationEndpointRow } from "../../model/read.js";
import { integrate, type RelationRow } from "../../model/relations.js";
import { transact } from "../../model/tx.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { loaderFor } from "../loaders.js";
import { ApplicationRef } from "./application.js";
import { LifeEnum, RelationRoleEnum, RelationScopeEnum } from "./enums.js";
import { ModelRef } from "./model.js";

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

export const RelationRef = builder.loadableObjectRef<RelationRow, string>("Relation", {
  load: loaderFor<RelationRow>("relation", loadRelations),
});

RelationRef.implement({
  description: 'A relation between applications\' endpoints, known by its id and its canonical key ("wordpress:db mysql:db").',
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
  }),
});

builder.objectFields(ModelRef, (t) => ({
  relation: t.field({
    type: RelationRef,
    nullable: true,
    description: "A relation by id or by canonical key; give one.",
    args: { id: t.arg.int(), key: t.arg.string() },
    resolve: async (model, args, ctx) => {
      if ((args.id == null) === (args.key == null))
        throw new LifelineError("INVALID_ARGUMENT", "look a relation up by exactly one of id and key");
      if (args.id != null) return entityKey(model.id, args.id);
      const [row] = await ctx.db
        .select()
        .from(relations)
        .where(and(eq(relations.modelId, model.id), eq(relations.key, args.key!)));
      if (!row) throw new LifelineError("NOT_FOUND", `relation "${args.key}" not found in model "${model.name}"`);
      return row;
    },
  }),
  relations: t.connection({
    type: RelationRef,
    resolve: (model, args, ctx) =>
      pagedConnection(ctx, relations, eq(relations.modelId, model.id), args),
  }),
}));

const IntegrateInput = builder.inputType("IntegrateInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    endpoints: t.stringList({
      required: true,
      description: 'Two endpoints, each "<application>" or "<application>:<relation>", e.g. ["wordpress", "mysql"].',
    }),
  }),
});

builder.mutationField("integrate", (t) =>
  t.field({
    type: RelationRef,
    description:
      "`juju integrate`: relates two applications, inferring the endpoints when exactly one pair matches; " +
      "AMBIGUOUS_RELATION lists the candidates when several do.",
    args: { input: t.arg({ type: IntegrateInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const [a, b, ...rest] = input.endpoints;
      if (a === undefined || b === undefined || rest.length)
        throw new LifelineError("INVALID_ARGUMENT", `integrate takes exactly two endpoints, got ${input.endpoints.length}`);
      return transact(ctx.db, (tx) => integrate(tx, { model: input.model, endpoints: [a, b] }));
    },
  }),
);
