// A unit agent (Juju's uniter, ../shared/JUJU-AGENTS.md; seed 001 "Agents"),
// with the credentials its deployer issued. It watches its unit and its
// application (unitLife), its application's relations (applicationRelations)
// and, in each relation whose scope it is in, the counterpart units and their
// settings versions (relationUnits). One pass at a time, it:
// - enters the scope of each Alive relation of its application (a principal
//   entering a container-scoped relation creates its subordinate);
// - runs its charm's hooks one at a time in Juju's order (uniter/resolver.ts),
//   each begun and committed on the server with the agent's progress, so an
//   agent redeployed with nothing local resumes exactly and still departs its
//   relations (the seeds' hardware-failure BUG); a hook's relation-set writes
//   are committed with it, only if it succeeded; a failed hook stops the unit
//   in error until `resolveUnit` (or, when the model allows, a retry with
//   backoff); committing -broken leaves the scope;
// - sets its unit Dying when its application is Dying, and, as a subordinate,
//   when no Alive container-scoped relation with its principal's application
//   remains;
// - Dying, departs every relation, runs stop and remove, waits until its
//   subordinates are removed, and sets its unit Dead; then stops for good;
// - as a principal, deploys its subordinates (their agents run beside it,
//   sharing its addresses and machine, seed 003), removes those never deployed
//   that are no longer Alive, and recalls and removes Dead ones.
import { join } from "node:path";
import {
  type ApplicationInfoFieldsFragment,
  ApplicationRelationsDocument,
  type ApplicationRelationsSubscription,
  BeginHookDocument,
  CommitHookDocument,
  EnterScopeDocument,
  LeaveScopeDocument,
  type Life,
  ModelRetriesHooksDocument,
  RecordMissingHooksDocument,
  type RelationInfoFieldsFragment,
  RelationUnitsDocument,
  type RelationUnitsSubscription,
  type ScopeInfoFieldsFragment,
  type SettingsInfoFieldsFragment,
  SetUnitAgentStateDocument,
  SetUnitAgentStatusDocument,
  SetUnitDeadDocument,
  SetUnitDyingDocument,
  SetWorkloadStatusDocument,
  UnitAgentStateDocument,
  type UnitAgentStateQuery,
  UnitCharmDocument,
  type UnitCharmHooksFragment,
  UnitConfigDocument,
  type UnitInfoFieldsFragment,
  UnitLifeDocument,
  type UnitLifeSubscription,
  UnitRelationSettingsDocument,
  type WorkloadStatus,
} from "../client/graphql.js";
import { applicationOfUnit } from "../core/unit-name.js";
import { type AgentConnection, ApiError, type Call, passesAgain } from "./connection.js";
import { type DeployedAgent, type DeployedUnitView, Deployer, type UnitAgentCredentials } from "./deployer.js";
import type { WorkloadStatus as HookWorkloadStatus } from "./hooks/context.js";
import type { HookRunner } from "./hooks/run-hook.js";
import { SerialPasses } from "./serial.js";
import { StreamView } from "./stream-view.js";
import { ApiHookContext, type RelationInHook } from "./uniter/api-context.js";
import { writeCharmDir } from "./uniter/charm-dir.js";
import {
  afterHook,
  applyHook,
  byName,
  copyProgress,
  freshProgress,
  type Hook,
  hookSequence,
  nextHook,
  relationsToLeave,
  type Situation,
  type UniterProgress,
} from "./uniter/resolver.js";
import { type HookRetryOptions, JUJU_HOOK_RETRY, RetryTimer } from "./uniter/retry.js";

export type { DeployedUnitView, UnitAgentCredentials };

export interface UnitAgentOptions {
  /** The addresses the unit publishes (its machine's; a subordinate shares its principal's). */
  privateAddress: string;
  publicAddress?: string;
  /** The machine it runs on (a subordinate's is its principal's): JUJU_MACHINE_ID. */
  machineId: string;
  /** Runs hooks; one per process, shared by its agents. */
  runner: HookRunner;
  /** Where the agent keeps its charm directory: a cache, written again from the API when missing. */
  dataDir: string;
  /** When the model allows it, a failed hook is retried after a wait doubling up to a bound (Juju: 5 s to 5 min, the default). */
  hookRetry?: HookRetryOptions;
  log?: (line: string) => void;
}

/** The agent's progress as kept on the server (a JSON document): the resolver's, plus a hook begun and not yet committed. */
type StoredProgress = UniterProgress & { pending: Hook | null };

