// Which hooks a charm may have (Juju's charm/hooks): its unit hooks, and a
// relation hook of each kind for each of its endpoints. Pure: used to check the
// hooks a charm is added with and the hooks a unit agent says it runs.
import { LifelineError } from "../core/errors.js";
import { type RelationHookKind, relationHookKinds, unitHooks } from "../core/hooks.js";

export interface HookName {
  name: string;
  /** For `<endpoint>-relation-<kind>`: the endpoint and the kind; absent for unit hooks. */
  relation?: { endpoint: string; kind: RelationHookKind };
}

const relationHook = new RegExp(`^(.+)-relation-(${relationHookKinds.join("|")})$`);

/** The hook `name` of a charm with these endpoints, or INVALID_ARGUMENT naming what it could have been. */
export function parseHookName(name: string, endpoints: readonly string[], charm: string): HookName {
  if ((unitHooks as readonly string[]).includes(name)) return { name };
  const match = relationHook.exec(name);
  if (match && endpoints.includes(match[1]!)) return { name, relation: { endpoint: match[1]!, kind: match[2] as RelationHookKind } };
  throw new LifelineError(
    "INVALID_ARGUMENT",
    `"${name.slice(0, 100)}" is not a hook of charm "${charm}": its hooks are ${unitHooks.join(", ")}, and <endpoint>-relation-<${relationHookKinds.join("|")}> for its endpoints (${endpoints.join(", ")})`,
    { hook: name.slice(0, 100) },
  );
}
