// Credentials on both transports: a bearer token in an operation's extensions
// ({ authorization: "Bearer …" }: how agents that share one graphql-ws
// connection each act as themselves), in graphql-ws connectionParams (the same
// shape, or { token: "…" }), in the Authorization header (HTTP, or the upgrade
// request), or in the session cookie a login link sets for the browser. Requests without valid credentials may only
// introspect the schema; everything else is refused with UNAUTHENTICATED.
import type { IncomingHttpHeaders } from "node:http";
import { type DocumentNode, GraphQLError, Kind, type OperationDefinitionNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../graphql/context.js";

/**
 * The cookie a login link sets: HttpOnly, so no script reads it, and SameSite=Strict, so other sites' pages do not send
 * it. Other pages on the same host do (SameSite does not separate ports): origins.ts tells them from the server's own.
 */
export const SESSION_COOKIE = "lifeline_token";

const bearer = (value: unknown) => (typeof value === "string" ? /^Bearer\s+(\S+)$/i.exec(value.trim())?.[1] : undefined);

function cookie(header: string | null | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=");
  }
  return undefined;
}

/**
 * The token a request carries, wherever it put it. `cookie`: the session cookie alone carries it, which a browser
 * sends whatever page makes the request (the page's origin must then be checked: origins.ts).
 */
export function tokenOf(request: {
  headers?: Headers;
  upgradeHeaders?: IncomingHttpHeaders;
  connectionParams?: Readonly<Record<string, unknown>>;
  extensions?: Readonly<Record<string, unknown>>;
}): { token: string; cookie: boolean } | undefined {
  const params = request.connectionParams;
  const token =
    bearer(request.extensions?.authorization) ??
    bearer(params?.authorization) ??
    (typeof params?.token === "string" ? params.token : undefined) ??
    bearer(request.headers?.get("authorization")) ??
    bearer(request.upgradeHeaders?.authorization);
  if (token) return { token, cookie: false };
  const session = cookie(request.headers?.get("cookie")) ?? cookie(request.upgradeHeaders?.cookie);
  return session ? { token: session, cookie: true } : undefined;
}

/** The most agents one request may stand for: a bulk call's most items. */
export const MAX_AGENTS_A_REQUEST = 100;

/**
 * The agents' tokens a request carries item by item (`extensions.authorizations`, each "Bearer …"): the calls of agents
 * hosted in one process, gathered into one bulk call. Undefined when it carries none; an empty list when what it
 * carries is not a list of at most MAX_AGENTS_A_REQUEST bearer tokens (its bulk field then refuses every item).
 */
export function agentTokensOf(extensions: Readonly<Record<string, unknown>> | undefined): (string | undefined)[] | undefined {
  const listed = extensions?.authorizations;
  if (listed === undefined) return undefined;
  if (!Array.isArray(listed) || listed.length > MAX_AGENTS_A_REQUEST) return [];
  return listed.map(bearer);
}

/** Only `__schema` / `__type` fields: what GraphiQL and code generators ask before anyone logs in. */
function introspectionOnly(document: DocumentNode, operationName?: string | null): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operations.find((o) => !operationName || o.name?.value === operationName) ?? operations[0];
  return (
    !!operation &&
    operation.operation === "query" &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith("__"))
  );
}

const unauthenticated = () =>
  new GraphQLError(
    "no valid credentials: send a bearer token (Authorization: Bearer …, or connectionParams over graphql-ws). " +
      "Tokens stop working when revoked, and an agent's once its entity is Dead.",
    { extensions: { code: "UNAUTHENTICATED" } },
  );

/** Refuses every operation but introspection when the context has no actor. */
export function useAuthentication(): Plugin<Context> {
  const gate = (args: { contextValue: Context; document: DocumentNode; operationName?: string | null | undefined }) =>
    !args.contextValue.actor && !introspectionOnly(args.document, args.operationName);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (gate(args)) setResultAndStopExecution({ errors: [unauthenticated()] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      if (gate(args)) setResultAndStopExecution({ errors: [unauthenticated()] });
    },
  };
}
