// A unit's operations: a person's (add-unit, remove-unit, resolved) and its agents' (seed 001 "Agents": its unit agent
// reports status and sets its unit Dying and Dead; its deployer removes it once Dead). Its hook runs are unit-agent.ts'.
import {
  addUnit,
  DEFAULT_MODEL,
  removeDeadUnit,
  removeDeadUnits,
  removeUnits,
  resolveUnit,
  setUnitAgentState,
  setUnitAgentStatus,
  setUnitDead,
  setUnitDying,
  setUnitsDead,
  setWorkloadStatus,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { UnitRef } from "../refs.js";
import { AgentUnitsInput } from "./credentials.js";
import { UnitAgentStatusEnum, WorkloadStatusEnum } from "./enums.js";
import { RemovalResultRef, removal, removalOptions } from "./removal.js";

const AddUnitInput = builder.inputType("AddUnitInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    application: t.string({ required: true }),
    count: t.int({ required: true, defaultValue: 1 }),
    placement: t.stringList({
      description:
        'One directive per unit, in order: "3" (machine 3), "lxd:3" (new container on 3), "lxd" (new container on a new machine). Units beyond the list get new machines.',
    }),
  }),
});

const RemoveUnitInput = builder.inputType("RemoveUnitInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    units: t.stringList({ required: true, description: 'Unit names, e.g. ["wordpress/0"].' }),
    ...removalOptions(t),
  }),
});

const ResolveUnitInput = builder.inputType("ResolveUnitInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    retry: t.boolean({
      required: true,
      defaultValue: true,
      description: "Run the failed hook again (`juju resolved`); false marks it done without running it (`--no-retry`).",
    }),
  }),
});

const UnitTargetInput = builder.inputType("UnitTargetInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), unit: t.string({ required: true }) }),
});

const UnitAgentStatusInput = builder.inputType("UnitAgentStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    status: t.field({ type: UnitAgentStatusEnum, required: true }),
  }),
});

const WorkloadStatusInput = builder.inputType("WorkloadStatusInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    status: t.field({ type: WorkloadStatusEnum, required: true }),
    message: t.string({ description: "At most 1000 characters." }),
  }),
});

const UnitAgentStateInput = builder.inputType("UnitAgentStateInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    state: t.field({ type: "JSONObject", required: true, description: "At most 256 KiB of JSON." }),
  }),
});

builder.mutationFields((t) => ({
  addUnit: t.field({
    type: [UnitRef],
    description: "`juju add-unit`: refused for subordinate applications and for applications that are not Alive.",
    args: { input: t.arg({ type: AddUnitInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => addUnit(ctx.db, input),
  }),
  removeUnit: t.field({
    type: [RemovalResultRef],
    description: "`juju remove-unit`: Dying (its subordinates follow), for its agent to finish. Refused for subordinates.",
    args: { input: t.arg({ type: RemoveUnitInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => removeUnits(ctx.db, removal(input, input.units)),
  }),
  resolveUnit: t.field({
    type: UnitRef,
    description:
      "`juju resolved` (retry: true) and `juju resolved --no-retry` (retry: false) for a unit whose agent is in error (NOT_IN_ERROR otherwise), " +
      "Alive or Dying (NOT_ALIVE when Dead): records what its agent is to do with the failed hook, until the run its agent begins for it takes it (beginHook). " +
      "ALREADY_RESOLVED while one is pending.",
    args: { input: t.arg({ type: ResolveUnitInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => resolveUnit(ctx.db, input),
  }),
  setUnitDying: t.field({
    type: UnitRef,
    description:
      "Unit agent (Juju's uniter Destroy): a subordinate's agent makes its unit Dying when no Alive container-scoped relation with its " +
      "principal's application remains. (Units go Dying with their application through the cleaner, not their agents.) Works on " +
      "subordinates (unlike removeUnit); a principal's subordinates follow it. A no-op for a unit that is not Alive.",
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
  setUnitsDead: t.field({
    type: [UnitRef],
    description:
      "setUnitDead for several units in one transaction, in the order named: all or nothing, the first refusal in that order refusing " +
      "the call (IN_SCOPE, HAS_SUBORDINATES; NOT_FOUND; INVALID_ARGUMENT for no unit, too many, or one named twice). Each unit's own agent " +
      "may ask, so the agents one process hosts may send their last calls together: `extensions.authorizations` lists each agent's " +
      "bearer token, in the units' order, and each unit is checked against its own (FORBIDDEN if any may not).",
    args: { input: t.arg({ type: AgentUnitsInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgents: input }),
    resolve: (_root, { input }, ctx) => setUnitsDead(ctx.db, input),
  }),
  removeDeadUnit: t.field({
    type: "Boolean",
    description:
      "Deployer (machine agent, or the principal's unit agent): remove a Dead unit; its application goes too when it was the last reference to it and it is Dying.",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    authScopes: (_root, { input }) => ({ deployer: input }),
    resolve: (_root, { input }, ctx) => removeDeadUnit(ctx.db, input),
  }),
  removeDeadUnits: t.field({
    type: "Boolean",
    description:
      "removeDeadUnit for several units in one transaction, in the order named: all or nothing, the first refusal in that order refusing " +
      "the call (NOT_DEAD, NOT_FOUND; INVALID_ARGUMENT for no unit, too many, or one named twice). Each unit's deployer may ask, so the " +
      "agents one process hosts may send their calls together: `extensions.authorizations` lists each deployer's bearer token, in the " +
      "units' order, and each unit is checked against its own (FORBIDDEN if any may not).",
    args: { input: t.arg({ type: AgentUnitsInput, required: true }) },
    authScopes: (_root, { input }) => ({ deployers: input }),
    resolve: (_root, { input }, ctx) => removeDeadUnits(ctx.db, input),
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
  setUnitAgentState: t.field({
    type: UnitRef,
    description: "Unit agent: saves its state document between hooks (INVALID_ARGUMENT over 256 KiB of JSON).",
    args: { input: t.arg({ type: UnitAgentStateInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => setUnitAgentState(ctx.db, input),
  }),
}));
