// No field ships unfenced: every operation declares who may run it, and every
// object type is either an entity, which checks each object it returns against
// the caller (src/model/authority.ts readsReached), or a value that belongs to
// whatever returned it. A field or type added without either is reported here,
// and the schema refuses to build (src/graphql/schema.ts).
import { type GraphQLField, type GraphQLNamedType, type GraphQLSchema, isObjectType } from "graphql";

/**
 * Object types that are parts of what returns them: they need no check of their own. The stream events' *Info types
 * are what their stream may send: its subscription was checked when it opened.
 */
const VALUES = new Set([
  "AgentCredentials",
  "AgentStatus",
  "ApplicationInfo",
  "Blocker",
  "Change",
  "CharmConfigOption",
  "CharmEndpoint",
  "CharmHook",
  "CharmInfo",
  "CleanupInfo",
  "CleanupReport",
  "Cloud",
  "Constraints",
  "HookInfo",
  "HookLogLine",
  "Instance",
  "InstanceHardware",
  "InstanceType",
  "IssuedToken",
  "MachineInfo",
  "ModelInfo",
  "PageInfo",
  "RelationEndpoint",
  "RelationEndpointInfo",
  "RelationInfo",
  "RelationSettings",
  "RemovalEffect",
  "RemovalResult",
  "ScopeChange",
  "ScopeInfo",
  "ScopeMember",
  "Setting",
  "SettingsInfo",
  "Status",
  "Token",
  "UnitAgentCredentials",
  "UnitAgentStartup",
  "UnitInfo",
  "Viewer",
]);

/** Relay's connection and edge types: pages of entities, each checked by its own type. */
const isPage = (name: string) => /(Connection|ConnectionEdge)$/.test(name);

interface PothosExtensions {
  pothosOptions?: { authScopes?: unknown };
}

const declaresScopes = (thing: GraphQLField<unknown, unknown> | GraphQLNamedType) =>
  (thing.extensions as PothosExtensions | undefined)?.pothosOptions?.authScopes !== undefined;

/** What is unfenced: "Query.x" for an operation with no scopes, "Type" for an object type neither entity nor value. */
export function unfenced(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  for (const root of roots)
    for (const field of Object.values(root?.getFields() ?? {})) if (!declaresScopes(field)) found.push(`${root!.name}.${field.name}`);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || roots.includes(type)) continue;
    if (!declaresScopes(type) && !VALUES.has(type.name) && !isPage(type.name)) found.push(type.name);
  }
  return found;
}

/** The object types that check each object they return against the caller. */
export const entityTypes = (schema: GraphQLSchema) =>
  Object.values(schema.getTypeMap())
    .filter((type) => isObjectType(type) && declaresScopes(type))
    .map((type) => type.name);
