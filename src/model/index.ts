// The model's public face: the operations resolvers, agents' transports and
// tests call, each `(db, input)`, and the reads the API serves. Nothing inside
// src/model imports this file; outside it, nothing imports anything else here
// (checked by .dependency-cruiser.cjs).

export type { Database } from "../db/connect.js";
export { outageReporter, unavailable } from "../db/outage.js";
export {
  type AgentKey,
  agentsHeld,
  agentsLeft,
  markAgentsBack,
  markAgentsLost,
  renewLease,
  sweepLostAgents,
} from "./agent-presence.js";
export { AGENT_STATE_LIMIT, setUnitAgentState, type UnitAgentStateInput } from "./agent-state.js";
export { type ResolveUnitInput, resolveUnit, setUnitAgentStatus, type UnitAgentStatusInput } from "./agent-status.js";
export {
  applicationBlockers,
  applicationConfig,
  type ConfigInput,
  type DeployInput,
  deploy,
  type SetApplicationConfigInput,
  setApplicationConfig,
} from "./application.js";
export {
  actsForMachine,
  actsForUnit,
  deploysUnit,
  hostsContainer,
  isPerson,
  isPersonIn,
  ownerAmong,
  provisionsModel,
  type Reached,
  reachableModels,
  reachesModel,
  readsApplication,
  readsMachine,
  readsReached,
  readsRelation,
  readsUnit,
  readsWholeModel,
  watchesRelationAs,
} from "./authority.js";
export type { Blocker, BlockerKind } from "./blocker.js";
export { type AddCharmInput, addCharm, charmMetadata } from "./charm.js";
export { CONFIG_LIMITS, formatConfigValue, parseCharmConfig } from "./charm-config.js";
export { type CharmHook, HOOK_LIMITS } from "./charm-hooks.js";
export type { CharmEndpoint, CharmMetadata } from "./charm-metadata.js";
export { parseCharmMetadata } from "./charm-metadata.js";
export { CLEANUP_BATCH } from "./cleanup-queue.js";
export { type CleanupReport, type RunCleanupsInput, runCleanups } from "./cleanups.js";
export { type Constraints, formatConstraints, mergeConstraints, parseConstraints } from "./constraints.js";
export { type ControllerGauges, controllerGauges } from "./controller-gauges.js";
export {
  type Actor,
  type AgentCredentials,
  agentTag,
  authenticate,
  bootstrapAdmin,
  ensureAdminToken,
  type IssuedToken,
  type IssueTokenInput,
  issueMachineCredentials,
  issueMachinesCredentials,
  issueToken,
  issueUnitCredentials,
  issueUnitsCredentials,
  MAX_TOKEN_MODELS,
  type MachinesCredentialsInput,
  type PersonRole,
  personTokens,
  revokeToken,
  type UnitAgentCredentials,
} from "./credentials.js";
export {
  defaultHookHistory,
  type HookHistoryOptions,
  pruneHookHistory,
  startHookHistoryPruner,
} from "./hook-history.js";
export { HOOK_LOG_LEVELS, HOOK_LOG_LINE_LIMIT, HOOK_LOG_LINES_KEPT, type HookLogLevel, type LogHookInput, logHook } from "./hook-log.js";
export {
  type BeginHookInput,
  beginHook,
  type CommitHookInput,
  commitHook,
  HOOK_RUNS_KEPT,
  type HookCommitResult,
  type HookTarget,
} from "./hook-runs.js";
export type { SettingsWrite } from "./hook-settings.js";
export { MAX_MACHINES_A_CALL, MAX_UNITS_A_CALL } from "./lookup.js";
export {
  type AddMachineInput,
  addMachine,
  type MachineInput,
  type MachineStatusInput,
  type MachinesInput,
  type MachinesProvisionedInput,
  type MachinesStatusInput,
  machineBlockers,
  type Outcome,
  type ProvisionedInput,
  type ResolveMachineInput,
  recordStartFailure,
  removeDeadMachine,
  removeDeadMachines,
  resolveMachine,
  type StartFailureInput,
  setMachineDead,
  setMachineProvisioned,
  setMachineStatus,
  setMachinesDead,
  setMachinesProvisioned,
  setMachinesStatus,
} from "./machine.js";
export {
  MAX_MISSING_HOOKS,
  MAX_MISSING_HOOKS_OF_UNITS,
  type RecordMissingHooksInput,
  type RecordUnitsMissingHooksInput,
  recordMissingHooks,
  recordUnitsMissingHooks,
  type UnitMissingHooks,
} from "./missing-hooks.js";
export {
  type AddModelInput,
  addModel,
  bootstrap,
  DEFAULT_MODEL,
  DEFAULT_SERIES,
  type DestroyModelInput,
  destroyModel,
  modelBlockers,
  type SetConstraintsInput,
  type SetModelConfigInput,
  setConstraints,
  setModelConfig,
} from "./model.js";
export { REHEARSED_CLEANUP_RUNS, rehearseDestroyModel } from "./model-rehearsal.js";
export { checkApplicationName, checkMachineId, checkModelName, parseUnitName } from "./names.js";
export { parsePlacement, parsePlacements } from "./placement.js";
export * from "./read.js";
export { type IntegrateInput, integrate, relationBlockers } from "./relation.js";
export {
  MAX_REMOVALS_PER_REQUEST,
  type RemovalEffect,
  type RemovalResult,
  type RemoveInput,
  removeApplications,
  removeMachines,
  removeRelations,
  removeUnits,
} from "./removal.js";
export type * from "./rows.js";
export {
  type EnterScopeInput,
  type EnterScopesInput,
  enterScope,
  enterScopes,
  leaveScope,
  type ScopeChange,
  type ScopeEntry,
  type ScopeInput,
} from "./scope.js";
export { createLoginCode, defaultSessionLifetimes, redeemLoginCode, type SessionLifetimes } from "./sessions.js";
export {
  type AddUnitInput,
  addUnit,
  MAX_UNITS_PER_REQUEST,
  MAX_UNITS_PER_REQUEST_IN_PROCESS,
  removeDeadUnit,
  removeDeadUnits,
  setUnitDead,
  setUnitDying,
  setUnitsDead,
  type UnitInput,
  type UnitsInput,
  unitBlockers,
} from "./unit.js";
export { agentStatesOf, type HookLogLine, hookHistoryPage, hookLogsOf, hookRunsPage, relationsInScopeOf } from "./unit-agent-reads.js";
export { setWorkloadStatus, type WorkloadStatusInput } from "./workload-status.js";
export { MAX_ATTEMPTS, type Operation, transact } from "./write/index.js";
