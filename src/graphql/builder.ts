// The one typed entry to the schema: every GraphQL type is declared through it.
import SchemaBuilder from "@pothos/core";
import ComplexityPlugin from "@pothos/plugin-complexity";
import DataloaderPlugin from "@pothos/plugin-dataloader";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { LifelineError } from "../core/errors.js";
import {
  actsForMachine,
  actsForUnit,
  agentTag,
  deploysUnit,
  hostsContainer,
  isPerson,
  isPersonIn,
  loadModels,
  ownerAmong,
  type PersonRole,
  provisionsModel,
  type Reached,
  reachesModel,
  readsApplication,
  readsMachine,
  readsReached,
  readsRelation,
  readsUnit,
  readsWholeModel,
  watchesRelationAs,
} from "../model/index.js";
import { pageSize } from "./connections.js";
import type { Context } from "./context.js";

/**
 * The responsibilities a field may ask of its caller (src/model/authority.ts says who holds each). Every field of
 * Query, Mutation and Subscription declares some, and every entity type one on each object it returns
 * (test/authorization-matrix.test.ts fails on a field without).
 */
export interface AuthScopes {
  /** Any valid credentials. */
  authenticated: boolean;
  /** A person with at least this role whose token reaches every model (the controller's own operations). */
  person: PersonRole;
  /** A person with at least this role whose token reaches the model. */
  personIn: { role: PersonRole; model: string };
  /** Credentials that reach the model: a person's token for it, or an agent of it. */
  readsModel: string;
  /** Reads all of the model: people it reaches, its manager machine's agent. */
  wholeModel: string;
  readsUnit: { model: string; unit: string };
  readsMachine: { model: string; machine: string };
  readsApplication: { model: string; application: string };
  readsRelation: { model: string; relation: number | string };
  watchesRelation: { model: string; relation: number; unit: string };
  /** An entity met inside a model already read: each entity type asks it of every object it returns. */
  reached: { modelId: string; entity: Reached };
  unitAgent: { model: string; unit: string };
  /** Each unit's own agent, item by item as machineAgents: the request's agents in the units' order, else its own. */
  unitAgents: { model: string; units: readonly string[] };
  machineAgent: { model: string; machine: string };
  /**
   * Each machine's own agent: item by item, the agents the request stands for (`extensions.authorizations`, in the
   * machines' order); without them, the request's own agent for every machine.
   */
  machineAgents: { model: string; machines: readonly string[] };
  containerHost: { model: string; machine: string };
  deployer: { model: string; unit: string };
  /** Each unit's deployer, item by item as machineAgents: the request's agents in the units' order, else its own. */
  deployers: { model: string; units: readonly string[] };
  provisioner: { model: string };
}

/**
 * What the caller of one request may do, as scope-auth asks it (each loader called with `this` the scopes). Methods, not
 * closures made per request: every subscription keeps its context's scopes for its life, and thousands of agents' streams
 * kept a closure each for every scope.
 */
class CallerScopes {
  readonly authenticated: boolean;
  private readonly actor: Context["actor"];
  private readonly agents: Context["agents"];
  private readonly db: Context["db"];
  /** Model names by id, for the entities a person whose token names models reaches: one read a request. */
  private names?: Map<string, Promise<string | undefined>>;

  constructor(ctx: Context) {
    this.actor = ctx.actor;
    this.agents = ctx.agents;
    this.db = ctx.db;
    this.authenticated = !!ctx.actor;
  }

  person(role: PersonRole) {
    return !!this.actor && isPerson(this.actor, role);
  }
  personIn(target: AuthScopes["personIn"]) {
    return !!this.actor && isPersonIn(this.actor, target);
  }
  readsModel(model: string) {
    return !!this.actor && reachesModel(this.actor, model);
  }
  wholeModel(model: string) {
    return !!this.actor && readsWholeModel(this.db, this.actor, { model });
  }
  readsUnit(target: AuthScopes["readsUnit"]) {
    return !!this.actor && readsUnit(this.db, this.actor, target);
  }
  readsMachine(target: AuthScopes["readsMachine"]) {
    return !!this.actor && readsMachine(this.db, this.actor, target);
  }
  readsApplication(target: AuthScopes["readsApplication"]) {
    return !!this.actor && readsApplication(this.db, this.actor, target);
  }
  readsRelation(target: AuthScopes["readsRelation"]) {
    return !!this.actor && readsRelation(this.db, this.actor, target);
  }
  watchesRelation(target: AuthScopes["watchesRelation"]) {
    return !!this.actor && watchesRelationAs(this.db, this.actor, target);
  }
  reached({ modelId, entity }: AuthScopes["reached"]) {
    const mine = !!this.actor && readsReached(this.db, this.actor, modelId, entity, (id) => this.modelName(id));
    return this.agents ? this.anyAgentReads(mine, modelId, entity) : mine;
  }

