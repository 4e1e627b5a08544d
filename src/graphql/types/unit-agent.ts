// A unit agent's side of the API: its status (with the hook it is about), the
// hook runs it begins and commits, and the state document it keeps on the server.
// Mutations that answer with the unit (setUnitAgentState; resolveUnit, `juju
// resolved`) are the unit's, in unit-mutations.ts.
import type { InputFieldBuilder } from "@pothos/core";
import type { DefaultConnectionArguments } from "@pothos/plugin-relay";
import { HookResult, ResolvedMode } from "../../core/hooks.js";
import { shownUnitAgent } from "../../core/presence.js";
import {
  agentStatesOf,
  beginHook,
  commitHook,
  DEFAULT_MODEL,
  entityKey,
  HOOK_LOG_LEVELS,
  HOOK_LOG_LINE_LIMIT,
  HOOK_LOG_LINES_KEPT,
  type HookLogLevel,
  type HookRunRow,
  hookHistoryPage,
  hookLogsOf,
  hookRunsPage,
  logHook,
  MAX_MISSING_HOOKS,
  MAX_MISSING_HOOKS_OF_UNITS,
  MAX_UNITS_A_CALL,
  type PageWindow,
  recordMissingHooks,
  recordUnitsMissingHooks,
} from "../../model/index.js";
import { builder, type Types } from "../builder.js";
import { cursorConnection } from "../connections.js";
import { ModelRef, UnitRef } from "../refs.js";
import { SettingInput } from "./common.js";

export const ResolvedModeEnum = builder.enumType("ResolvedMode", {
  description: "What `resolveUnit` asked of a unit agent in error.",
  values: {
    RETRY_HOOK: { value: ResolvedMode.RetryHook, description: "Run the failed hook again (`juju resolved`)." },
    SKIP_HOOK: { value: ResolvedMode.SkipHook, description: "Mark the failed hook done without running it (`juju resolved --no-retry`)." },
  },
});

export const HookRunResultEnum = builder.enumType("HookRunResult", {
  values: {
    RUNNING: { value: HookResult.Running, description: "Begun; its agent has not committed it yet." },
    SUCCEEDED: { value: HookResult.Succeeded, description: "Ran and succeeded: its relation settings were committed with it." },
    FAILED: { value: HookResult.Failed, description: "Ran and failed: nothing it wrote was committed, and its agent stopped in error." },
    SKIPPED: { value: HookResult.Skipped, description: "Marked done without running, after `resolveUnit(retry: false)`." },
    INTERRUPTED: {
      value: HookResult.Interrupted,
      description: "Never committed: its agent began another run first (it restarted mid-hook, and runs the hook again).",
    },
    MISSING: {
      value: HookResult.Missing,
      description:
        "Its charm shipped no such hook, and the agent moved past it: a run earlier versions recorded. Now none is recorded for such a hook (recordMissingHooks), as Juju records none.",
    },
  },
});

const HookCommitResultEnum = builder.enumType("HookCommitResult", {
  description: "How a unit agent ends a hook run.",
  values: {
    SUCCEEDED: { value: HookResult.Succeeded },
    FAILED: { value: HookResult.Failed },
    SKIPPED: { value: HookResult.Skipped, description: "After `resolveUnit(retry: false)`: the hook is done without running." },
  },
});

export interface AgentStatusShape {
  current: string;
  message: string;
  since: Date;
  hook: string | null;
  relation: number | null;
  remoteUnit: string | null;
}

export const AgentStatusRef = builder.objectRef<AgentStatusShape>("AgentStatus").implement({
  description: "A unit agent's status, as `juju status` shows it, with the hook it is about while executing or in error.",
  fields: (t) => ({
    current: t.exposeString("current", {
      description:
        '"allocating", "idle", "executing" or "error", as its agent last set it; "lost" while its agent is (no connection for longer than the grace period).',
    }),
    message: t.exposeString("message", {
      description:
        'Juju\'s: `running <hook> hook`, or `hook failed: "<hook>"`; `agent lost, see its hook history` while lost; empty otherwise.',
    }),
    since: t.expose("since", { type: "DateTime" }),
    hook: t.exposeString("hook", { nullable: true, description: "The hook it is running, or the one that failed." }),
    relation: t.exposeInt("relation", { nullable: true, description: "That hook's relation id, for a relation hook." }),
    remoteUnit: t.exposeString("remoteUnit", { nullable: true, description: "The remote unit that hook is about, if any." }),
  }),
});

/** A juju-log line, as HookRun.log and a HOOK event (HookInfo.log) give it. */
export interface HookLogLineShape {
  level: string;
  message: string;
  loggedAt: Date;
}

