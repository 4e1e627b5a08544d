import { models } from "../../db/schema.js";
import { setApplicationConstraints } from "../../model/applications.js";
import { notFound } from "../../model/errors.js";
import { addModel, DEFAULT_MODEL, getAliveModel, setModelConstraints, type ModelRow } from "../../model/models.js";
import { checkModelName } from "../../model/names.js";
import { loadModels, loadModelsByName } from "../../model/read.js";
import { transact } from "../../model/tx.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { loaderFor } from "../loaders.js";
import { ConstraintsRef } from "./common.js";
import { LifeEnum } from "./enums.js";

export const ModelRef = builder.loadableObjectRef<ModelRow, string>("Model", {
  load: loaderFor<ModelRow>("model", loadModels),
});

ModelRef.implement({
  description: "A model: the machines, applications, units and relations one controller manages together.",
  fields: (t) => ({
    uuid: t.exposeID("id"),
    name: t.exposeString("name"),
    life: t.expose("life", { type: LifeEnum }),
    defaultSeries: t.exposeString("defaultSeries", { description: "Series for machines and charms that do not name one." }),
    constraints: t.field({
      type: ConstraintsRef,
      description: "Model constraints: the fallback for every key an application leaves unset (seed 004).",
      resolve: (model) => model.constraints,
    }),
    revision: t.string({
      description: "The model's change-log revision: a decimal integer that grows with every committed change.",
      resolve: (model) => String(model.revision),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const modelByName = (name: string, ctx: { db: Parameters<typeof loadModelsByName>[0] }) =>
  loadModelsByName(ctx.db, [checkModelName(name)]).then(([model]) => model ?? Promise.reject(notFound("model", name)));

builder.queryFields((t) => ({
  model: t.field({
    type: ModelRef,
    nullable: true,
    description: 'A model by name; null with a NOT_FOUND error when there is none. A fresh store holds "default".',
    args: { name: t.arg.string({ required: true, defaultValue: DEFAULT_MODEL }) },
    resolve: (_root, args, ctx) => modelByName(args.name, ctx),
  }),
  models: t.connection({
    type: ModelRef,
    description: "All models, oldest first.",
    resolve: (_root, args, ctx) =>
      pagedConnection(ctx, models, undefined, args),
  }),
}));

const AddModelInput = builder.inputType("AddModelInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    defaultSeries: t.string({ description: 'Defaults to "jammy".' }),
    constraints: t.string({ description: 'Model constraints in Juju syntax, e.g. "mem=4G".' }),
  }),
});

const SetConstraintsInput = builder.inputType("SetConstraintsInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    application: t.string({ description: "Set this application's constraints; omit to set the model's." }),
    constraints: t.string({ required: true, description: 'Juju syntax, e.g. "mem=3G cores=2"; "" clears them all.' }),
  }),
});

builder.mutationFields((t) => ({
  addModel: t.field({
    type: ModelRef,
    description: "`juju add-model`: a new model holding machine 0 with JobManageModel, as after bootstrap.",
    args: { input: t.arg({ type: AddModelInput, required: true }) },
    resolve: (_root, { input }, ctx) => transact(ctx.db, (tx) => addModel(tx, input)),
  }),
  setConstraints: t.field({
    type: ConstraintsRef,
    description:
      "`juju set-constraints` / `juju set-model-constraints`: replaces the constraints of an application or the model. " +
      "Existing units and machines keep what they captured at creation (seed 004).",
    args: { input: t.arg({ type: SetConstraintsInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      transact(ctx.db, async (tx) => {
        if (input.application == null) return setModelConstraints(tx, input.model, input.constraints);
        const model = await getAliveModel(tx, input.model);
        return setApplicationConstraints(tx, model, input.application, input.constraints);
      }),
  }),
}));
