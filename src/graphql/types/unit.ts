// A unit and how a model answers for its units; its operations are beside it, in unit-mutations.ts.
import { LifelineError } from "../../core/errors.js";
import {
  entityKey,
  parseUnitName,
  relationsInScopeOf,
  subordinatesOfUnits,
  type UnitRow,
  unitBlockers,
  unitsPage,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import type { Context } from "../context.js";
import { ApplicationRef, MachineRef, ModelRef, RelationRef, UnitRef } from "../refs.js";
import { BlockerRef, blockersDescription } from "./blocker.js";
import { StatusRef } from "./common.js";
import { LifeEnum } from "./enums.js";

/**
 * Juju's AssignedMachineId: a principal's own machine, a subordinate's principal's. Subordinates keep none in their row
 * (seed 003: the model's rules read it so); their principals are read through the request's unit loader, so a status
 * page of a thousand subordinates reads their principals in one batch, not one by one.
 */
async function assignedMachineId(u: UnitRow, ctx: Context): Promise<string | null> {
  if (u.principal === null) return u.machineId;
  const principal = await UnitRef.getDataloader(ctx)
    .load(entityKey(u.modelId, u.principal))
    .catch((error: unknown) => {
      if (error instanceof LifelineError && error.code === "NOT_FOUND") return null; // removed since the subordinate was read
      throw error;
    });
  return principal?.machineId ?? null;
}

UnitRef.implement({
  description: 'A unit of an application: "wordpress/0".',
  authScopes: (u) => ({
    reached: { modelId: u.modelId, entity: { kind: "unit", name: u.name, machineId: u.machineId, principal: u.principal } },
  }),
  fields: (t) => ({
    name: t.exposeString("name"),
    number: t.exposeInt("number"),
    life: t.expose("life", { type: LifeEnum }),
    series: t.exposeString("series", { description: "Its application's series (seed 004)." }),
    subordinate: t.boolean({ resolve: (u) => u.principal !== null }),
    applicationName: t.exposeString("application"),
    application: t.field({ type: ApplicationRef, resolve: (u) => entityKey(u.modelId, u.application) }),
    machineId: t.string({
      nullable: true,
      description: "The id of the machine it runs on: a principal's assigned machine, a subordinate's principal's (as `machine`).",
      resolve: (u, _args, ctx) => assignedMachineId(u, ctx),
    }),
    principalName: t.exposeString("principal", { nullable: true, description: "For a subordinate: its principal's name." }),
    agentLostSince: t.expose("agentLostSince", {
      type: "DateTime",
      nullable: true,
      description: "Since when its agent is lost (when it last had a connection); null while it is not.",
    }),
    machine: t.field({
      type: MachineRef,
      nullable: true,
      description:
        "The machine a principal is assigned to; for a subordinate, its principal's (as `juju status` shows it), though it is assigned none of its own.",
      resolve: async (u, _args, ctx) => {
        const machineId = await assignedMachineId(u, ctx);
        return machineId === null ? null : entityKey(u.modelId, machineId);
      },
    }),
    principal: t.field({
      type: UnitRef,
      nullable: true,
      description: "For a subordinate: the principal whose container it shares.",
      resolve: (u) => (u.principal === null ? null : entityKey(u.modelId, u.principal)),
    }),
    subordinates: t.loadableList({
      type: UnitRef,
      load: (keys: string[], ctx) => subordinatesOfUnits(ctx.db, keys),
      resolve: (u) => entityKey(u.modelId, u.name),
    }),
    relationsInScope: t.field({
      type: [RelationRef],
      description: "The relations whose scope it is in, by id: what its agent must still depart (Juju's RelationsInScope).",
      resolve: async (u, _args, ctx) => (await relationsInScopeOf(ctx.db, u)).map((id) => entityKey(u.modelId, id)),
    }),
    workloadStatus: t.field({
      type: StatusRef,
      resolve: (u) => ({ current: u.workloadStatus, message: u.workloadMessage, since: u.statusSince }),
    }),
    blockers: t.field({ type: [BlockerRef], description: blockersDescription, resolve: (u, _args, ctx) => unitBlockers(ctx.db, u) }),
  }),
});

builder.objectFields(ModelRef, (t) => ({
  unit: t.field({
    type: UnitRef,
    nullable: true,
    args: { name: t.arg.string({ required: true }) },
    authScopes: (model, args) => ({ readsUnit: { model: model.name, unit: args.name } }),
    resolve: (model, args) => {
      parseUnitName(args.name);
      return entityKey(model.id, args.name);
    },
  }),
  units: t.connection({
    type: UnitRef,
    description: "Units in creation order, optionally of one application.",
    args: { application: t.arg.string() },
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args, ctx) =>
      pagedConnection(args, (window) => unitsPage(ctx.db, { modelId: model.id, application: args.application }, window)),
  }),
}));