export const HookLogLevelEnum = builder.enumType("HookLogLevel", {
  description: "juju-log's levels (`juju-log -l`, loggo's names).",
  values: Object.fromEntries(HOOK_LOG_LEVELS.map((level) => [level, { value: level }])) as Record<HookLogLevel, { value: HookLogLevel }>,
});

export const HookLogLineRef = builder.objectRef<HookLogLineShape>("HookLogLine").implement({
  description: "A line a hook logged with juju-log, kept with its run.",
  fields: (t) => ({
    level: t.field({ type: HookLogLevelEnum, resolve: (l) => l.level as HookLogLevel }),
    message: t.exposeString("message", { description: `At most ${HOOK_LOG_LINE_LIMIT} characters: a longer line is cut.` }),
    loggedAt: t.expose("loggedAt", { type: "DateTime" }),
  }),
});

export const HookRunRef = builder.objectRef<HookRunRow>("HookRun").implement({
  description: "One hook a unit agent ran: begun before it ran, ended by its commit.",
  authScopes: (r) => ({ reached: { modelId: r.modelId, entity: { kind: "unitState", unit: r.unit } } }),
  fields: (t) => ({
    id: t.id({ resolve: (r) => String(r.id) }),
    unitName: t.exposeString("unit"),
    unit: t.field({
      type: UnitRef,
      nullable: true,
      description: "Null once its unit is removed (its runs outlive it: Model.hookHistory).",
      resolve: (r) => (r.unitRemovedAt ? null : entityKey(r.modelId, r.unit)),
    }),
    unitRemovedAt: t.expose("unitRemovedAt", {
      type: "DateTime",
      nullable: true,
      description: "When its unit was removed; null while it lives (a later unit of the same name has runs of its own).",
    }),
    hook: t.exposeString("hook"),
    relation: t.exposeInt("relationId", { nullable: true, description: "For relation hooks: the relation's id." }),
    remoteUnit: t.exposeString("remoteUnit", { nullable: true, description: "For -joined, -changed and -departed: the unit it is about." }),
    result: t.expose("result", { type: HookRunResultEnum }),
    message: t.exposeString("message", { description: "What its agent said when it committed the run." }),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
    endedAt: t.expose("endedAt", { type: "DateTime", nullable: true }),
    log: t.loadableList({
      type: HookLogLineRef,
      description: `What the hook logged with juju-log, in order: the first ${HOOK_LOG_LINES_KEPT} lines.`,
      load: (ids: number[], ctx) => hookLogsOf(ctx.db, ids),
      resolve: (r) => r.id,
    }),
    logLinesDropped: t.int({
      description: `Lines it logged past the first ${HOOK_LOG_LINES_KEPT}: counted, not kept.`,
      resolve: (r) => Math.max(0, r.logLines - HOOK_LOG_LINES_KEPT),
    }),
  }),
});

/** Hook runs newest first; cursors are run ids. */
const hookRunConnection = (args: DefaultConnectionArguments, page: (w: PageWindow) => Promise<HookRunRow[]>) =>
  cursorConnection(args, (r: HookRunRow) => String(r.id), page);

builder.objectFields(UnitRef, (t) => ({
  agentStatus: t.field({
    type: AgentStatusRef,
    resolve: (u) => {
      const shown = shownUnitAgent(u);
      return {
        current: shown.agentStatus,
        message: shown.agentMessage,
        since: shown.agentSince,
        hook: shown.agentStatusData.hook ?? null,
        relation: shown.agentStatusData.relationId ?? null,
        remoteUnit: shown.agentStatusData.remoteUnit ?? null,
      };
    },
  }),
  resolved: t.expose("resolved", {
    type: ResolvedModeEnum,
    nullable: true,
    description:
      "What resolveUnit asked of its agent in error, until its agent begins the run it allows (beginHook); null when nothing is asked.",
  }),
  agentState: t.loadable({
    type: "JSONObject",
    nullable: true,
    description: "The state document its agent keeps on the server (beginHook, commitHook, setUnitAgentState); null until it saves one.",
    authScopes: (u) => ({ reached: { modelId: u.modelId, entity: { kind: "unitState", unit: u.name } } }),
    load: (keys: string[], ctx) => agentStatesOf(ctx.db, keys),
    resolve: (u) => entityKey(u.modelId, u.name),
  }),
  hookRuns: t.connection({
    type: HookRunRef,
    description:
      "The hooks its agent ran, newest first (the latest 100 are kept: LIFELINE_HOOK_HISTORY_PER_UNIT; after its removal, Model.hookHistory).",
    authScopes: (u) => ({ reached: { modelId: u.modelId, entity: { kind: "unitState", unit: u.name } } }),
    resolve: (u, args, ctx) => hookRunConnection(args, (window) => hookRunsPage(ctx.db, { modelId: u.modelId, unit: u.name }, window)),
  }),
}));

