// A machine's operations: a person's (add-machine, remove-machine, resolved) and its agents' (seed 001 "Agents": its
// machine agent reports status and sets it Dead; the provisioner records its instance and removes it once Dead).
import {
  addMachine,
  DEFAULT_MODEL,
  MAX_MACHINES_A_CALL,
  recordStartFailure,
  removeDeadMachine,
  removeDeadMachines,
  removeMachines,
  resolveMachine,
  setMachineDead,
  setMachineProvisioned,
  setMachineStatus,
  setMachinesDead,
  setMachinesProvisioned,
  setMachinesStatus,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { MachineRef } from "../refs.js";
import { AgentMachinesInput } from "./credentials.js";
import { ContainerTypeEnum, MachineJobEnum, MachineStatusEnum } from "./enums.js";
import { RemovalResultRef, removal, removalOptions } from "./removal.js";

const AddMachineInput = builder.inputType("AddMachineInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    series: t.string({ description: "Defaults to the model's default series." }),
    constraints: t.string({ description: "Juju syntax; keys left unset are taken from the model's constraints." }),
    jobs: t.field({ type: [MachineJobEnum], description: "Defaults to [HOST_UNITS]." }),
    containerType: t.field({ type: ContainerTypeEnum, description: "Make a container of this type on `parent`." }),
    parent: t.string({ description: "The machine to hold the new container." }),
  }),
});

const RemoveMachineInput = builder.inputType("RemoveMachineInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machines: t.stringList({ required: true, description: 'Machine ids, e.g. ["1", "2/lxd/0"].' }),
    ...removalOptions(t),
  }),
});

const ResolveMachineInput = builder.inputType("ResolveMachineInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machine: t.string({ required: true }),
    constraints: t.string({
      description: 'New constraints for the machine, in Juju syntax (e.g. "mem=2G cpu-power=400"); kept when omitted.',
    }),
  }),
});

const MachineTargetInput = builder.inputType("MachineTargetInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), machine: t.string({ required: true }) }),
});

const MachineTargetsInput = builder.inputType("MachineTargetsInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machines: t.stringList({ required: true, description: `At least one, at most ${MAX_MACHINES_A_CALL}, each once.` }),
  }),
});

const ProvisionedInput = builder.inputType("ProvisionedInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machine: t.string({ required: true }),
    instanceId: t.string({ required: true, description: "The provider's id for the instance." }),
  }),
});

const MachinesProvisionedInput = builder.inputType("MachinesProvisionedInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machines: t.field({
      type: [
        builder.inputType("MachineInstanceInput", {
          fields: (f) => ({
            machine: f.string({ required: true }),
            instanceId: f.string({ required: true, description: "The provider's id for the instance." }),
          }),
        }),
      ],
      required: true,
      description: `At least one, at most ${MAX_MACHINES_A_CALL}, each machine once.`,
    }),
  }),
});

const MachineStatusInput = builder.inputType("MachineStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machine: t.string({ required: true }),
    status: t.field({ type: MachineStatusEnum, required: true }),
    message: t.string({ description: "For error: the provider's message." }),
  }),
});

const MachinesStatusInput = builder.inputType("MachinesStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machines: t.field({
      type: [
        builder.inputType("MachineStatusItem", {
          fields: (f) => ({
            machine: f.string({ required: true }),
            status: f.field({ type: MachineStatusEnum, required: true }),
            message: f.string({ description: "For error: the provider's message." }),
          }),
        }),
      ],
      required: true,
      description: `At least one, at most ${MAX_MACHINES_A_CALL}, each machine once.`,
    }),
  }),
});

const StartFailureInput = builder.inputType("StartFailureInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machine: t.string({ required: true }),
    message: t.string({ required: true, description: "The provider's error." }),
    retryInMs: t.int({
      description:
        "When the provisioner tries again, in milliseconds (0 to a day); omit or null: no further attempts, the machine goes to error.",
    }),
  }),
});

