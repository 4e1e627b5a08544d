// A machine and how a model answers for its machines; its operations are beside it, in machine-mutations.ts.
import { shownMachineStatus } from "../../core/presence.js";
import { checkMachineId, containersOfMachines, entityKey, machineBlockers, machinesPage, unitsOnMachines } from "../../model/index.js";
import { builder } from "../builder.js";
import { pagedConnection } from "../connections.js";
import { MachineRef, ModelRef, UnitRef } from "../refs.js";
import { BlockerRef, blockersDescription } from "./blocker.js";
import { ConstraintsRef, StatusRef } from "./common.js";
import { ContainerTypeEnum, LifeEnum, MachineJobEnum } from "./enums.js";

MachineRef.implement({
  description: 'A machine or container: "0", "1", "1/lxd/0".',
  authScopes: (m) => ({ reached: { modelId: m.modelId, entity: { kind: "machine", id: m.id } } }),
  fields: (t) => ({
    id: t.exposeString("id"),
    life: t.expose("life", { type: LifeEnum }),
    series: t.exposeString("series", { description: "Set at creation; never changes (seed 004)." }),
    jobs: t.expose("jobs", { type: [MachineJobEnum] }),
    constraints: t.field({ type: ConstraintsRef, resolve: (m) => m.constraints }),
    instanceId: t.exposeString("instanceId", { nullable: true, description: "The provider's instance, once provisioned." }),
    status: t.field({
      type: StatusRef,
      description:
        "Juju's machine status: pending, started, stopped, error; `down` (agent is not communicating with the server) while its agent is lost.",
      resolve: (m) => {
        const shown = shownMachineStatus(m);
        return { current: shown.status, message: shown.statusMessage, since: shown.statusSince };
      },
    }),
    containerType: t.expose("containerType", { type: ContainerTypeEnum, nullable: true }),
    parentId: t.exposeString("parentId", { nullable: true, description: "For a container: the id of the machine it is on." }),
    agentLostSince: t.expose("agentLostSince", {
      type: "DateTime",
      nullable: true,
      description: "Since when its agent is lost (when it last had a connection); null while it is not.",
    }),
    startAttempts: t.exposeInt("startAttempts", {
      description: "Instance starts that failed since it was added or last resolved (the provisioner's attempts, as it recorded them).",
    }),
    lastStartError: t.exposeString("lastStartError", {
      nullable: true,
      description:
        "The provider's error at the last failed start. A machine still pending says in its status message when the next attempt comes; " +
        "one in error has had its last (resolveMachine starts a new round).",
    }),
    lastStartAttemptAt: t.expose("lastStartAttemptAt", {
      type: "DateTime",
      nullable: true,
      description: "When the last failed start was.",
    }),
    parent: t.field({
      type: MachineRef,
      nullable: true,
      resolve: (m) => (m.parentId === null ? null : entityKey(m.modelId, m.parentId)),
    }),
    containers: t.loadableList({
      type: MachineRef,
      load: (keys: string[], ctx) => containersOfMachines(ctx.db, keys),
      resolve: (m) => entityKey(m.modelId, m.id),
    }),
    units: t.loadableList({
      type: UnitRef,
      description: "The principal units assigned to this machine.",
      load: (keys: string[], ctx) => unitsOnMachines(ctx.db, keys),
      resolve: (m) => entityKey(m.modelId, m.id),
    }),
    blockers: t.field({ type: [BlockerRef], description: blockersDescription, resolve: (m, _args, ctx) => machineBlockers(ctx.db, m) }),
  }),
});

builder.objectFields(ModelRef, (t) => ({
  machine: t.field({
    type: MachineRef,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    authScopes: (model, args) => ({ readsMachine: { model: model.name, machine: args.id } }),
    resolve: (model, args) => entityKey(model.id, checkMachineId(args.id)),
  }),
  machines: t.connection({
    type: MachineRef,
    args: { topLevelOnly: t.arg.boolean({ defaultValue: false, description: "Leave out containers." }) },
    authScopes: (model) => ({ wholeModel: model.name }),
    resolve: (model, args, ctx) => pagedConnection(args, (window) => machinesPage(ctx.db, model, args, window)),
  }),
}));