/**
 * What a pass does about hooks: run one (or skip it, resolved with no retry), nothing, or wait in error. A run of the
 * failed hook says what allowed it: a person's resolution or the retry timer, each good for one run.
 */
type HookChoice = { hook: Hook; skip: boolean; by?: "resolution" | "timer" } | null | "wait";

/** Missing hooks passed in one recordMissingHooks call: well under the server's MAX_MISSING_HOOKS. */
const MISSING_HOOKS_A_CALL = 500;

/** A charm's status-set, as the API spells it. */
const workloadStatus: Record<HookWorkloadStatus, WorkloadStatus> = {
  maintenance: "MAINTENANCE",
  blocked: "BLOCKED",
  waiting: "WAITING",
  active: "ACTIVE",
};

type UnitLifeEvent = UnitLifeSubscription["unitLife"];
type RelationsEvent = ApplicationRelationsSubscription["applicationRelations"];
type MembersEvent = RelationUnitsSubscription["relationUnits"];

/** One relation's counterpart units in scope, and their settings versions (its relationUnits stream). */
interface RelationMembers {
  scopes: StreamView<MembersEvent, ScopeInfoFieldsFragment>;
  settings: StreamView<MembersEvent, SettingsInfoFieldsFragment>;
  unsubscribe: () => void;
}

export class UnitAgent implements DeployedAgent {
  /** Its unit and its application (the unitLife stream). */
  private readonly ownUnit = new StreamView<UnitLifeEvent, UnitInfoFieldsFragment>((e) => e.unit);
  private readonly ownApplication = new StreamView<UnitLifeEvent, ApplicationInfoFieldsFragment>((e) => e.application);
  private readonly relations = new StreamView<RelationsEvent, RelationInfoFieldsFragment>((e) => e.relation);
  /** relationUnits per relation whose scope the unit is in. */
  private readonly members = new Map<number, RelationMembers>();
  /** Its progress, read from the server when it starts (null until then). */
  private progress: StoredProgress | null = null;
  /** What start() read of its unit, which its first pass makes its progress from (the agent alone writes it meanwhile). */
  private stored: NonNullable<UnitAgentStateQuery["model"]>["unit"] = null;
  /** The hooks its charm ships, once its charm directory is written (null until then). */
  private shipped: ReadonlySet<string> | null = null;
  /** Its charm's hooks as start() read them with its state, for its charm directory (null once written, or unread). */
  private charmHooks: UnitCharmHooksFragment["hooks"] | null = null;
  /** Fires once per wait of Juju's schedule: each firing allows one run of the failed hook (retryDue). */
  private readonly retryTimer: RetryTimer;
  private retryDue = false;
  /**
   * The agent has armed the retry timer for the failure it is in, or found that the model does not retry hooks (Juju's
   * retryHookTimerStarted): a run of the failed hook clears it, so the next failure arms the next wait.
   */
  private retryArmed = false;
  /**
   * This agent committed its pending hook as FAILED: it is in error whether or not its own stream has said so yet.
   * Without it, a pass that ran before the stream delivered `error` took the failed hook for one begun and never
   * committed, and ran it again (seen once in CI, with automatic retries off).
   */
  private committedFailure = false;
  /** It set its unit Dying (life only moves on, so once is enough). */
  private setDying = false;
  /**
   * Its unit's agent still shows `allocating`, the status a unit has until its agent first reports. The first hook
   * call ends it (executing, or idle once hooks the charm does not ship are passed), as Juju's uniter goes from
   * allocating to running its install hook; only a pass with no hook to run reports idle by itself.
   */
  private allocating = false;
  /** Its subordinates' deployer (deployer.ts): their agents run beside it, sharing its addresses and machine (seed 003). */
  private readonly deployer: Deployer<UnitAgent>;
  private readonly call: Call;
  private readonly unsubscribe: (() => void)[] = [];
  private readonly passes: SerialPasses;
  private readonly log: (line: string) => void;
  private done = false;
  private finish: () => void = () => {};
  /** Settles once the agent has stopped (its unit is Dead or gone, or it was told to). */
  readonly finished = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(
    private readonly api: AgentConnection,
    readonly credentials: UnitAgentCredentials,
    private readonly options: UnitAgentOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.call = api.callerFor(credentials.token);
    this.retryTimer = new RetryTimer(options.hookRetry ?? JUJU_HOOK_RETRY, () => {
      this.retryDue = true;
      this.passes.poke();
    });
    this.passes = new SerialPasses(
      () => this.act(),
      (error) => {
        if (!this.done) this.log(`${credentials.tag}: ${String(error)}`);
      },
      { retryable: passesAgain },
    );
    this.deployer = new Deployer<UnitAgent>({
      model: credentials.model,
      tag: credentials.tag,
      call: this.call,
      responsibleFor: (_, view) => view.principal === credentials.unit,
      noun: "subordinate",
      agentFor: (subordinate) => new UnitAgent(api, subordinate, options),
      stopped: () => this.done,
      log: this.log,
    });
  }

