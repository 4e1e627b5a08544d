// A relation's operations: a person's (integrate, remove-relation) and its units' agents', which enter and leave its
// scope (seed 001 "Agents").
import type { InputFieldBuilder } from "@pothos/core";
import {
  DEFAULT_MODEL,
  enterScope,
  enterScopes,
  integrate,
  leaveScope,
  MAX_UNITS_A_CALL,
  removeRelations,
  type ScopeChange,
} from "../../model/index.js";
import { builder, type Types } from "../builder.js";
import { RelationRef, UnitRef } from "../refs.js";
import { ScopeMemberRef } from "./relation.js";
import { RemovalResultRef, removal, removalOptions } from "./removal.js";

const IntegrateInput = builder.inputType("IntegrateInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    endpoints: t.stringList({
      required: true,
      description: 'Two endpoints, each "<application>" or "<application>:<relation>", e.g. ["wordpress", "mysql"].',
    }),
  }),
});

const RemoveRelationInput = builder.inputType("RemoveRelationInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    relations: t.stringList({
      required: true,
      description: 'Relation ids ("3"), keys ("wordpress:db mysql:db") or endpoints ("wordpress mysql").',
    }),
    ...removalOptions(t),
  }),
});

/** One unit's entry, as both enterScope and enterScopes take it. */
const scopeEntryFields = (t: InputFieldBuilder<Types, "InputObject">) => ({
  unit: t.string({ required: true }),
  privateAddress: t.string({ required: true, description: "Written as the unit's private-address (and ingress-address) settings." }),
});

const EnterScopeInput = builder.inputType("EnterScopeInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    relation: t.int({ required: true }),
    ...scopeEntryFields(t),
  }),
});

const ScopeEntryInput = builder.inputType("ScopeEntryInput", { fields: scopeEntryFields });

const EnterScopesInput = builder.inputType("EnterScopesInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    relation: t.int({ required: true }),
    units: t.field({
      type: [ScopeEntryInput],
      required: true,
      description: `At least one, at most ${MAX_UNITS_A_CALL}, each unit once.`,
    }),
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

builder.mutationFields((t) => ({
  integrate: t.field({
    type: RelationRef,
    description:
      "`juju integrate`: relates two applications, inferring the endpoints when exactly one pair matches; " +
      "AMBIGUOUS_RELATION lists the candidates when several do.",
    args: { input: t.arg({ type: IntegrateInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => integrate(ctx.db, input),
  }),
  removeRelation: t.field({
    type: [RemovalResultRef],
    description:
      "`juju remove-relation`: removed at once when no unit is in scope, else Dying until the last leaves. With force, removed now whatever its scope count says. A peer relation is refused (PEER_RELATION): it goes only with its application.",
    args: { input: t.arg({ type: RemoveRelationInput, required: true }) },
    authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: input.model } }),
    resolve: (_root, { input }, ctx) => removeRelations(ctx.db, removal(input, input.relations)),
  }),
  enterScope: t.field({
    type: ScopeChangeRef,
    description:
      "Unit agent: join an Alive relation's scope, writing the unit's settings in the same transaction. A principal entering a container-scoped relation creates its subordinate.",
    args: { input: t.arg({ type: EnterScopeInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => enterScope(ctx.db, input),
  }),
  enterScopes: t.field({
    type: [ScopeChangeRef],
    description:
      "enterScope for several units of one relation in one transaction, in the order named: all or nothing, the first refusal in that " +
      "order refusing the call (INVALID_ARGUMENT for no unit, too many, or one named twice). Each unit's agent may ask, so the agents one " +
      "process hosts may send their calls together: `extensions.authorizations` lists each agent's bearer token, in the units' order, and " +
      "each unit is checked against its own (FORBIDDEN if any may not). Without that list, the request's own agent must be every unit's.",
    args: { input: t.arg({ type: EnterScopesInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgents: { model: input.model, units: input.units.map((u) => u.unit) } }),
    resolve: (_root, { input }, ctx) => enterScopes(ctx.db, input),
  }),
  leaveScope: t.field({
    type: ScopeChangeRef,
    description: "Unit agent: leave a relation's scope (a no-op when not in it). The last unit to leave a Dying relation removes it.",
    args: { input: t.arg({ type: LeaveScopeInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => leaveScope(ctx.db, input),
  }),
}));
