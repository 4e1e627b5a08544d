// What the agents call (seed 001 "Agents"): unit agents enter and leave scopes
// and set their units Dead; deployers remove Dead units; machine agents set
// their machines Dead; the provisioner removes Dead machines; the cleaner runs
// cleanups. Plain mutations, like everything else.
import { and, eq } from "drizzle-orm";
import { relationScopes, relationSettings } from "../../db/schema.js";
import { removeDeadMachine, setMachineDead } from "../../model/machine-life.js";
import { DEFAULT_MODEL, getModel } from "../../model/models.js";
import { runDueCleanups } from "../../model/removal.js";
import { enterScope, leaveScope, type ScopeRow } from "../../model/scopes.js";
import { transact } from "../../model/tx.js";
import { removeDeadUnit, setUnitDead } from "../../model/unit-life.js";
import { entityKey } from "../../model/read.js";
import { builder } from "../builder.js";
import { RelationRoleEnum } from "./enums.js";
import { MachineRef } from "./machine.js";
import { RelationRef } from "./relation.js";
import { UnitRef } from "./unit.js";

const ScopeMemberRef = builder.objectRef<ScopeRow>("ScopeMember").implement({
  description: "A unit in a relation's scope.",
  fields: (t) => ({
    unit: t.field({ type: UnitRef, resolve: (m) => entityKey(m.modelId, m.unit) }),
    unitName: t.exposeString("unit"),
    role: t.expose("role", { type: RelationRoleEnum }),
    container: t.exposeString("container", { nullable: true, description: "For container-scoped relations: the principal whose container this scope is." }),
  }),
});

type SettingsRow = typeof relationSettings.$inferSelect;
const SettingRef = builder.objectRef<{ key: string; value: string }>("Setting").implement({
  fields: (t) => ({ key: t.exposeString("key"), value: t.exposeString("value") }),
});
const RelationSettingsRef = builder.objectRef<SettingsRow>("RelationSettings").implement({
  description: "A unit's settings in a relation (relation-get). They outlive its departure until the relation is removed.",
  fields: (t) => ({
    unit: t.exposeString("unit"),
    version: t.exposeInt("version"),
    values: t.field({
      type: [SettingRef],
      resolve: (s) => Object.entries(s.settings).sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ key, value })),
    }),
  }),
});

builder.objectFields(RelationRef, (t) => ({
  members: t.field({
    type: [ScopeMemberRef],
    description: "The units in the relation's scope.",
    resolve: (r, _args, ctx) =>
      ctx.db.select().from(relationScopes).where(and(eq(relationScopes.modelId, r.modelId), eq(relationScopes.relationId, r.id))).orderBy(relationScopes.unit),
  }),
  settings: t.field({
    type: RelationSettingsRef,
    nullable: true,
    args: { unit: t.arg.string({ required: true }) },
    resolve: async (r, args, ctx) => {
      const [row] = await ctx.db
        .select()
        .from(relationSettings)
        .where(and(eq(relationSettings.modelId, r.modelId), eq(relationSettings.relationId, r.id), eq(relationSettings.unit, args.unit)));
      return row ?? null;
    },
  }),
}));

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

const ScopeChangeRef = builder.objectRef<{ member: ScopeRow | null; subordinate: string | null; relationRemoved: boolean; modelId: string }>("ScopeChange").implement({
  fields: (t) => ({
    member: t.field({ type: ScopeMemberRef, nullable: true, resolve: (c) => c.member }),
    subordinateCreated: t.field({
      type: UnitRef,
      nullable: true,
      description: "The subordinate a principal's entering a container-scoped relation created.",
      resolve: (c) => (c.subordinate ? entityKey(c.modelId, c.subordinate) : null),
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

const CleanupReportRef = builder.objectRef<{ batches: number; finished: number; remaining: number }>("CleanupReport").implement({
  fields: (t) => ({
    batches: t.exposeInt("batches", { description: "Bounded transactions run." }),
    finished: t.exposeInt("finished"),
    remaining: t.exposeInt("remaining", { description: "Cleanups still queued (waiting on agents, or not yet due)." }),
  }),
});

builder.mutationFields((t) => ({
  enterScope: t.field({
    type: ScopeChangeRef,
    description: "Unit agent: join an Alive relation's scope, writing the unit's settings in the same transaction. A principal entering a container-scoped relation creates its subordinate.",
    args: { input: t.arg({ type: EnterScopeInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      transact(ctx.db, (tx) => enterScope(tx, input)).then((r) => ({
        member: r.member,
        subordinate: r.subordinate?.name ?? null,
        relationRemoved: false,
        modelId: r.member.modelId,
      })),
  }),
  leaveScope: t.field({
    type: ScopeChangeRef,
    description: "Unit agent: leave a relation's scope (a no-op when not in it). The last unit to leave a Dying relation removes it.",
    args: { input: t.arg({ type: LeaveScopeInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      transact(ctx.db, async (tx) => {
        const result = await leaveScope(tx, input);
        return { member: null, subordinate: null, relationRemoved: result.relationRemoved, modelId: (await getModel(tx, input.model)).id };
      }),
  }),
  setUnitDead: t.field({
    type: UnitRef,
    description: "Unit agent: the unit becomes Dead. Refused while it is in any scope (IN_SCOPE) or has subordinates (HAS_SUBORDINATES).",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => transact(ctx.db, async (tx) => setUnitDead(tx, await getModel(tx, input.model), input.unit)),
  }),
  removeDeadUnit: t.field({
    type: "Boolean",
    description: "Deployer (machine agent, or the principal's unit agent): remove a Dead unit; its application goes too when it was the last reference to it and it is Dying.",
    args: { input: t.arg({ type: UnitTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => transact(ctx.db, async (tx) => removeDeadUnit(tx, await getModel(tx, input.model), input.unit)).then(() => true),
  }),
  setMachineDead: t.field({
    type: MachineRef,
    description: "Machine agent: the machine becomes Dead. Refused while principals are assigned (HAS_UNITS) or containers remain (HAS_CONTAINERS).",
    args: { input: t.arg({ type: MachineTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => transact(ctx.db, async (tx) => setMachineDead(tx, await getModel(tx, input.model), input.machine)),
  }),
  removeDeadMachine: t.field({
    type: "Boolean",
    description: "Provisioner: remove a Dead machine once its instance is released.",
    args: { input: t.arg({ type: MachineTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => transact(ctx.db, async (tx) => removeDeadMachine(tx, await getModel(tx, input.model), input.machine)).then(() => true),
  }),
  runCleanups: t.field({
    type: CleanupReportRef,
    description: "Cleaner: run the due cleanups (of one model, or all), each in bounded batches.",
    args: { model: t.arg.string(), maxBatches: t.arg.int() },
    resolve: (_root, args, ctx) => runDueCleanups(ctx.db, args.model, args.maxBatches),
  }),
}));