  /** The agents of the subordinates it deployed, by unit. */
  get subordinateAgents(): ReadonlyMap<string, UnitAgent> {
    return this.deployer.agents;
  }

  private get application() {
    return applicationOfUnit(this.credentials.unit);
  }

  /** Per model and unit: unit names repeat across models, and two agents must never share (or wipe) one directory. */
  private get charmDir() {
    return join(this.options.dataDir, this.credentials.model, this.credentials.tag, "charm");
  }

  async start(): Promise<void> {
    const { model, unit, token, tag } = this.credentials;
    const { model: state } = await this.call(UnitAgentStateDocument, { model, unit });
    this.stored = state?.unit ?? null;
    this.charmHooks = state?.unit?.application.charm.hooks ?? null;
    this.allocating = state?.unit?.agentStatus.current === "allocating";
    this.log(`${tag}: started`);
    const failed = (error: Error) => {
      if (!this.done) this.log(`${tag}: a stream ended: ${error.message}`);
    };
    this.unsubscribe.push(
      this.api.subscribe(UnitLifeDocument, { model, unit }, token, {
        // Both views see every event: each takes its own kind's, and both end their snapshot at the same BOOKMARK.
        next: (d) => this.poked([this.ownUnit.apply(d.unitLife), this.ownApplication.apply(d.unitLife)].includes(true)),
        failed,
      }),
      this.api.subscribe(ApplicationRelationsDocument, { model, application: this.application }, token, {
        next: (d) => this.poked(this.relations.apply(d.applicationRelations)),
        failed,
      }),
    );
  }

  private poked(changed: boolean): void {
    if (changed) this.passes.poke();
  }

  /** The deployer's view of the units on the machine changed: a principal's subordinates may have. */
  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void {
    this.deployer.unitsChanged(units);
    this.passes.poke();
  }

