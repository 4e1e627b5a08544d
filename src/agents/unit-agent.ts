// A unit agent (Juju's worker/uniter; "Lifecycles", its agents),
// with the credentials its deployer issued. It wires the uniter's pieces, each
// with one job, as Juju's uniter does:
// - uniter/remote-state.ts: what its streams say (its unit, its application,
//   their relations, and the scopes and settings of those it is in);
// - uniter/local-state.ts: its progress, kept on the server, and what it knows
//   of itself before its streams say it;
// - uniter/resolver.ts: given both, what to do next (pure functions);
// - uniter/scopes.ts: entering and leaving relation scopes;
// - uniter/hook-operation.ts: running one hook and recording it through the API;
// - deployer.ts: its subordinates, whose agents run beside it (seed 003).
// One pass at a time, it:
// - enters the scope of each Alive relation of its application it belongs in;
// - runs its charm's hooks one at a time in Juju's order, each begun and
//   committed on the server with its progress, so an agent redeployed with
//   nothing local resumes exactly and still departs its relations (the seeds'
//   hardware-failure BUG); a failed hook stops the unit in error until
//   `resolveUnit` (or, when the model allows, a retry with backoff);
// - as a subordinate, sets its unit Dying once no Alive container-scoped
//   relation with its principal's application remains (resolver.ts
//   cutOffFromPrincipal). It never sets its unit Dying because its application
//   is: the cleaner's dying-units cleanup owns that rule (Juju's
//   Application.Destroy queues it; seed 001's agents doing it was for want of a
//   bulk update, which the cleanup's batches are), and the agent only sees its
//   unit's life change;
// - Dying, departs every relation, runs stop and remove, waits until its
//   subordinates are removed, and sets its unit Dead; then stops for good;
// - as a principal, deploys its subordinates, removes those never deployed that
//   are no longer Alive, and recalls and removes Dead ones.
import { join } from "node:path";
import {
  ModelRetriesHooksDocument,
  SetUnitAgentStatusDocument,
  SetUnitDyingDocument,
  type UnitAgentStartupFieldsFragment,
  UnitAgentStateDocument,
  type UnitAgentStateQuery,
} from "../client/graphql.js";
import { type AgentConnection, type Call, passesAgain } from "./connection.js";
import { type DeployedAgent, type DeployedUnitView, Deployer, type UnitAgentCredentials } from "./deployer.js";
import {
  deadUnitRemovalCalls,
  passMissingHooks,
  scopeEntryCalls,
  scopeEntryGroup,
  unitCredentialsCalls,
  unitDeadCalls,
} from "./gathered-calls.js";
import type { HookRunner } from "./hooks/run-hook.js";
import { SerialPasses } from "./serial.js";
import { HookOperations } from "./uniter/hook-operation.js";
import { LocalState, progressFrom } from "./uniter/local-state.js";
import { RemoteState } from "./uniter/remote-state.js";
import { cutOffFromPrincipal, nextHookChoice, ownEndpoint, readyToBeDead } from "./uniter/resolver.js";
import { HookRetry, type HookRetryOptions, JUJU_HOOK_RETRY } from "./uniter/retry.js";
import { RelationScopes } from "./uniter/scopes.js";

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

/** What it starts from: its stored progress, the scopes it is in, whether it has reported yet, its charm's hooks. */
type Startup = UnitAgentStartupFieldsFragment;

/** The same, as the UnitAgentState query reads it (null for a unit that is gone). */
const startupRead = (unit: NonNullable<UnitAgentStateQuery["model"]>["unit"]): Startup | null =>
  unit && {
    agentState: unit.agentState,
    relationsInScope: unit.relationsInScope.map((r) => r.id),
    allocating: unit.agentStatus.current === "allocating",
    hooks: unit.application.charm.hooks,
  };

