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
  type PersonRole,
  provisionsModel,
} from "../model/index.js";
import { pageSize } from "./connections.js";
import type { Context } from "./context.js";

/** The responsibilities a field may ask of its caller (src/model/authority.ts says who holds each). */
export interface AuthScopes {
  /** A person with at least this role. */
  person: PersonRole;
  unitAgent: { model: string; unit: string };
  machineAgent: { model: string; machine: string };
  containerHost: { model: string; machine: string };
  deployer: { model: string; unit: string };
  provisioner: { model: string };
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
    authScopes: (ctx) => {
      const actor = ctx.actor;
      return {
        person: (role) => !!actor && isPerson(actor, role),
        unitAgent: (target) => !!actor && actsForUnit(actor, target),
        machineAgent: (target) => !!actor && actsForMachine(actor, target),
        containerHost: (target) => !!actor && hostsContainer(actor, target),
        deployer: (target) => !!actor && deploysUnit(ctx.db, actor, target),
        provisioner: (target) => !!actor && provisionsModel(ctx.db, actor, target),
      };
    },
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

const describe = (actor: NonNullable<Context["actor"]>) =>
  actor.kind === "person" ? `a ${actor.role} token` : `the agent ${agentTag(actor)}`;

builder.queryType({ description: "Reads a model the way `juju status` does." });
builder.mutationType({ description: "Operations named after Juju's commands; each is one transaction." });
builder.subscriptionType({
  description: "Change streams: a snapshot at a revision, then every change after it, in order; resumable with `since`.",
});
