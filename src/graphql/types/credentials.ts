// Credentials: people's tokens (admins issue and revoke them) and the agents'
// secrets, which the provisioner and deployers issue as Juju's do.
import {
  type Actor,
  type AgentCredentials,
  agentTag,
  DEFAULT_MODEL,
  type IssuedToken,
  issueMachineCredentials,
  issueMachinesCredentials,
  issueToken,
  issueUnitCredentials,
  issueUnitsCredentials,
  MAX_MACHINES_A_CALL,
  MAX_TOKEN_MODELS,
  MAX_UNITS_A_CALL,
  personTokens,
  reachableModels,
  revokeToken,
  type UnitAgentCredentials,
} from "../../model/index.js";
import { builder } from "../builder.js";
import { CharmHookRef, charmHooks } from "./charm.js";

const TokenRoleEnum = builder.enumType("TokenRole", {
  values: {
    ADMIN: { value: "admin" as const, description: "Everything, including issuing and revoking tokens." },
    OPERATOR: {
      value: "operator" as const,
      description: "Every model operation (and the agents', to repair by hand); no token management.",
    },
    READ_ONLY: { value: "read-only" as const, description: "Queries and subscriptions only." },
  },
});

const ViewerRef = builder.objectRef<Actor>("Viewer").implement({
  description: "Who the request's credentials stand for.",
  fields: (t) => ({
    kind: t.string({ description: '"person", "machine" or "unit".', resolve: (a) => a.kind }),
    tag: t.string({ description: 'Juju\'s tag: "machine-1", "unit-wordpress-0", or "person-<token id>".', resolve: agentTag }),
    role: t.field({ type: TokenRoleEnum, nullable: true, resolve: (a) => (a.kind === "person" ? a.role : null) }),
    models: t.stringList({
      nullable: true,
      description: "The models these credentials reach: those a person's token names (null: every model), an agent's own.",
      resolve: reachableModels,
    }),
  }),
});

const TokenSourceEnum = builder.enumType("TokenSource", {
  values: {
    ISSUED: { value: "issued" as const, description: "Issued by an admin (issueToken)." },
    ENVIRONMENT: {
      value: "environment" as const,
      description: "LIFELINE_ADMIN_TOKEN: revoked when a start names another, or none.",
    },
    BOOTSTRAP: { value: "bootstrap" as const, description: "Made and printed by the first start of a store with no admin token." },
    SESSION: {
      value: "session" as const,
      description:
        "A browser's, from a login link: it ends unused (LIFELINE_SESSION_IDLE_S) and at its maximum age (LIFELINE_SESSION_MAX_S).",
    },
  },
});

const TokenRef = builder.objectRef<Awaited<ReturnType<typeof personTokens>>[number]>("Token").implement({
  description: "A person's token (the secret itself is never shown again). Any of them can be revoked with revokeToken.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    role: t.field({ type: TokenRoleEnum, resolve: (k) => k.role ?? "read-only" }),
    description: t.exposeString("description"),
    models: t.exposeStringList("models", { nullable: true, description: "The models it reaches; null for every model." }),
    source: t.field({
      type: TokenSourceEnum,
      nullable: true,
      description: "Where it came from; null for a token made before Lifeline kept that.",
      resolve: (k) => k.source,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    expiresAt: t.expose("expiresAt", {
      type: "DateTime",
      nullable: true,
      description: "When it stops working unless used again (a session's end moves with its use, to its maximum age); null: never.",
    }),
    lastUsedAt: t.expose("lastUsedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was last used, to the minute; null: not since Lifeline kept that.",
    }),
  }),
});

const IssuedTokenRef = builder.objectRef<IssuedToken>("IssuedToken").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    token: t.exposeString("token", { description: "The bearer token. Shown only now: Lifeline keeps only its hash." }),
  }),
});

const AgentCredentialsRef = builder.objectRef<AgentCredentials>("AgentCredentials").implement({
  description: "An agent's identity and secret, for the provisioner to hand to a machine's instance or a deployer to a unit's agent.",
  fields: (t) => ({
    tag: t.exposeString("tag"),
    token: t.exposeString("token", { description: "The agent's bearer token. Shown only now; issuing again replaces it." }),
  }),
});

const UnitAgentStartupRef = builder.objectRef<UnitAgentCredentials["startup"]>("UnitAgentStartup").implement({
  description:
    "What a unit's agent starts from, read with its credentials: what it would otherwise ask for first (Unit.agentState, " +
    "Unit.relationsInScope, Unit.agentStatus, its charm's hooks).",
  fields: (t) => ({
    agentState: t.field({
      type: "JSONObject",
      nullable: true,
      description: "The state document its agent keeps on the server; null until it saves one.",
      resolve: (s) => s.agentState,
    }),
    relationsInScope: t.intList({ description: "The relations whose scope the unit is in, by id.", resolve: (s) => s.relationsInScope }),
    allocating: t.exposeBoolean("allocating", {
      description: "Its agent has not reported yet (agent status allocating): it has never run.",
    }),
    charmUrl: t.string({ nullable: true, description: "Its application's charm.", resolve: (s) => s.charm?.url ?? null }),
    hooks: t.field({
      type: [CharmHookRef],
      description: "Its charm's hooks, by name: what the agent runs.",
      resolve: (s) => (s.charm ? charmHooks(s.charm.hooks) : []),
    }),
  }),
});