export class UnitAgent implements DeployedAgent {
  private readonly remote: RemoteState;
  private readonly scopes: RelationScopes;
  /** Its last act (perhaps gathered with other agents' last acts). */
  private readonly setDead: () => Promise<void>;
  private readonly hooks: HookOperations;
  private readonly deployer: Deployer<UnitAgent>;
  /** Its local state, made by its first pass from what start() read (null until then). */
  private local: LocalState | null = null;
  /** What it starts from, which its first pass makes its local state from (the agent alone writes it meanwhile). */
  private startup: Startup | null;
  private readonly call: Call;
  private readonly passes: SerialPasses;
  private readonly log: (line: string) => void;
  /** Stopped for good (its unit is Dead or gone, or it was told to): it acts no more. */
  private stopped = false;
  private finish: () => void = () => {};
  /** Settles once the agent has stopped (its unit is Dead or gone, or it was told to). */
  readonly finished = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  /** Who it is (its start-up, handed over with these, is kept apart: it is let go once read). */
  readonly credentials: UnitAgentCredentials;

  constructor(
    api: AgentConnection,
    { startup, ...credentials }: UnitAgentCredentials,
    private readonly options: UnitAgentOptions,
  ) {
    this.credentials = credentials;
    this.startup = startup ?? null;
    const { model, unit, tag, token } = credentials;
    const log = options.log ?? (() => {});
    this.log = log;
    this.call = api.callerFor(token);
    this.passes = new SerialPasses(
      () => this.act(),
      (error) => {
        if (!this.stopped) log(`${tag}: ${String(error)}`);
      },
      { retryable: passesAgain },
    );
    this.remote = new RemoteState(api, { model, unit, token }, () => this.passes.poke());
    const { privateAddress } = options;
    this.setDead = () => api.gather(unitDeadCalls(api), model, { model, unit }, token);
    this.scopes = new RelationScopes({
      model,
      unit,
      tag,
      call: this.call,
      enter: (relation) => {
        const entry = { model, relation, unit, privateAddress };
        return api.gather(scopeEntryCalls(api), scopeEntryGroup(entry), entry, token);
      },
      log,
    });
    this.hooks = new HookOperations({
      model,
      unit,
      tag,
      call: this.call,
      passMissing: (hooks, state) => passMissingHooks(api, { model, unit, hooks, state: { ...state } }, token),
      runner: options.runner,
      // Per model and unit: unit names repeat across models, and two agents must never share (or wipe) one directory.
      charmDir: join(options.dataDir, model, tag, "charm"),
      machineId: options.machineId,
      addresses: { private: options.privateAddress, public: options.publicAddress ?? options.privateAddress },
      surroundings: this.remote,
      stopped: () => this.stopped,
      log,
    });
    this.deployer = new Deployer<UnitAgent>({
      model,
      tag,
      call: this.call,
      credentialsFor: (subordinate) => api.gather(unitCredentialsCalls(api), model, { model, unit: subordinate }, token),
      removeDead: (subordinate) => api.gather(deadUnitRemovalCalls(api), model, { model, unit: subordinate }, token),
      responsibleFor: (_, view) => view.principal === unit,
      noun: "subordinate",
      // Its subordinates run beside it, sharing its addresses and machine (seed 003).
      agentFor: (subordinate) => new UnitAgent(api, subordinate, options),
      stopped: () => this.stopped,
      log,
    });
  }

  /** The agents of the subordinates it deployed, by unit. */
  get subordinateAgents(): ReadonlyMap<string, UnitAgent> {
    return this.deployer.agents;
  }

  async start(): Promise<void> {
    const { model, unit, tag } = this.credentials;
    // Its deployer hands it over with its credentials; an agent started otherwise reads it.
    this.startup ??= startupRead((await this.call(UnitAgentStateDocument, { model, unit })).model?.unit ?? null);
    this.hooks.charmRead(this.startup?.hooks ?? null);
    this.log(`${tag}: started`);
    this.remote.watch((error) => {
      if (!this.stopped) this.log(`${tag}: a stream ended: ${error.message}`);
    });
  }

