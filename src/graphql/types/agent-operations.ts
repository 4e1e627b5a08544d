// What the agents call (seed 001 "Agents"): unit agents enter and leave scopes
// and set their units Dead; deployers remove Dead units; machine agents set
// their machines Dead; the provisioner removes Dead machines; the cleaner runs
// cleanups. Plain mutations, like everything else.

import { WorkloadStatus } from "../../core/machine.js";
import {
  type CleanupReport,
  DEFAULT_MODEL,
  enterScope,
  leaveScope,
  MAX_MACHINES_A_CALL,
  removeDeadMachine,
  removeDeadMachines,
  removeDeadUnit,
  resolveMachine,
  runCleanups,
  type ScopeChange,
  setMachineDead,
  setMachineProvisioned,
  setMachineStatus,
  setMachinesProvisioned,
  setUnitAgentStatus,
  setUnitDead,
  setUnitDying,
  setWorkloadStatus,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { MachineRef, UnitRef } from "../refs.js";
import { MachineStatusEnum, UnitAgentStatusEnum } from "./enums.js";
import { ScopeMemberRef } from "./relation.js";

const EnterScopeInput = builder.inputType("EnterScopeInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    relation: t.int({ required: true }),
    unit: t.string({ required: true }),
    privateAddress: t.string({ required: true, description: "Written as the unit's private-address (and ingress-address) settings." }),
  }),
});

const LeaveScopeInput = builder.inputType("LeaveScopeInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    relation: t.int({ required: true }),
    unit: t.string({ required: true }),
  }),
});

const ScopeChangeRef = builder.objectRef<ScopeChange>("ScopeChange").implement({
  fields: (t) => ({
    member: t.field({ type: ScopeMemberRef, nullable: true, resolve: (c) => c.member }),
    subordinateCreated: t.field({
      type: UnitRef,
      nullable: true,
      description: "The subordinate a principal's entering a container-scoped relation created.",
      resolve: (c) => c.subordinate,
    }),
    relationRemoved: t.exposeBoolean("relationRemoved", { description: "The last member left a Dying relation, which is now gone." }),
  }),
});

const UnitTargetInput = builder.inputType("UnitTargetInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), unit: t.string({ required: true }) }),
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

const UnitAgentStatusInput = builder.inputType("UnitAgentStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    status: t.field({ type: UnitAgentStatusEnum, required: true }),
  }),
});

const WorkloadStatusEnum = builder.enumType("WorkloadStatus", {
  description: "What a charm says of its workload (status-set).",
  values: {
    MAINTENANCE: { value: WorkloadStatus.Maintenance, description: "Getting ready or changing: installing, configuring." },
    BLOCKED: { value: WorkloadStatus.Blocked, description: "Needs a person: a missing relation, bad config." },
    WAITING: { value: WorkloadStatus.Waiting, description: "Waiting on something outside it: a machine, a related unit." },
    ACTIVE: { value: WorkloadStatus.Active, description: "Ready and doing its job." },
  },
});

const WorkloadStatusInput = builder.inputType("WorkloadStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    status: t.field({ type: WorkloadStatusEnum, required: true }),
    message: t.string({ description: "At most 1000 characters." }),
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

const ResolveMachineInput = builder.inputType("ResolveMachineInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machine: t.string({ required: true }),
    constraints: t.string({
      description: 'New constraints for the machine, in Juju syntax (e.g. "mem=2G cpu-power=400"); kept when omitted.',
    }),
  }),
});

const CleanupReportRef = builder.objectRef<CleanupReport>("CleanupReport").implement({
  fields: (t) => ({
    batches: t.exposeInt("batches", { description: "Bounded transactions run." }),
    finished: t.exposeInt("finished"),
    failed: t.exposeInt("failed", {
      description: "Cleanup runs that failed; each is retried later, with backoff, and shows as a blocker with its error meanwhile.",
    }),
    remaining: t.exposeInt("remaining", { description: "Cleanups still queued (waiting on agents, or not yet due)." }),
  }),
});