const UnitAgentCredentialsRef = builder.objectRef<UnitAgentCredentials>("UnitAgentCredentials").implement({
  description: "A unit agent's identity and secret, for its deployer to start it with, and what it starts from.",
  fields: (t) => ({
    tag: t.exposeString("tag"),
    token: t.exposeString("token", { description: "The agent's bearer token. Shown only now; issuing again replaces it." }),
    startup: t.field({ type: UnitAgentStartupRef, resolve: (c) => c.startup }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: "Who you are, as far as Lifeline can tell from your credentials.",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ctx.actor!,
  }),
  tokens: t.field({
    type: [TokenRef],
    description: "People's tokens that still work, browsers' sessions and LIFELINE_ADMIN_TOKEN's among them, oldest first (admins only).",
    authScopes: { person: "admin" },
    resolve: (_root, _args, ctx) => personTokens(ctx.db),
  }),
}));

const IssueTokenInput = builder.inputType("IssueTokenInput", {
  fields: (t) => ({
    role: t.field({ type: TokenRoleEnum, required: true }),
    description: t.string({ required: true, description: "Whose it is, or what it is for." }),
    models: t.stringList({
      description: `The models it may reach (at most ${MAX_TOKEN_MODELS}), whether they exist yet or not; every model when omitted. Not for admins, whose tokens reach every model.`,
    }),
  }),
});

const AgentMachineInput = builder.inputType("AgentMachineInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), machine: t.string({ required: true }) }),
});
export const AgentMachinesInput = builder.inputType("AgentMachinesInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    machines: t.stringList({ required: true, description: `At least one, at most ${MAX_MACHINES_A_CALL}, each once.` }),
  }),
});
const AgentUnitInput = builder.inputType("AgentUnitInput", {
  fields: (t) => ({ model: t.string({ required: true, defaultValue: DEFAULT_MODEL }), unit: t.string({ required: true }) }),
});
export const AgentUnitsInput = builder.inputType("AgentUnitsInput", {
  fields: (t) => ({
    model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
    units: t.stringList({ required: true, description: `At least one, at most ${MAX_UNITS_A_CALL}, each once.` }),
  }),
});

builder.mutationFields((t) => ({
  issueToken: t.field({
    type: IssuedTokenRef,
    description: "Admin: a new token for a person or a script.",
    args: { input: t.arg({ type: IssueTokenInput, required: true }) },
    authScopes: { person: "admin" },
    resolve: (_root, { input }, ctx) => issueToken(ctx.db, input),
  }),
  revokeToken: t.field({
    type: "Boolean",
    description: "Admin: a person's token (any in `tokens`: issued, a browser's session, LIFELINE_ADMIN_TOKEN's) stops working at once.",
    args: { id: t.arg.int({ required: true }) },
    authScopes: { person: "admin" },
    resolve: (_root, args, ctx) => revokeToken(ctx.db, args),
  }),
  issueMachineCredentials: t.field({
    type: AgentCredentialsRef,
    description:
      "Provisioner (or a host's agent, for its containers): a fresh secret for the machine's agent; the previous one stops working.",
    args: { input: t.arg({ type: AgentMachineInput, required: true }) },
    authScopes: (_root, { input }) => ({ $any: { provisioner: input, containerHost: input } }),
    resolve: (_root, { input }, ctx) => issueMachineCredentials(ctx.db, input),
  }),
  issueMachinesCredentials: t.field({
    type: [AgentCredentialsRef],
    description:
      "Provisioner: issueMachineCredentials for several machines in one transaction, in the order named (Juju's agent API is bulk). All or " +
      "nothing: the first refusal, in that order, refuses the call (NOT_FOUND, NOT_ALIVE for a Dead machine; INVALID_ARGUMENT for no machine, " +
      "too many, or one named twice).",
    args: { input: t.arg({ type: AgentMachinesInput, required: true }) },
    authScopes: (_root, { input }) => ({ provisioner: input }),
    resolve: (_root, { input }, ctx) => issueMachinesCredentials(ctx.db, input),
  }),
  issueUnitCredentials: t.field({
    type: UnitAgentCredentialsRef,
    description:
      "Deployer: a fresh secret for the unit's agent, the previous one stops working; and what the agent starts from, read with it.",
    args: { input: t.arg({ type: AgentUnitInput, required: true }) },
    authScopes: (_root, { input }) => ({ deployer: input }),
    resolve: (_root, { input }, ctx) => issueUnitCredentials(ctx.db, input),
  }),
  issueUnitsCredentials: t.field({
    type: [UnitAgentCredentialsRef],
    description:
      "issueUnitCredentials for several units in one transaction, in the order named: all or nothing, the first refusal in that order " +
      "refusing the call (NOT_FOUND, NOT_ALIVE for a Dead unit; INVALID_ARGUMENT for no unit, too many, or one named twice). Each unit's " +
      "deployer may ask, so the agents one process hosts may send their calls together: `extensions.authorizations` lists each " +
      `deployer's bearer token, in the units' order (at most ${MAX_UNITS_A_CALL}), and each unit is checked against its own (FORBIDDEN ` +
      "if any may not). Without that list, the request's own credentials must deploy every unit.",
    args: { input: t.arg({ type: AgentUnitsInput, required: true }) },
    authScopes: (_root, { input }) => ({ deployers: input }),
    resolve: (_root, { input }, ctx) => issueUnitsCredentials(ctx.db, input),
  }),
}));
