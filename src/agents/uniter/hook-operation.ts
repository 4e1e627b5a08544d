// Running one hook, and recording it through the API (Juju's uniter operation
// executor and its run-hook operation, worker/uniter/operation/runhook.go): the
// run is begun on the server with the agent's progress, the hook runs with its
// context, and the run is committed with the progress it leads to and, only if
// it succeeded, its relation-set writes. A hook the charm does not ship is
// passed, with every one after it the charm lacks, in one call. The local state
// (local-state.ts) hears of each step as the server has taken it.
import {
  BeginHookDocument,
  CommitHookDocument,
  type HookTargetInput,
  LogHookDocument,
  SetWorkloadStatusDocument,
  UnitCharmDocument,
  type UnitCharmHooksFragment,
  UnitConfigDocument,
  UnitRelationSettingsDocument,
  type WorkloadStatus,
} from "../../client/graphql.js";
import { applicationOfUnit } from "../../core/unit-name.js";
import { ApiError, type Call } from "../connection.js";
import type { WorkloadStatus as HookWorkloadStatus } from "../hooks/context.js";
import type { HookOutcome, HookRunner } from "../hooks/run-hook.js";
import { ApiHookContext, type RelationInHook, relationInHook } from "./api-context.js";
import { writeCharmDir } from "./charm-dir.js";
import type { LocalState } from "./local-state.js";
import {
  afterHook,
  applyHook,
  copyProgress,
  type Hook,
  type HookChoice,
  hookSequence,
  type Situation,
  type StoredProgress,
} from "./resolver.js";

/** Missing hooks passed in one recordMissingHooks call: well under the server's MAX_MISSING_HOOKS. */
const MISSING_HOOKS_A_CALL = 500;

/** A charm's status-set, as the API spells it. */
const workloadStatus: Record<HookWorkloadStatus, WorkloadStatus> = {
  maintenance: "MAINTENANCE",
  blocked: "BLOCKED",
  waiting: "WAITING",
  active: "ACTIVE",
};

/** What a hook's environment reads of the unit's streams (remote-state.ts). */
export interface HookSurroundings {
  /** The unit's principal, for a subordinate: JUJU_PRINCIPAL_UNIT. */
  principal(): string | null;
  /** A relation's endpoints, as the application's relations stream shows them (none once it is gone). */
  endpointsOf(relation: number): readonly { applicationName: string; name: string }[];
}

export interface HookOperationsConfig {
  model: string;
  unit: string;
  /** The agent's tag, in its log lines. */
  tag: string;
  /** Sends an operation as the unit's agent. */
  call: Call;
  /** Records hooks the charm does not ship as passed, with the state after them (perhaps gathered with other agents'). */
  passMissing: (hooks: HookTargetInput[], state: StoredProgress) => Promise<void>;
  /** Runs hooks; one per process, shared by its agents. */
  runner: HookRunner;
  /** Where the unit's charm is written (a cache of what the API holds). */
  charmDir: string;
  /** JUJU_MACHINE_ID. */
  machineId: string;
  /** unit-get's answers. */
  addresses: { private: string; public: string };
  surroundings: HookSurroundings;
  /** True once the agent has been stopped: a hook's outcome then says nothing about the charm. */
  stopped: () => boolean;
  log: (line: string) => void;
}

export class HookOperations {
  /** The hooks its charm ships, once read (null until then). */
  private shipped: ReadonlySet<string> | null = null;
  /** The charm's hooks as read with the agent's state, until they are taken (charm()). */
  private charmHooks: UnitCharmHooksFragment["hooks"] | null = null;
  /** The charm's hooks, until its directory is written before the first hook it ships runs. */
  private unwritten: UnitCharmHooksFragment["hooks"] | null = null;

  constructor(private readonly config: HookOperationsConfig) {}

  /** The charm's hooks, read with the agent's state when it starts: its charm directory is written from them, not read again. */
  charmRead(hooks: UnitCharmHooksFragment["hooks"] | null): void {
    this.charmHooks = hooks;
  }

  private get application(): string {
    return applicationOfUnit(this.config.unit);
  }