  /** The deployer's view of the units on the machine changed: a principal's subordinates may have. */
  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void {
    this.deployer.unitsChanged(units);
    this.passes.poke();
  }

  /** Stops this agent and the subordinate agents it runs (recalled, or the process is stopping). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.local?.retry.reset();
    this.remote.stop();
    const subordinates = this.deployer.stopAll();
    // Finished once its own pass and its subordinates' are over: whoever owns the hook runner may close it then.
    void Promise.all([this.passes.stop(), ...subordinates.map((agent) => agent.finished)]).then(this.finish);
  }

  private async act(): Promise<void> {
    if (this.stopped || !this.remote.synced) return;
    const { model, unit: name, tag } = this.credentials;
    const unit = this.remote.unit;
    if (!unit || unit.life === "DEAD") {
      this.stop(); // its deployer recalls and removes it
      return;
    }
    const principal = unit.info.principalName;
    const local = await this.localState();
    const progress = local.progress;

    if (unit.life === "ALIVE") {
      if (local.dyingSent) return; // nothing to do until its stream brings the new life back
      if (cutOffFromPrincipal(this.remote.applicationRelations, principal)) {
        await this.call(SetUnitDyingDocument, { input: { model, unit: name } });
        local.dyingSent = true;
        this.log(`${tag}: set unit ${name} Dying`);
        return;
      }
      await this.scopes.enter(progress, this.remote.applicationRelations, this.remote.application, principal);
    }
    this.remote.setInScope(Object.keys(progress.relations));

    const situation = this.remote.situation(unit.life ?? "ALIVE");
    await this.scopes.leavePeers(progress, situation);

    // Its subordinates are deployed whatever its hooks are doing: they run beside it, on their own.
    const subordinates = await this.deployer.deploy();
    const choice = nextHookChoice(progress, local.failureNow(unit.info), situation);
    if (choice === "wait") {
      await this.planRetry(local);
      return;
    }
    if (choice) {
      if (!(await this.hooks.perform(choice, local, situation))) return;
      local.allocating = false;
      this.passes.poke(); // one hook a pass: the next pass sees what it changed
      return;
    }
    if (local.allocating) {
      await this.call(SetUnitAgentStatusDocument, { input: { model, unit: name, status: "IDLE" } });
      local.allocating = false;
    }
    if (readyToBeDead(unit.life, progress, subordinates)) {
      await this.setDead();
      this.log(`${tag}: unit ${name} is Dead; stopping for good`);
      this.stop();
    }
  }

  /** Its local state: made once, by its first pass, from what start() read (its relations' endpoints come from its streams). */
  private async localState(): Promise<LocalState> {
    if (this.local) return this.local;
    const { model, unit } = this.credentials;
    const read = this.startup ?? startupRead((await this.call(UnitAgentStateDocument, { model, unit })).model?.unit ?? null);
    const { application } = this.remote;
    const progress = progressFrom(read?.agentState, read?.relationsInScope ?? [], (id) =>
      ownEndpoint(this.remote.relation(id)?.info, application),
    );
    const retry = new HookRetry(this.options.hookRetry ?? JUJU_HOOK_RETRY, () => this.passes.poke());
    this.local = new LocalState(progress, this.startup?.allocating ?? false, retry);
    this.startup = null;
    return this.local;
  }

  /**
   * In error, with nothing allowing a run: plans the retry of this failure, once (Juju's StartRetryHookTimer), arming
   * the timer for the schedule's next wait where the model retries hooks (automaticallyRetryHooks). Also after a
   * restart in error.
   */
  private async planRetry(local: LocalState): Promise<void> {
    if (local.retry.step !== "unplanned") return;
    const { model, tag } = this.credentials;
    const retries = (await this.call(ModelRetriesHooksDocument, { model })).model?.automaticallyRetryHooks;
    const wait = local.retry.plan(!!retries && !this.stopped);
    if (wait !== null) this.log(`${tag}: retrying the failed hook in ${wait / 1000} s`);
  }
}