  /**
   * A request standing for several agents returns each item's entity to its own agent: any of them may read it, its
   * owner (found at once) before the others (each asked in turn).
   */
  private async anyAgentReads(mine: boolean | Promise<boolean>, modelId: string, entity: Reached): Promise<boolean> {
    const agents = this.agents ?? [];
    if (ownerAmong(agents, modelId, entity) || (await mine)) return true;
    for (const agent of agents) if (agent && (await readsReached(this.db, agent, modelId, entity, (id) => this.modelName(id)))) return true;
    return false;
  }
  unitAgent(target: AuthScopes["unitAgent"]) {
    return !!this.actor && actsForUnit(this.actor, target);
  }
  unitAgents({ model, units }: AuthScopes["unitAgents"]) {
    const agents = this.itemAgents(units.length);
    return !!agents && units.every((unit, i) => !!agents[i] && actsForUnit(agents[i]!, { model, unit }));
  }
  machineAgent(target: AuthScopes["machineAgent"]) {
    return !!this.actor && actsForMachine(this.actor, target);
  }
  machineAgents({ model, machines }: AuthScopes["machineAgents"]) {
    const agents = this.itemAgents(machines.length);
    return !!agents && machines.every((machine, i) => !!agents[i] && actsForMachine(agents[i]!, { model, machine }));
  }

  /** The agent each of a bulk field's `count` items is checked against: the request's agents, one an item, else its own. */
  private itemAgents(count: number): Context["agents"] {
    if (!this.agents) return Array.from({ length: count }, () => this.actor);
    return this.agents.length === count ? this.agents : undefined;
  }
  containerHost(target: AuthScopes["containerHost"]) {
    return !!this.actor && hostsContainer(this.actor, target);
  }
  deployer(target: AuthScopes["deployer"]) {
    return !!this.actor && deploysUnit(this.db, this.actor, target);
  }
  async deployers({ model, units }: AuthScopes["deployers"]) {
    const agents = this.itemAgents(units.length);
    if (!agents) return false;
    const allowed = await Promise.all(units.map((unit, i) => !!agents[i] && deploysUnit(this.db, agents[i]!, { model, unit })));
    return allowed.every(Boolean);
  }
  provisioner(target: AuthScopes["provisioner"]) {
    return !!this.actor && provisionsModel(this.db, this.actor, target);
  }

  private modelName(id: string): Promise<string | undefined> {
    this.names ??= new Map();
    let name = this.names.get(id);
    if (!name) {
      name = loadModels(this.db, [id]).then(([row]) => row?.name);
      this.names.set(id, name);
    }
    return name;
  }
}

export const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: object };
  };
}>({
  // Scope auth first, so no other plugin's wrapper runs before the check.
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  // Non-null by default, so generated clients get honest types.
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    // An entity type's check runs once for each object it returns (isTypeOf), not before each of its fields: a
    // 1,000-unit status query cost 40% more CPU the other way. It also refuses a path to an object the caller may not
    // read even when only its __typename is asked.
    runScopesOnType: true,
    authScopes: (ctx) => new CallerScopes(ctx),
    // Nothing has run when this is thrown: a refusal changes nothing.
    unauthorizedError: (_parent, ctx, info) =>
      ctx.actor
        ? new LifelineError("FORBIDDEN", `${describe(ctx.actor)} may not run ${info.fieldName} here`, { operation: info.fieldName })
        : new LifelineError("UNAUTHENTICATED", "send a bearer token (Authorization header, or connectionParams over graphql-ws)"),
  },
  relay: {
    // Entities are addressed by their Juju names within a model, not by global ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    cursorType: "String",
    clientMutationId: "omit",
    // A connection's selections cost as many times as the page it asks for; its edges are that page (not a
    // further multiple). src/server/request-limits.ts enforces the total.
    defaultConnectionFieldOptions: { complexity: (args) => ({ field: 1, multiplier: pageSize(args) }) },
    edgesFieldOptions: { complexity: { field: 1, multiplier: 1 } },
  },
  // Plain lists (a relation's endpoints, a machine's units) count 10 times their selections; the limits
  // themselves are checked per request, before execution (src/server/request-limits.ts), not by this plugin.
  complexity: { defaultComplexity: 1, defaultListMultiplier: 10 },
});

/** The builder's resolved type parameters, for helpers that take its field builders (src/graphql/types/removal.ts). */
export type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

const describe = (actor: NonNullable<Context["actor"]>) =>
  actor.kind === "person" ? `a ${actor.role} token` : `the agent ${agentTag(actor)}`;

builder.queryType({ description: "Reads a model the way `juju status` does." });
builder.mutationType({ description: "Operations named after Juju's commands; each is one transaction." });
builder.subscriptionType({
  description: "Change streams: a snapshot at a revision, then every change after it, in order; resumable with `since`.",
});
