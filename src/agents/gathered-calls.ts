// The agents' calls that the calls of other agents in the same process may join (request-slots.ts): each is one
// agent's call for its own entity, and its field's bulk form stands for them all, each item checked against its own
// agent's token.
import {
  EnterScopeDocument,
  EnterScopesDocument,
  type HookTargetInput,
  IssueUnitCredentialsDocument,
  type IssueUnitCredentialsMutation,
  IssueUnitsCredentialsDocument,
  type MachineStatus,
  RecordMissingHooksDocument,
  RecordUnitsMissingHooksDocument,
  RemoveDeadUnitDocument,
  RemoveDeadUnitsDocument,
  SetMachineDeadDocument,
  SetMachineStatusDocument,
  SetMachinesDeadDocument,
  SetMachinesStatusDocument,
  SetUnitDeadDocument,
  SetUnitsDeadDocument,
} from "../client/graphql.js";
import { type AgentConnection, ApiError } from "./connection.js";
import type { Gathered } from "./request-slots.js";

/** The API's most items in one bulk call (MAX_MACHINES_A_CALL). */
const MOST_A_CALL = 100;

/** A refusal of a bulk call as a whole: asked item by item, each agent gets its own answer (or refusal). */
const refusedAsAWhole = (error: unknown) => error instanceof ApiError && !error.retryable;

export interface MachineStatusItem {
  model: string;
  machine: string;
  status: MachineStatus;
  message?: string;
}

/** A kind made once for each connection: calls gather with those of the same kind object. */
function onePerConnection<I, R>(make: (api: AgentConnection) => Gathered<I, R>): (api: AgentConnection) => Gathered<I, R> {
  const kinds = new WeakMap<AgentConnection, Gathered<I, R>>();
  return (api) => {
    let kind = kinds.get(api);
    if (!kind) {
      kind = make(api);
      kinds.set(api, kind);
    }
    return kind;
  };
}

/** A machine agent reports its machine's status (started): setMachineStatus, or setMachinesStatus for several agents. */
export const machineStatusCalls = onePerConnection(machineStatusKind);

function machineStatusKind(api: AgentConnection): Gathered<MachineStatusItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(SetMachineStatusDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      const { setMachinesStatus } = await api.send(
        SetMachinesStatusDocument,
        { input: { model: items[0]!.model, machines: items.map(({ machine, status, message }) => ({ machine, status, message })) } },
        tokens,
      );
      return setMachinesStatus.map(() => undefined);
    },
  };
}

export type IssuedUnitCredentials = IssueUnitCredentialsMutation["issueUnitCredentials"];

/** A deployer asks for the credentials of a unit it deploys: issueUnitCredentials, or issueUnitsCredentials for several. */
export const unitCredentialsCalls = onePerConnection(unitCredentialsKind);

function unitCredentialsKind(api: AgentConnection): Gathered<UnitItem, IssuedUnitCredentials> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => (await api.send(IssueUnitCredentialsDocument, { input: item }, [token])).issueUnitCredentials,
    many: async (items, tokens) =>
      (await api.send(IssueUnitsCredentialsDocument, { input: { model: items[0]!.model, units: items.map((i) => i.unit) } }, tokens))
        .issueUnitsCredentials,
  };
}

export interface ScopeEntryItem {
  model: string;
  relation: number;
  unit: string;
  privateAddress: string;
}

/** The calls of one relation's scope gather: enterScopes takes one relation's units. */
export const scopeEntryGroup = (item: ScopeEntryItem) => `${item.model} ${item.relation}`;

/** A unit agent enters a relation's scope: enterScope, or enterScopes for several units of the relation. */
export const scopeEntryCalls = onePerConnection(scopeEntryKind);

function scopeEntryKind(api: AgentConnection): Gathered<ScopeEntryItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(EnterScopeDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      const { model, relation } = items[0]!;
      const { enterScopes } = await api.send(
        EnterScopesDocument,
        { input: { model, relation, units: items.map(({ unit, privateAddress }) => ({ unit, privateAddress })) } },
        tokens,
      );
      return enterScopes.map(() => undefined);
    },
  };
}

export interface UnitItem {
  model: string;
  unit: string;
}

/** A unit agent's last act, its unit set Dead: setUnitDead, or setUnitsDead for several agents. */
export const unitDeadCalls = onePerConnection(unitDeadKind);

function unitDeadKind(api: AgentConnection): Gathered<UnitItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(SetUnitDeadDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      const input = { model: items[0]!.model, units: items.map((i) => i.unit) };
      return (await api.send(SetUnitsDeadDocument, { input }, tokens)).setUnitsDead.map(() => undefined);
    },
  };
}

export interface MissingHooksItem {
  model: string;
  unit: string;
  hooks: HookTargetInput[];
  /** The agent's state document after the last of them. */
  state: Record<string, unknown>;
}

/** The server's most hooks in one recordUnitsMissingHooks call (MAX_MISSING_HOOKS_OF_UNITS). */
const MOST_MISSING_HOOKS_A_CALL = 5000;
/** An agent's missing hooks go gathered when a full bulk call of such items stays within the server's bound. */
const MOST_GATHERED_HOOKS = MOST_MISSING_HOOKS_A_CALL / MOST_A_CALL;

/**
 * A unit agent moves past hooks its charm does not ship: recordMissingHooks, or recordUnitsMissingHooks for several
 * agents. A long run of them (a hub joined by many units) goes alone.
 */
export function passMissingHooks(api: AgentConnection, item: MissingHooksItem, token: string): Promise<void> {
  if (item.hooks.length > MOST_GATHERED_HOOKS) return api.request(RecordMissingHooksDocument, { input: item }, token).then(() => {});
  return api.gather(missingHooksCalls(api), item.model, item, token);
}

const missingHooksCalls = onePerConnection(missingHooksKind);

function missingHooksKind(api: AgentConnection): Gathered<MissingHooksItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(RecordMissingHooksDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      const input = { model: items[0]!.model, units: items.map(({ unit, hooks, state }) => ({ unit, hooks, state })) };
      await api.send(RecordUnitsMissingHooksDocument, { input }, tokens);
      return items.map(() => undefined);
    },
  };
}

/** A deployer removes a Dead unit it deployed: removeDeadUnit, or removeDeadUnits for several deployers. */
export const deadUnitRemovalCalls = onePerConnection(deadUnitRemovalKind);

function deadUnitRemovalKind(api: AgentConnection): Gathered<UnitItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(RemoveDeadUnitDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      await api.send(RemoveDeadUnitsDocument, { input: { model: items[0]!.model, units: items.map((i) => i.unit) } }, tokens);
      return items.map(() => undefined);
    },
  };
}

export interface MachineItem {
  model: string;
  machine: string;
}

/** A machine agent's last act, its machine set Dead: setMachineDead, or setMachinesDead for several agents. */
export const machineDeadCalls = onePerConnection(machineDeadKind);

function machineDeadKind(api: AgentConnection): Gathered<MachineItem, void> {
  return {
    most: MOST_A_CALL,
    refusedAsAWhole,
    one: async (item, token) => void (await api.send(SetMachineDeadDocument, { input: item }, [token])),
    many: async (items, tokens) => {
      const input = { model: items[0]!.model, machines: items.map((i) => i.machine) };
      return (await api.send(SetMachinesDeadDocument, { input }, tokens)).setMachinesDead.map(() => undefined);
    },
  };
}