builder.mutationFields((t) => ({
  addMachine: t.field({
    type: MachineRef,
    description: "`juju add-machine`: a machine (or a container on a machine) with no units.",
    args: { input: t.arg({ type: AddMachineInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => addMachine(ctx.db, input),
  }),
  removeMachine: t.field({
    type: [RemovalResultRef],
    description:
      "`juju remove-machine`: Dying, for its agent to finish. Refused for JobManageModel, and for assigned units or containers unless forced.",
    args: { input: t.arg({ type: RemoveMachineInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => removeMachines(ctx.db, removal(input, input.machines)),
  }),
  resolveMachine: t.field({
    type: MachineRef,
    description:
      "`juju resolved` for a machine whose provisioning failed (seed 004): eligible again, with new constraints when given. NOT_IN_ERROR otherwise.",
    args: { input: t.arg({ type: ResolveMachineInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => resolveMachine(ctx.db, input),
  }),
  setMachineDead: t.field({
    type: MachineRef,
    description:
      "Machine agent: the machine becomes Dead, and a started one `stopped` with it (its agent stops). Refused while principals are " +
      "assigned (HAS_UNITS) or containers remain (HAS_CONTAINERS), with nothing changed.",
    args: { input: t.arg({ type: MachineTargetInput, required: true }) },
    // The provisioner sets a Dying machine that never got an instance Dead (Juju's provisioner does).
    authScopes: (_root, { input }) => ({ $any: { machineAgent: input, provisioner: input } }),
    resolve: (_root, { input }, ctx) => setMachineDead(ctx.db, input),
  }),
  setMachinesDead: t.field({
    type: [MachineRef],
    description:
      "setMachineDead for several machines in one transaction, in the order named: all or nothing, the first refusal in that order " +
      "refusing the call (HAS_UNITS, HAS_CONTAINERS; NOT_FOUND; INVALID_ARGUMENT for no machine, too many, or one named twice). Each " +
      "machine's own agent may ask, so the agents one process hosts may send their last calls together: `extensions.authorizations` " +
      "lists each agent's bearer token, in the machines' order, and each machine is checked against its own (FORBIDDEN if any may not).",
    args: { input: t.arg({ type: AgentMachinesInput, required: true }) },
    authScopes: (_root, { input }) => ({ machineAgents: input }),
    resolve: (_root, { input }, ctx) => setMachinesDead(ctx.db, input),
  }),
  removeDeadMachine: t.field({
    type: "Boolean",
    description: "Provisioner: remove a Dead machine once its instance is released.",
    args: { input: t.arg({ type: MachineTargetInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => removeDeadMachine(ctx.db, input),
  }),
  removeDeadMachines: t.field({
    type: ["Boolean"],
    description:
      "Provisioner: removeDeadMachine for several machines in one transaction, in the order named (Juju's agent API is bulk); true for each. " +
      "All or nothing: the first refusal, in that order, refuses the call (NOT_FOUND, NOT_DEAD; INVALID_ARGUMENT for no machine, too many, " +
      "or one named twice).",
    args: { input: t.arg({ type: MachineTargetsInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => removeDeadMachines(ctx.db, input),
  }),
  setMachineProvisioned: t.field({
    type: MachineRef,
    description:
      "Provisioner: record the instance started for an Alive machine, once (ALREADY_PROVISIONED after that; NOT_ALIVE for a machine no longer Alive).",
    args: { input: t.arg({ type: ProvisionedInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => setMachineProvisioned(ctx.db, input),
  }),
  setMachinesProvisioned: t.field({
    type: [MachineRef],
    description:
      "Provisioner: setMachineProvisioned for several machines in one transaction, in the order named (Juju's agent API is bulk). All or " +
      "nothing: the first refusal, in that order, refuses the call (NOT_FOUND, NOT_ALIVE, ALREADY_PROVISIONED; INVALID_ARGUMENT for a bad " +
      "instance id, no machine, too many, or one named twice).",
    args: { input: t.arg({ type: MachinesProvisionedInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => setMachinesProvisioned(ctx.db, input),
  }),
  recordStartFailure: t.field({
    type: MachineRef,
    description:
      "Provisioner: an instance start failed for an Alive machine without an instance (NOT_ALIVE, ALREADY_PROVISIONED otherwise). Counts " +
      "the attempt (Machine.startAttempts, lastStartError); with retryInMs the machine stays pending and says when it retries, without it " +
      "the machine is in error with the provider's message.",
    args: { input: t.arg({ type: StartFailureInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => recordStartFailure(ctx.db, input),
  }),
  setMachineStatus: t.field({
    type: MachineRef,
    description: "Machine agent (started, stopped) or provisioner (error, with the provider's message): the machine's status.",
    args: { input: t.arg({ type: MachineStatusInput, required: true }) },
    authScopes: (_root, { input }) => ({ $any: { machineAgent: input, provisioner: input } }),
    resolve: (_root, { input }, ctx) => setMachineStatus(ctx.db, input),
  }),
  setMachinesStatus: t.field({
    type: [MachineRef],
    description:
      "setMachineStatus for several machines in one transaction, in the order named: all or nothing, the first refusal in that order " +
      "refusing the call (NOT_FOUND; INVALID_ARGUMENT for no machine, too many, or one named twice). Each machine's own agent may set it, " +
      "so the agents one process hosts may send their calls together: `extensions.authorizations` lists each agent's bearer token, in " +
      `the machines' order (at most ${MAX_MACHINES_A_CALL}), and each machine is checked against its own (FORBIDDEN if any may not). ` +
      "Without that list, the request's own credentials must reach every machine (a machine agent its containers, the provisioner any).",
    args: { input: t.arg({ type: MachinesStatusInput, required: true }) },
    authScopes: (_root, { input }) => ({
      $any: { machineAgents: { model: input.model, machines: input.machines.map((m) => m.machine) }, provisioner: input },
    }),
    resolve: (_root, { input }, ctx) => setMachinesStatus(ctx.db, input),
  }),
}));
