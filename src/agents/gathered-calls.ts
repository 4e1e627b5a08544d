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

/** The API's most items in one bulk call (MAX_MACHINES_A_CALL, MAX_UNITS_A_CALL). */
const MOST_A_CALL = 100;

/** A refusal of a bulk call as a whole: asked item by item, each agent gets its own answer (or refusal). */
const refusedAsAWhole = (error: unknown) => error instanceof ApiError && !error.retryable;

/**
 * A field's calls as a Gathered kind: `one` sends an item as its agent's own call, `many` several items as the bulk
 * call standing for their agents (its answers in the items' order). Made once for each connection: calls gather with
 * those of the same kind object.
 */
function gatheredKind<I, R>(
  one: (api: AgentConnection, item: I, tokens: readonly string[]) => Promise<R>,
  many: (api: AgentConnection, items: readonly I[], tokens: readonly string[]) => Promise<R[]>,
): (api: AgentConnection) => Gathered<I, R> {
  const kinds = new WeakMap<AgentConnection, Gathered<I, R>>();
  return (api) => {
    let kind = kinds.get(api);
    if (!kind) {
      kind = {
        most: MOST_A_CALL,
        refusedAsAWhole,
        one: (item, token) => one(api, item, [token]),
        many: (items, tokens) => many(api, items, tokens),
      };
      kinds.set(api, kind);
    }
    return kind;
  };
}

/** A bulk call whose answer the agents do not need: each item's answer is that it was done. */
const done = (items: readonly unknown[]) => items.map(() => undefined);

export interface MachineItem {
  model: string;
  machine: string;
}

export interface MachineStatusItem extends MachineItem {
  status: MachineStatus;
  message?: string;
}

/** A machine agent reports its machine's status (started): setMachineStatus, or setMachinesStatus for several agents. */
export const machineStatusCalls = gatheredKind<MachineStatusItem, void>(
  async (api, item, tokens) => void (await api.send(SetMachineStatusDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    const machines = items.map(({ machine, status, message }) => ({ machine, status, message }));
    await api.send(SetMachinesStatusDocument, { input: { model: items[0]!.model, machines } }, tokens);
    return done(items);
  },
);

/** A machine agent's last act, its machine set Dead: setMachineDead, or setMachinesDead for several agents. */
export const machineDeadCalls = gatheredKind<MachineItem, void>(
  async (api, item, tokens) => void (await api.send(SetMachineDeadDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    await api.send(SetMachinesDeadDocument, { input: { model: items[0]!.model, machines: items.map((i) => i.machine) } }, tokens);
    return done(items);
  },
);

export interface UnitItem {
  model: string;
  unit: string;
}

export type IssuedUnitCredentials = IssueUnitCredentialsMutation["issueUnitCredentials"];

/** A deployer asks for the credentials of a unit it deploys: issueUnitCredentials, or issueUnitsCredentials for several. */
export const unitCredentialsCalls = gatheredKind<UnitItem, IssuedUnitCredentials>(
  async (api, item, tokens) => (await api.send(IssueUnitCredentialsDocument, { input: item }, tokens)).issueUnitCredentials,
  async (api, items, tokens) => (await api.send(IssueUnitsCredentialsDocument, { input: unitsOf(items) }, tokens)).issueUnitsCredentials,
);

/** A deployer removes a Dead unit it deployed: removeDeadUnit, or removeDeadUnits for several deployers. */
export const deadUnitRemovalCalls = gatheredKind<UnitItem, void>(
  async (api, item, tokens) => void (await api.send(RemoveDeadUnitDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    await api.send(RemoveDeadUnitsDocument, { input: unitsOf(items) }, tokens);
    return done(items);
  },
);

/** A unit agent's last act, its unit set Dead: setUnitDead, or setUnitsDead for several agents. */
export const unitDeadCalls = gatheredKind<UnitItem, void>(
  async (api, item, tokens) => void (await api.send(SetUnitDeadDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    await api.send(SetUnitsDeadDocument, { input: unitsOf(items) }, tokens);
    return done(items);
  },
);

/** Several agents' items of one model as a bulk call's units. */
const unitsOf = (items: readonly UnitItem[]) => ({ model: items[0]!.model, units: items.map((i) => i.unit) });

export interface ScopeEntryItem extends UnitItem {
  relation: number;
  privateAddress: string;
}

/** The calls of one relation's scope gather: enterScopes takes one relation's units. */
export const scopeEntryGroup = (item: ScopeEntryItem) => `${item.model} ${item.relation}`;

/** A unit agent enters a relation's scope: enterScope, or enterScopes for several units of the relation. */
export const scopeEntryCalls = gatheredKind<ScopeEntryItem, void>(
  async (api, item, tokens) => void (await api.send(EnterScopeDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    const { model, relation } = items[0]!;
    const units = items.map(({ unit, privateAddress }) => ({ unit, privateAddress }));
    await api.send(EnterScopesDocument, { input: { model, relation, units } }, tokens);
    return done(items);
  },
);

export interface MissingHooksItem extends UnitItem {
  hooks: HookTargetInput[];
  /** The agent's state document after the last of them. */
  state: Record<string, unknown>;
}

/** The server's most hooks in one recordUnitsMissingHooks call (MAX_MISSING_HOOKS_OF_UNITS). */
const MOST_MISSING_HOOKS_A_CALL = 5000;
/** An agent's missing hooks go gathered when a full bulk call of such items stays within the server's bound. */
const MOST_GATHERED_HOOKS = MOST_MISSING_HOOKS_A_CALL / MOST_A_CALL;

const missingHooksCalls = gatheredKind<MissingHooksItem, void>(
  async (api, item, tokens) => void (await api.send(RecordMissingHooksDocument, { input: item }, tokens)),
  async (api, items, tokens) => {
    const units = items.map(({ unit, hooks, state }) => ({ unit, hooks, state }));
    await api.send(RecordUnitsMissingHooksDocument, { input: { model: items[0]!.model, units } }, tokens);
    return done(items);
  },
);

/**
 * A unit agent moves past hooks its charm does not ship: recordMissingHooks, or recordUnitsMissingHooks for several
 * agents. A long run of them (a hub joined by many units) goes alone.
 */
export function passMissingHooks(api: AgentConnection, item: MissingHooksItem, token: string): Promise<void> {
  if (item.hooks.length > MOST_GATHERED_HOOKS) return api.request(RecordMissingHooksDocument, { input: item }, token).then(() => {});
  return api.gather(missingHooksCalls(api), item.model, item, token);
}