  /**
   * Runs the hook chosen (resolver.ts nextHookChoice): passed with the ones after it when the charm does not ship it,
   * else begun, run and committed. False when the server begins nothing (runHook).
   */
  async perform(choice: Exclude<HookChoice, null | "wait">, local: LocalState, situation: Situation): Promise<boolean> {
    const shipped = await this.charm();
    if (!choice.skip && !shipped.has(choice.hook.name)) {
      await this.passMissingHooks(choice.hook, local, situation, shipped);
      return true;
    }
    return this.runHook(choice, local, situation);
  }

  /**
   * Begins, runs and commits one hook (or, resolved with no retry, marks it done without running). False when the server
   * begins nothing: the run named a resolution it no longer has pending, or none while one is (RESOLUTION_MISMATCH),
   * because the agent's stream is behind; the rows it has yet to bring poke the next pass.
   */
  async runHook({ hook: spec, skip, by }: Exclude<HookChoice, null | "wait">, local: LocalState, situation: Situation): Promise<boolean> {
    const { model, unit, tag, call, log } = this.config;
    const progress = local.progress;
    const begun = { ...progress, pending: spec };
    // The resolution the run acts on: the server takes it as the run begins, once (Juju's ClearResolved).
    const resolved = by === "resolution" ? (skip ? "SKIP_HOOK" : "RETRY_HOOK") : null;
    let run: { id: string };
    try {
      const hook = { hook: spec.name, relation: spec.relation?.id ?? null, remoteUnit: spec.remoteUnit ?? null };
      run = (await call(BeginHookDocument, { input: { model, unit, ...hook, resolved, state: begun } })).beginHook;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "RESOLUTION_MISMATCH")) throw error;
      log(`${tag}: hook ${spec.name} not begun: ${error.message}; waiting for its stream`);
      return false;
    }
    local.begun(begun, by); // begun: what allowed this run is spent
    const context = this.context(spec, local.progress, situation, run.id);
    const outcome = skip ? { ran: false as const } : await this.execute(spec, local.progress, context);
    // Stopped (killed, recalled) while the hook ran: its outcome says nothing about the charm. The run stays begun,
    // and whoever runs this unit next runs the hook again, as Juju treats a hook interrupted by a restart.
    if (this.config.stopped()) return true;
    if (outcome.ran && !outcome.ok) {
      await call(CommitHookDocument, {
        input: { model, unit, run: run.id, result: "FAILED", message: failureMessage(outcome), state: begun },
      });
      local.failed(); // a new failure: the next pass plans the schedule's next wait
      log(`${tag}: hook ${spec.name} failed (${failureMessage(outcome)})`);
      return true;
    }
    // Committing -broken leaves the scope (Juju's relationer): the server does both in one transaction.
    const next: StoredProgress = { ...afterHook(progress, spec, situation), pending: null };
    const settings = [...context.pending.changes()].map(([relation, values]) => ({
      relation,
      set: Object.entries(values).map(([key, value]) => ({ key, value })),
    }));
    await call(CommitHookDocument, {
      input: { model, unit, run: run.id, result: skip ? "SKIPPED" : "SUCCEEDED", settings: skip ? [] : settings, state: next },
    });
    local.committed(next);
    log(`${tag}: ${skip ? "skipped" : outcome.ran ? "ran" : "no"} hook ${spec.name}${spec.remoteUnit ? ` (${spec.remoteUnit})` : ""}`);
    return true;
  }

  /**
   * Moves past `first` and every hook after it the charm does not ship, as the resolver orders them, in one call
   * (recordMissingHooks): nothing runs, so only the progress moves, and a hub that many units join does not pay
   * two round trips per join. A -broken among them leaves its scope with the record, as a commit does.
   */
  async passMissingHooks(first: Hook, local: LocalState, situation: Situation, shipped: ReadonlySet<string>): Promise<void> {
    const { tag, passMissing, log } = this.config;
    const passed: Hook[] = [first];
    const next: StoredProgress = { ...copyProgress(local.progress), pending: null };
    applyHook(next, first, situation);
    for (const hook of hookSequence(next, situation)) {
      if (shipped.has(hook.name) || passed.length >= MISSING_HOOKS_A_CALL) break;
      passed.push(hook);
      applyHook(next, hook, situation);
    }
    await passMissing(
      passed.map((h) => ({ hook: h.name, relation: h.relation?.id ?? null, remoteUnit: h.remoteUnit ?? null })),
      next,
    );
    local.committed(next);
    log(`${tag}: no hook ${passed.map((h) => `${h.name}${h.remoteUnit ? ` (${h.remoteUnit})` : ""}`).join(", ")}`);
  }

  /** The hooks the charm ships, read once per agent start. */
  async charm(): Promise<ReadonlySet<string>> {
    if (this.shipped) return this.shipped;
    const { model, call } = this.config;
    const hooks =
      this.charmHooks ?? (await call(UnitCharmDocument, { model, application: this.application })).model?.application?.charm.hooks ?? [];
    this.charmHooks = null;
    this.unwritten = hooks;
    this.shipped = new Set(hooks.map((h) => h.name));
    return this.shipped;
  }

  /**
   * Writes the charm's hooks out once per agent start, before the first of them runs: the directory is only a cache of
   * what the API holds, and a charm that ships none of the hooks a unit meets never needs one.
   */
  private async charmWritten(): Promise<void> {
    await this.charm();
    if (!this.unwritten) return;
    await writeCharmDir(this.config.charmDir, this.unwritten);
    this.unwritten = null;
  }

  private async execute(hook: Hook, progress: StoredProgress, context: ApiHookContext): Promise<HookOutcome> {
    const { model, unit, runner, charmDir, machineId, surroundings } = this.config;
    await this.charmWritten();
    const relation = hook.relation;
    const remoteApp = relation ? (this.relationInHook(relation.id, hook, progress)?.remoteApplication ?? "") : "";
    return runner.run({
      charmDir,
      hook: hook.name,
      unit,
      model,
      machineId,
      principalUnit: surroundings.principal() ?? "",
      context,
      ...(relation ? { relation, remoteApp } : {}),
      ...(hook.remoteUnit ? { remoteUnit: hook.remoteUnit } : {}),
      ...(hook.departingUnit ? { departingUnit: hook.departingUnit } : {}),
    });
  }

  /** The relations a hook sees, with each one's members as of the hook; its juju-log lines go to its run (`runId`). */
  private context(hook: Hook, progress: StoredProgress, situation: Situation, runId: string): ApiHookContext {
    const { model, unit, tag, call, addresses, log } = this.config;
    const relations = new Map<number, RelationInHook>();
    for (const key of Object.keys(progress.relations)) {
      const relation = this.relationInHook(Number(key), hook, progress);
      if (relation && situation.relations[key]) relations.set(Number(key), relation);
    }
    return new ApiHookContext({
      unit,
      relations,
      readSettings: async (relation, of) => {
        const data = await call(UnitRelationSettingsDocument, { model, relation, unit: of });
        return Object.fromEntries((data.model?.relation?.settings?.values ?? []).map((v) => [v.key, v.value]));
      },
      setStatus: async (status, message) => {
        await call(SetWorkloadStatusDocument, { input: { model, unit, status: workloadStatus[status], message } });
      },
      config: async () => {
        const data = await call(UnitConfigDocument, { model, application: this.application });
        return (data.model?.application?.config ?? {}) as Record<string, string | number | boolean>;
      },
      addresses,
      log: async (level, message) => {
        log(`${tag}: juju-log ${level}: ${message}`);
        // Kept with the run on the server (Model.hookHistory, streamed live); a line it cannot keep fails no hook.
        await call(LogHookDocument, { input: { model, unit, run: runId, level, message } }).catch((error: unknown) =>
          log(`${tag}: juju-log line not kept on the server: ${error instanceof Error ? error.message : String(error)}`),
        );
      },
    });
  }

  private relationInHook(id: number, hook: Hook, progress: StoredProgress): RelationInHook | null {
    return relationInHook(id, hook, progress, this.config.surroundings.endpointsOf(id), this.application);
  }
}

/** Kept with the failed run: how it ended and the end of its output (where a failure says why). */
export function failureMessage(outcome: { exitCode: number | null; signal: string | null; timedOut: boolean; output: string }): string {
  const how = outcome.timedOut ? "timed out" : outcome.signal ? `killed by ${outcome.signal}` : `exit status ${outcome.exitCode}`;
  const tail = outcome.output.trim().split("\n").slice(-3).join(" | ");
  return `${how}${tail ? `: ${tail}` : ""}`.slice(0, 1000);
}