builder.mutationFields((t) => ({
  enterScope: t.field({
    type: ScopeChangeRef,
    description:
      "Unit agent: join an Alive relation's scope, writing the unit's settings in the same transaction. A principal entering a container-scoped relation creates its subordinate.",
    args: { input: t.arg({ type: EnterScopeInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => enterScope(ctx.db, input),
  }),
  leaveScope: t.field({
    type: ScopeChangeRef,
    description: "Unit agent: leave a relation's scope (a no-op when not in it). The last unit to leave a Dying relation removes it.",
    args: { input: t.arg({ type: LeaveScopeInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => leaveScope(ctx.db, input),
  }),
  setUnitDying: t.field({
    type: UnitRef,
    description:
      "Unit agent (Juju's uniter Destroy): its unit becomes Dying, when its application is Dying or, for a subordinate, when no Alive " +
      "container-scoped relation with its principal's application remains. Works on subordinates (unlike removeUnit); a principal's " +
      "subordinates follow it. A no-op for a unit that is not Alive.",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => setUnitDying(ctx.db, input),
  }),
  setUnitDead: t.field({
    type: UnitRef,
    description:
      "Unit agent (or its deployer, for a unit it never deployed): the unit becomes Dead. Refused while it is in any scope (IN_SCOPE) or has subordinates (HAS_SUBORDINATES).",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    // Juju's deployer removes a non-Alive unit it never deployed directly: no agent of its own will ever run.
    authScopes: (_root, { input }) => ({ $any: { unitAgent: input, deployer: input } }),
    resolve: (_root, { input }, ctx) => setUnitDead(ctx.db, input),
  }),
  removeDeadUnit: t.field({
    type: "Boolean",
    description:
      "Deployer (machine agent, or the principal's unit agent): remove a Dead unit; its application goes too when it was the last reference to it and it is Dying.",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    authScopes: (_root, { input }) => ({ deployer: input }),
    resolve: (_root, { input }, ctx) => removeDeadUnit(ctx.db, input),
  }),
  setMachineDead: t.field({
    type: MachineRef,
    description:
      "Machine agent: the machine becomes Dead. Refused while principals are assigned (HAS_UNITS) or containers remain (HAS_CONTAINERS).",
    args: { input: t.arg({ type: MachineTargetInput, required: true }) },
    // The provisioner sets a Dying machine that never got an instance Dead (Juju's provisioner does).
    authScopes: (_root, { input }) => ({ $any: { machineAgent: input, provisioner: input } }),
    resolve: (_root, { input }, ctx) => setMachineDead(ctx.db, input),
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
  setUnitAgentStatus: t.field({
    type: UnitRef,
    description: "Unit agent: what it is doing (`allocating` until it first reports).",
    args: { input: t.arg({ type: UnitAgentStatusInput, required: true }) },
    authScopes: (_root, { input }) => ({ $any: { unitAgent: input, deployer: input } }),
    resolve: (_root, { input }, ctx) => setUnitAgentStatus(ctx.db, input),
  }),
  setWorkloadStatus: t.field({
    type: UnitRef,
    description: "Unit agent, for its charm's status-set: the unit's workload status, at once (not with the hook's commit).",
    args: { input: t.arg({ type: WorkloadStatusInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => setWorkloadStatus(ctx.db, input),
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
  setMachineStatus: t.field({
    type: MachineRef,
    description: "Machine agent (started, stopped) or provisioner (error, with the provider's message): the machine's status.",
    args: { input: t.arg({ type: MachineStatusInput, required: true }) },
    authScopes: (_root, { input }) => ({ $any: { machineAgent: input, provisioner: input } }),
    resolve: (_root, { input }, ctx) => setMachineStatus(ctx.db, input),
  }),
  resolveMachine: t.field({
    type: MachineRef,
    description:
      "`juju resolved` for a machine whose provisioning failed (seed 004): eligible again, with new constraints when given. NOT_IN_ERROR otherwise.",
    args: { input: t.arg({ type: ResolveMachineInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => resolveMachine(ctx.db, input),
  }),
  runCleanups: t.field({
    type: CleanupReportRef,
    description: "Cleaner: run the due cleanups (of one model, or all), each in bounded batches.",
    args: { model: t.arg.string(), maxBatches: t.arg.int() },
    // The cleaner runs on a model's manager machine; cleaning every model at once is for people.
    authScopes: (_root, args) => (args.model ? { provisioner: { model: args.model } } : { person: "operator" }),
    resolve: (_root, args, ctx) => runCleanups(ctx.db, args),
  }),
}));