const HookHistoryOrderEnum = builder.enumType("HookHistoryOrder", {
  values: {
    NEWEST_FIRST: { value: "newest", description: "Juju's show-status-log." },
    OLDEST_FIRST: { value: "oldest", description: "Juju's debug-log --replay: then follow the `changes(kinds: [HOOK])` stream." },
  },
});

builder.objectFields(ModelRef, (t) => ({
  hookHistory: t.connection({
    type: HookRunRef,
    description:
      "The hooks the model's unit agents ran, its removed units' included (Juju's show-status-log, debug-log --replay), with their " +
      `juju-log lines; of one unit name, or one application's units, when given. Bounded: the latest runs of each unit name ` +
      "(LIFELINE_HOOK_HISTORY_PER_UNIT, default 100), and ended runs no older than LIFELINE_HOOK_HISTORY_DAYS (default 7).",
    args: {
      unit: t.arg.string(),
      application: t.arg.string(),
      order: t.arg({ type: HookHistoryOrderEnum, required: true, defaultValue: "newest" }),
    },
    authScopes: (model, args) => ({
      reached: { modelId: model.id, entity: args.unit ? { kind: "unitState", unit: args.unit } : { kind: "model" } },
    }),
    resolve: (model, args, ctx) =>
      hookRunConnection(args, (window) =>
        hookHistoryPage(ctx.db, { modelId: model.id, unit: args.unit, application: args.application }, window, args.order === "oldest"),
      ),
  }),
  hookRuns: t.connection({
    type: HookRunRef,
    description:
      "The hooks the model's living unit agents ran, newest first; of one unit when `unit` is given (a removed unit's: Model.hookHistory).",
    args: { unit: t.arg.string() },
    authScopes: (model, args) => ({
      reached: { modelId: model.id, entity: args.unit ? { kind: "unitState", unit: args.unit } : { kind: "model" } },
    }),
    resolve: (model, args, ctx) =>
      hookRunConnection(args, (window) => hookRunsPage(ctx.db, { modelId: model.id, unit: args.unit }, window)),
  }),
}));

const BeginHookInput = builder.inputType("BeginHookInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    hook: t.string({ required: true, description: 'A hook its charm may have: "install", "db-relation-changed", …' }),
    relation: t.int({ description: "For relation hooks: the relation's id." }),
    remoteUnit: t.string({ description: "For -joined, -changed and -departed: the unit the hook is about." }),
    resolved: t.field({
      type: ResolvedModeEnum,
      description:
        "The resolution this run acts on, as the unit showed it pending (the failed hook's run it allows); none for any other run, " +
        "its retry timer's included. The run takes it.",
    }),
    state: t.field({ type: "JSONObject", description: "The agent's state document, saved with the run (at most 256 KiB of JSON)." }),
  }),
});

const HookTargetInput = builder.inputType("HookTargetInput", {
  description: "A hook as a unit agent came to it.",
  fields: (t) => ({
    hook: t.string({ required: true }),
    relation: t.int({ description: "For relation hooks: the relation's id." }),
    remoteUnit: t.string({ description: "For -joined, -changed and -departed: the unit the hook is about." }),
  }),
});

/** One unit's missing hooks, as both recordMissingHooks and recordUnitsMissingHooks take them. */
const unitMissingHooksFields = (t: InputFieldBuilder<Types, "InputObject">) => ({
  unit: t.string({ required: true }),
  hooks: t.field({
    type: [HookTargetInput],
    required: true,
    description: `In the order the agent came to them; 1 to ${MAX_MISSING_HOOKS}.`,
  }),
  state: t.field({ type: "JSONObject", description: "The agent's state document after the last of them." }),
});

const RecordMissingHooksInput = builder.inputType("RecordMissingHooksInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), ...unitMissingHooksFields(t) }),
});

const UnitMissingHooksInput = builder.inputType("UnitMissingHooksInput", { fields: unitMissingHooksFields });

const RecordUnitsMissingHooksInput = builder.inputType("RecordUnitsMissingHooksInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    units: t.field({
      type: [UnitMissingHooksInput],
      required: true,
      description: `At least one, at most ${MAX_UNITS_A_CALL}, each unit once; at most ${MAX_MISSING_HOOKS_OF_UNITS} hooks in all.`,
    }),
  }),
});

const RelationSettingsWriteInput = builder.inputType("RelationSettingsWriteInput", {
  description: "A hook's relation-set writes to the unit's own settings in one relation.",
  fields: (t) => ({
    relation: t.int({ required: true }),
    set: t.field({ type: [SettingInput], description: "Keys to set; an empty value deletes the key, as relation-set's does." }),
    unset: t.stringList({ description: "Keys to delete." }),
  }),
});

