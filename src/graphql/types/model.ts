import {
  addModel,
  DEFAULT_MODEL,
  destroyModel,
  modelBlockers,
  modelNamed,
  modelsPage,
  reachableModels,
  rehearseDestroyModel,
  setConstraints,
  setModelConfig,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { ModelRef } from "../refs.js";
import { BlockerRef, blockersDescription } from "./blocker.js";
import { ConstraintsRef } from "./common.js";
import { LifeEnum } from "./enums.js";
import { OutcomeEnum, RemovalResultRef } from "./removal.js";

ModelRef.implement({
  description: "A model: the machines, applications, units and relations one controller manages together.",
  authScopes: (model) => ({ readsModel: model.name }),
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
    automaticallyRetryHooks: t.exposeBoolean("automaticallyRetryHooks", {
      description:
        "Juju's automatically-retry-hooks (default true): unit agents retry a failed hook by themselves, with backoff; when false, a failed hook waits for resolveUnit.",
    }),
    revision: t.string({
      description: "The model's change-log revision: a decimal integer that grows with every committed change.",
      resolve: (model) => String(model.revision),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    blockers: t.field({
      type: [BlockerRef],
      description: blockersDescription,
      authScopes: (m) => ({ wholeModel: m.name }),
      resolve: (m, _args, ctx) => modelBlockers(ctx.db, m),
    }),
  }),
});

builder.queryFields((t) => ({
  model: t.field({
    type: ModelRef,
    nullable: true,
    description:
      'A model by name; null with a NOT_FOUND error when there is none. A fresh store holds "default". ' +
      "FORBIDDEN for a model the caller's credentials do not reach, whether it exists or not.",
    args: { name: t.arg.string({ required: true, defaultValue: DEFAULT_MODEL }) },
    authScopes: (_root, args) => ({ readsModel: args.name }),
    resolve: (_root, args, ctx) => modelNamed(ctx.db, args.name),
  }),
  models: t.connection({
    type: ModelRef,
    description: "The models the caller's credentials reach, oldest first: every model, those its token names, or an agent's own.",
    authScopes: { authenticated: true },
    resolve: (_root, args, ctx) => pagedConnection(args, (window) => modelsPage(ctx.db, window, reachableModels(ctx.actor!))),
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

const SetModelConfigInput = builder.inputType("SetModelConfigInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    automaticallyRetryHooks: t.boolean({ description: "Juju's automatically-retry-hooks; left as it is when omitted." }),
  }),
});

builder.mutationFields((t) => ({
  setModelConfig: t.field({
    type: ModelRef,
    description:
      "`juju model-config`: the model's settings (automaticallyRetryHooks). Unit agents see the change on the model's change rows; " +
      "a setting left as it was writes nothing.",
    args: { input: t.arg({ type: SetModelConfigInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => setModelConfig(ctx.db, input),
  }),
  addModel: t.field({
    type: ModelRef,
    description:
      "`juju add-model`: a new model holding machine 0 with JobManageModel, as after bootstrap. For operators whose token reaches every model.",
    authScopes: { person: "operator" },
    args: { input: t.arg({ type: AddModelInput, required: true }) },
    resolve: (_root, { input }, ctx) => addModel(ctx.db, input),
  }),
  setConstraints: t.field({
    type: ConstraintsRef,
    description:
      "`juju set-constraints` / `juju set-model-constraints`: replaces the constraints of an application or the model. " +
      "Existing units and machines keep what they captured at creation (seed 004).",
    args: { input: t.arg({ type: SetConstraintsInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => setConstraints(ctx.db, input),
  }),
  destroyModel: t.field({
    type: OutcomeEnum,
    description: "`juju destroy-model`: Dying; the cleaner destroys its applications and machines, and the model is Dead once empty.",
    args: {
      name: t.arg.string({ required: true }),
      force: t.arg.boolean({ required: true, defaultValue: false }),
      dryRun: t.arg.boolean({
        required: true,
        defaultValue: false,
        description: "Answer the outcome it would have and keep nothing (destroyModelDryRun says what it would do).",
      }),
    },
    authScopes: (_root, args) => ({ personIn: { role: "operator", model: args.name } }),
    resolve: async (_root, args, ctx) => {
      const input = { model: args.name, force: args.force };
      return args.dryRun ? (await rehearseDestroyModel(ctx.db, input)).outcome : destroyModel(ctx.db, input);
    },
  }),
  destroyModelDryRun: t.field({
    type: RemovalResultRef,
    description:
      "`juju destroy-model`, rehearsed: what destroyModel would do and what the cleaner would do right after (its applications and " +
      "machines destroyed, the cleanups that queues run), as a removal's dry run answers it: what would become Dying or Dead, be " +
      "removed or queued, and what would then hold the model. The same rules and refusals, in a transaction that is rolled back: " +
      "nothing is kept. Forced fallbacks not yet due are listed, not run.",
    args: { name: t.arg.string({ required: true }), force: t.arg.boolean({ required: true, defaultValue: false }) },
    authScopes: (_root, args) => ({ personIn: { role: "operator", model: args.name } }),
    resolve: (_root, args, ctx) => rehearseDestroyModel(ctx.db, { model: args.name, force: args.force }),
  }),
}));