  /** Stops this agent and the subordinate agents it runs (recalled, or the process is stopping). */
  stop(): void {
    if (this.done) return;
    this.done = true;
    this.retryTimer.reset();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const { unsubscribe } of this.members.values()) unsubscribe();
    const subordinates = this.deployer.stopAll();
    // Finished once its own pass and its subordinates' are over: whoever owns the hook runner may close it then.
    void Promise.all([this.passes.stop(), ...subordinates.map((agent) => agent.finished)]).then(this.finish);
  }

  private async act(): Promise<void> {
    if (this.done || !this.ownUnit.synced || !this.relations.synced) return;
    const { model, unit: name, tag } = this.credentials;
    const unit = this.ownUnit.get(name);
    if (!unit || unit.life === "DEAD") {
      this.stop(); // its deployer recalls and removes it
      return;
    }
    const principal = unit.info.principalName;
    const progress = await this.loadProgress();

    // Set Dying already: nothing to do until the stream brings the new life back (a pass woken by another change
    // meanwhile sent it a second time).
    if (unit.life === "ALIVE" && this.setDying) return;
    if (unit.life === "ALIVE" && this.shouldDie(principal)) {
      await this.call(SetUnitDyingDocument, { input: { model, unit: name } });
      this.setDying = true;
      this.log(`${tag}: set unit ${name} Dying`);
      return;
    }
    if (unit.life === "ALIVE") await this.enterScopes(progress, principal);
    this.watchMembers(progress);
    if ([...this.members.values()].some((m) => !m.scopes.synced)) return; // a relation's first state is still on its way

    const situation = this.situation(unit.life ?? "ALIVE");
    for (const id of relationsToLeave(progress, situation)) {
      await this.leaveScope(id);
      delete progress.relations[id];
      await this.call(SetUnitAgentStateDocument, { input: { model, unit: name, state: { ...progress } } });
      this.log(`${tag}: left peer relation ${id}`);
    }

    // Its subordinates are deployed whatever its hooks are doing: they run beside it, on their own.
    const subordinates = await this.deployer.deploy();
    const choice = this.hookToRun(unit.info, progress, situation);
    if (choice === "wait") {
      await this.armRetry();
      return;
    }
    if (choice) {
      const shipped = await this.ensureCharm();
      if (!choice.skip && !shipped.has(choice.hook.name)) await this.passMissingHooks(choice.hook, progress, situation, shipped);
      else if (!(await this.runHook(choice, progress, situation))) return;
      this.allocating = false;
      this.passes.poke(); // one hook a pass: the next pass sees what it changed
      return;
    }
    if (this.allocating) {
      await this.call(SetUnitAgentStatusDocument, { input: { model, unit: name, status: "IDLE" } });
      this.allocating = false;
    }
    if (unit.life !== "ALIVE" && progress.removed && Object.keys(progress.relations).length === 0 && subordinates === 0) {
      await this.call(SetUnitDeadDocument, { input: { model, unit: name } });
      this.log(`${tag}: unit ${name} is Dead; stopping for good`);
      this.stop();
    }
  }

  /**
   * The hook to run now: a failed one once resolved or due for a retry, one begun and never committed, or the
   * resolver's next. In error, nothing else runs: the failed hook waits (Juju's uniter, resolver.go nextOpHookError).
   */
  private hookToRun(unit: UnitInfoFieldsFragment, progress: StoredProgress, situation: Situation): HookChoice {
    const inError = unit.agentStatus?.current === "error";
    if ((inError || this.committedFailure) && progress.pending) {
      // A resolution shows on a row of the agent in error; rows its own runs wrote meanwhile may still be on their way.
      const resolved = inError ? unit.resolved : null;
      if (resolved) return { hook: progress.pending, skip: resolved === "SKIP_HOOK", by: "resolution" };
      if (this.retryDue) return { hook: progress.pending, skip: false, by: "timer" };
      return "wait";
    }
    // A hook begun but never committed (the agent stopped mid-hook) is run again, as Juju treats it as failed.
    const hook = progress.pending ?? nextHook(progress, situation);
    return hook ? { hook, skip: false } : null;
  }

  /** Reads the agent's progress from the server, once; adds the scopes the server says it is in that the progress lacks. */
  private async loadProgress(): Promise<StoredProgress> {
    if (this.progress) return this.progress;
    const { model, unit } = this.credentials;
    const read = this.stored ?? (await this.call(UnitAgentStateDocument, { model, unit })).model?.unit;
    this.stored = null;
    const stored = read?.agentState as Partial<StoredProgress> | null | undefined;
    const progress: StoredProgress = { ...freshProgress(), pending: null, ...stored, relations: { ...stored?.relations } };
    for (const relation of read?.relationsInScope ?? []) {
      const key = String(relation.id);
      if (progress.relations[key]) continue;
      const endpoint = this.ownEndpoint(this.relations.get(key)?.info);
      progress.relations[key] = { endpoint, members: {}, changedPending: null };
    }
    this.progress = progress;
    return progress;
  }

  /** The unit's own endpoint name in a relation (the endpoint of its application). */
  private ownEndpoint(relation: RelationInfoFieldsFragment | undefined): string {
    return relation?.endpoints?.find((e) => e.applicationName === this.application)?.name ?? "";
  }

  /** Enters the scope of each Alive relation of its application it belongs in and is not in yet. */
  private async enterScopes(progress: StoredProgress, principal: string | null): Promise<void> {
    const { model, unit: name, tag } = this.credentials;
    for (const relation of this.relations.all()) {
      const id = Number(relation.entity);
      if (relation.life !== "ALIVE" || progress.relations[id] || !this.belongsIn(relation.info, principal)) continue;
      try {
        await this.call(EnterScopeDocument, { input: { model, relation: id, unit: name, privateAddress: this.options.privateAddress } });
        progress.relations[id] = { endpoint: this.ownEndpoint(relation.info), members: {}, changedPending: null };
        this.log(`${tag}: entered the scope of relation ${id} "${relation.info.key ?? ""}"`);
      } catch (error) {
        // Dying meanwhile, or a previous subordinate still leaving (CANNOT_ENTER_SCOPE_YET): a later event brings it back here.
        if (!(error instanceof ApiError)) throw error;
        this.log(`${tag}: cannot enter relation ${id} yet: ${error.message}`);
      }
    }
  }

  /** Leaves a relation's scope; a relation already gone (left before a restart, then removed) is left already. */
  private async leaveScope(relation: number): Promise<void> {
    const { model, unit } = this.credentials;
    try {
      await this.call(LeaveScopeDocument, { input: { model, relation, unit } });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "NOT_FOUND")) throw error;
    }
  }

  /** Keeps one relationUnits stream open per relation in the progress, and none for the others. */
  private watchMembers(progress: StoredProgress): void {
    const { model, unit, token } = this.credentials;
    for (const [id, watch] of this.members)
      if (!progress.relations[id]) {
        watch.unsubscribe();
        this.members.delete(id);
      }
    for (const key of Object.keys(progress.relations)) {
      const id = Number(key);
      if (this.members.has(id)) continue;
      const scopes = new StreamView<MembersEvent, ScopeInfoFieldsFragment>((e) => e.scope);
      const settings = new StreamView<MembersEvent, SettingsInfoFieldsFragment>((e) => e.settings);
      const unsubscribe = this.api.subscribe(RelationUnitsDocument, { model, relation: id, unit }, token, {
        next: (d) => this.poked([scopes.apply(d.relationUnits), settings.apply(d.relationUnits)].includes(true)),
        // A relation removed under the agent: its stream ends with NOT_FOUND; it then counts as gone (every member departs).
        failed: () => {
          scopes.synced = true;
          settings.synced = true;
          this.passes.poke();
        },
      });
      this.members.set(id, { scopes, settings, unsubscribe });
    }
  }

  /** What the streams say now, in the resolver's terms. */
  private situation(unitLife: Life): Situation {
    const relations: Situation["relations"] = {};
    for (const [id, { scopes, settings }] of this.members) {
      const relation = this.relations.get(String(id));
      if (!relation) continue; // removed: gone for the resolver
      const remote: Record<string, number> = {};
      for (const scope of scopes.all()) {
        const unit = scope.info.unitName;
        if (unit === this.credentials.unit) continue;
        remote[unit] = settings.get(scope.entity)?.info.version ?? 0;
      }
      const peer = relation.info.endpoints?.length === 1;
      relations[id] = { life: relation.life ?? "ALIVE", peer, remote };
    }
    return {
      unitLife,
      configVersion: this.ownApplication.get(this.application)?.info.configVersion ?? 0,
      relations,
    };
  }

  /**
   * Begins, runs and commits one hook (or, resolved with no retry, marks it done without running). False when the server
   * begins nothing: the run named a resolution it no longer has pending, or none while one is (RESOLUTION_MISMATCH),
   * because the agent's stream is behind; the rows it has yet to bring poke the next pass.
   */
  private async runHook(
    { hook: spec, skip, by }: Exclude<HookChoice, null | "wait">,
    progress: StoredProgress,
    situation: Situation,
  ): Promise<boolean> {
    const { model, unit, tag } = this.credentials;
    const begun = { ...progress, pending: spec };
    // The resolution the run acts on: the server takes it as the run begins, once (Juju's ClearResolved).
    const resolved = by === "resolution" ? (skip ? "SKIP_HOOK" : "RETRY_HOOK") : null;
    let run: { id: string };
    try {
      const hook = { hook: spec.name, relation: spec.relation?.id ?? null, remoteUnit: spec.remoteUnit ?? null };
      run = (await this.call(BeginHookDocument, { input: { model, unit, ...hook, resolved, state: begun } })).beginHook;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "RESOLUTION_MISMATCH")) throw error;
      this.log(`${tag}: hook ${spec.name} not begun: ${error.message}; waiting for its stream`);
      return false;
    }
    this.progress = begun;
    if (by) this.takeRetry(by); // begun: what allowed this run is spent
    const context = this.context(spec, situation);
    const outcome = skip ? { ran: false as const } : await this.execute(spec, context);
    // Stopped (killed, recalled) while the hook ran: its outcome says nothing about the charm. The run stays begun,
    // and whoever runs this unit next runs the hook again, as Juju treats a hook interrupted by a restart.
    if (this.done) return true;
    if (outcome.ran && !outcome.ok) {
      await this.call(CommitHookDocument, {
        input: { model, unit, run: run.id, result: "FAILED", message: failureMessage(outcome), state: begun },
      });
      this.committedFailure = true;
      this.retryArmed = false; // a new failure: the next pass arms the schedule's next wait
      this.log(`${tag}: hook ${spec.name} failed (${failureMessage(outcome)})`);
      return true;
    }
    // Committing -broken leaves the scope (Juju's relationer): the server does both in one transaction.
    const next: StoredProgress = { ...afterHook(progress, spec, situation), pending: null };
    const settings = [...context.pending.changes()].map(([relation, values]) => ({
      relation,
      set: Object.entries(values).map(([key, value]) => ({ key, value })),
    }));
    await this.call(CommitHookDocument, {
      input: { model, unit, run: run.id, result: skip ? "SKIPPED" : "SUCCEEDED", settings: skip ? [] : settings, state: next },
    });
    this.progress = next;
    this.outOfError();
    this.log(`${tag}: ${skip ? "skipped" : outcome.ran ? "ran" : "no"} hook ${spec.name}${spec.remoteUnit ? ` (${spec.remoteUnit})` : ""}`);
    return true;
  }

  /**
   * Moves past `first` and every hook after it the charm does not ship, as the resolver orders them, in one call
   * (recordMissingHooks): nothing runs, so only the progress moves, and a hub that many units join does not pay
   * two round trips per join. A -broken among them leaves its scope with the record, as a commit does.
   */
  private async passMissingHooks(first: Hook, progress: StoredProgress, situation: Situation, shipped: ReadonlySet<string>) {
    const { model, unit, tag } = this.credentials;
    const passed: Hook[] = [first];
    const next: StoredProgress = { ...copyProgress(progress), pending: null };
    applyHook(next, first, situation);
    for (const hook of hookSequence(next, situation)) {
      if (shipped.has(hook.name) || passed.length >= MISSING_HOOKS_A_CALL) break;
      passed.push(hook);
      applyHook(next, hook, situation);
    }
    await this.call(RecordMissingHooksDocument, {
      input: {
        model,
        unit,
        hooks: passed.map((h) => ({ hook: h.name, relation: h.relation?.id ?? null, remoteUnit: h.remoteUnit ?? null })),
        state: next,
      },
    });
    this.progress = next;
    this.outOfError();
    this.log(`${tag}: no hook ${passed.map((h) => `${h.name}${h.remoteUnit ? ` (${h.remoteUnit})` : ""}`).join(", ")}`);
  }

  private async execute(hook: Hook, context: ApiHookContext) {
    const { model, unit } = this.credentials;
    await this.ensureCharm();
    const relation = hook.relation;
    const remoteApp = relation ? (this.relationInHook(relation.id, hook)?.remoteApplication ?? "") : "";
    const principal = this.ownUnit.get(unit)?.info.principalName;
    return this.options.runner.run({
      charmDir: this.charmDir,
      hook: hook.name,
      unit,
      model,
      machineId: this.options.machineId,
      principalUnit: principal ?? "",
      context,
      ...(relation ? { relation, remoteApp } : {}),
      ...(hook.remoteUnit ? { remoteUnit: hook.remoteUnit } : {}),
      ...(hook.departingUnit ? { departingUnit: hook.departingUnit } : {}),
    });
  }

  /** Writes the charm's hooks out once per agent start (the directory is only a cache of what the API holds). */
  private async ensureCharm(): Promise<ReadonlySet<string>> {
    if (this.shipped) return this.shipped;
    const { model } = this.credentials;
    const hooks =
      this.charmHooks ??
      (await this.call(UnitCharmDocument, { model, application: this.application })).model?.application?.charm.hooks ??
      [];
    this.charmHooks = null;
    await writeCharmDir(this.charmDir, hooks);
    this.shipped = new Set(hooks.map((h) => h.name));
    return this.shipped;
  }

  /** The relations a hook sees, with each one's members as of the hook. */
  private context(hook: Hook, situation: Situation): ApiHookContext {
    const { model, unit } = this.credentials;
    const relations = new Map<number, RelationInHook>();
    for (const key of Object.keys(this.progress?.relations ?? {})) {
      const relation = this.relationInHook(Number(key), hook);
      if (relation && situation.relations[key]) relations.set(Number(key), relation);
    }
    return new ApiHookContext({
      unit,
      relations,
      readSettings: async (relation, of) => {
        const data = await this.call(UnitRelationSettingsDocument, { model, relation, unit: of });
        return Object.fromEntries((data.model?.relation?.settings?.values ?? []).map((v) => [v.key, v.value]));
      },
      setStatus: async (status, message) => {
        await this.call(SetWorkloadStatusDocument, { input: { model, unit, status: workloadStatus[status], message } });
      },
      config: async () => {
        const data = await this.call(UnitConfigDocument, { model, application: this.application });
        return (data.model?.application?.config ?? {}) as Record<string, string | number | boolean>;
      },
      addresses: { private: this.options.privateAddress, public: this.options.publicAddress ?? this.options.privateAddress },
      log: (level, message) => this.log(`${this.credentials.tag}: juju-log ${level}: ${message}`),
    });
  }

  /** A relation as a hook sees it: relation-list holds the joining unit in -joined, not the departing one in -departed. */
  private relationInHook(id: number, hook: Hook): RelationInHook | null {
    const progress = this.progress?.relations[id];
    if (!progress) return null;
    const endpoints = this.relations.get(String(id))?.info.endpoints ?? [];
    // A peer relation's counterpart is the unit's own application.
    const remoteApplication = endpoints.find((e) => e.applicationName !== this.application)?.applicationName ?? this.application;
    const members = new Set(Object.keys(progress.members));
    if (hook.relation?.id === id && hook.remoteUnit) {
      if (hook.name.endsWith("-relation-joined")) members.add(hook.remoteUnit);
      if (hook.name.endsWith("-relation-departed")) members.delete(hook.remoteUnit);
    }
    return {
      ref: { id, endpoint: progress.endpoint },
      remoteApplication,
      members: [...members].sort(byName),
    };
  }

  /**
   * In error, with nothing allowing a run: where the model retries hooks (automaticallyRetryHooks), arms the retry
   * timer for the schedule's next wait, once for this failure (Juju's StartRetryHookTimer). Also after a restart in error.
   */
  private async armRetry(): Promise<void> {
    if (this.retryArmed) return;
    const { model, tag } = this.credentials;
    const retries = (await this.call(ModelRetriesHooksDocument, { model })).model?.automaticallyRetryHooks;
    this.retryArmed = true;
    if (!retries || this.done) return;
    const wait = this.retryTimer.start();
    this.log(`${tag}: retrying the failed hook in ${wait / 1000} s`);
  }

  /**
   * The failed hook runs once for what allowed it. A resolution disarms the timer and starts its schedule over (Juju's
   * StopRetryHookTimer). The server took the resolution as the run began: a stale row of the stream that still shows
   * it gets a second run of it refused (RESOLUTION_MISMATCH), so the agent keeps no note of its own that it is taken.
   */
  private takeRetry(by: "resolution" | "timer"): void {
    this.retryDue = false;
    this.retryArmed = false;
    if (by === "resolution") this.retryTimer.reset();
  }

  /** A hook committed succeeded or skipped (or passed missing): out of error, the retry schedule starts over. */
  private outOfError(): void {
    this.retryTimer.reset();
    this.retryDue = false;
    this.retryArmed = false;
    this.committedFailure = false;
  }

  /** Seed 001: Dying with its application; as a subordinate, once no Alive container-scoped relation with its principal's application remains. */
  private shouldDie(principal: string | null): boolean {
    if (this.ownApplication.get(this.application)?.life !== "ALIVE") return true;
    if (principal === null) return false;
    const principalApp = applicationOfUnit(principal);
    return !this.relations
      .all()
      .some(
        (r) =>
          r.life === "ALIVE" && r.info.scope === "CONTAINER" && (r.info.endpoints ?? []).some((e) => e.applicationName === principalApp),
      );
  }

  /** A subordinate takes part only in its principal's container-scoped relations, and in global ones. */
  private belongsIn(relation: RelationInfoFieldsFragment, principal: string | null): boolean {
    if (principal === null || relation.scope !== "CONTAINER") return true;
    return (relation.endpoints ?? []).some((e) => e.applicationName === applicationOfUnit(principal));
  }
}

/** Kept with the failed run: how it ended and the end of its output (where a failure says why). */
function failureMessage(outcome: { exitCode: number | null; signal: string | null; timedOut: boolean; output: string }): string {
  const how = outcome.timedOut ? "timed out" : outcome.signal ? `killed by ${outcome.signal}` : `exit status ${outcome.exitCode}`;
  const tail = outcome.output.trim().split("\n").slice(-3).join(" | ");
  return `${how}${tail ? `: ${tail}` : ""}`.slice(0, 1000);
}