const CommitHookInput = builder.inputType("CommitHookInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    run: t.id({ required: true, description: "The run's id, as beginHook returned it." }),
    result: t.field({ type: HookCommitResultEnum, required: true }),
    message: t.string({ description: "Kept with the run (e.g. a failed hook's exit status); at most 1000 characters." }),
    settings: t.field({
      type: [RelationSettingsWriteInput],
      description: "The hook's relation-set writes, committed only with SUCCEEDED; one new settings version per relation they change.",
    }),
    state: t.field({ type: "JSONObject", description: "The agent's state document, saved with the commit." }),
  }),
});

const LogHookInput = builder.inputType("LogHookInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    unit: t.string({ required: true }),
    run: t.id({ required: true, description: "The running hook's run id, as beginHook returned it." }),
    level: t.field({ type: HookLogLevelEnum, required: true }),
    message: t.string({ required: true, description: `Kept up to ${HOOK_LOG_LINE_LIMIT} characters.` }),
  }),
});

builder.mutationFields((t) => ({
  logHook: t.boolean({
    description:
      `Unit agent, for a line its running hook logged (juju-log): kept with the run, the first ${HOOK_LOG_LINES_KEPT} of a run (later ones ` +
      "are counted, and answer false), and streamed at once as a HOOK event carrying it (HookInfo.log). NOT_FOUND for a run not of the " +
      "unit; HOOK_RUN_ENDED for one already committed.",
    args: { input: t.arg({ type: LogHookInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => logHook(ctx.db, { ...input, run: String(input.run) }),
  }),
  beginHook: t.field({
    type: HookRunRef,
    description:
      "Unit agent, before it runs a hook: the run is recorded RUNNING, its agent status becomes executing, and its state document is saved. " +
      "A run of the unit still RUNNING is ended INTERRUPTED (its agent restarted mid-hook). While its agent is in error, the failed hook's " +
      "run names the resolution pending (`resolved`), if one is, and takes it: `resolved` reads null from then on, so a resolution allows " +
      "one run; RESOLUTION_MISMATCH, beginning nothing, for a run naming one not pending (taken already) or naming none while one is. " +
      "INVALID_ARGUMENT for a hook its charm cannot have, or a resolution named for a hook other than the failed one; NOT_ALIVE for a Dead unit.",
    args: { input: t.arg({ type: BeginHookInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => beginHook(ctx.db, input),
  }),
  commitHook: t.field({
    type: HookRunRef,
    description:
      "Unit agent, after it ran (or skipped) a hook; one transaction. SUCCEEDED commits the hook's relation-set writes (NOT_IN_SCOPE for a " +
      'relation the unit is not in the scope of) and makes the agent idle; FAILED commits nothing and puts the agent in error (`hook failed: "<hook>"`); ' +
      "SKIPPED commits nothing and makes it idle. A -relation-broken hook SUCCEEDED or SKIPPED also leaves the relation's scope (Juju's " +
      "relationer). Every commit saves the state document. Repeating a commit with the run's " +
      "result changes nothing; another result, or a run already interrupted, is HOOK_RUN_ENDED.",
    args: { input: t.arg({ type: CommitHookInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => commitHook(ctx.db, { ...input, run: String(input.run) }),
  }),
  recordMissingHooks: t.field({
    type: UnitRef,
    description:
      "Unit agent, for hooks its charm does not ship, which it moves past without running: one transaction checks them, in order (a " +
      "-relation-broken among them leaves its scope, as its commit would), makes the agent idle and saves its state document; the unit as " +
      "it stands after. No run is recorded, as Juju's uniter records none: the unit's hook history lists the hooks that ran. " +
      "INVALID_ARGUMENT for a hook the charm ships (it must run: beginHook, commitHook) " +
      "or cannot have; UNIT_IN_ERROR for a unit in error (its failed hook comes first); NOT_ALIVE for a Dead unit.",
    args: { input: t.arg({ type: RecordMissingHooksInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgent: input }),
    resolve: (_root, { input }, ctx) => recordMissingHooks(ctx.db, input),
  }),
  recordUnitsMissingHooks: t.field({
    type: [UnitRef],
    description:
      "recordMissingHooks for several units in one transaction, in the order named: all or nothing, the first refusal in that order " +
      "refusing the call; the units as they stand after, in that order. Each unit's own agent may ask, so the agents one process hosts may send their " +
      "calls together: `extensions.authorizations` lists each agent's bearer token, in the units' order, and each unit is checked against " +
      "its own (FORBIDDEN if any may not).",
    args: { input: t.arg({ type: RecordUnitsMissingHooksInput, required: true }) },
    authScopes: (_root, { input }) => ({ unitAgents: { model: input.model, units: input.units.map((u) => u.unit) } }),
    resolve: (_root, { input }, ctx) => recordUnitsMissingHooks(ctx.db, input),
  }),
}));
