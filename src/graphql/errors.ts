// How refusals reach clients: a LifelineError becomes a GraphQL error whose
// `extensions.code` is its stable code; anything else is masked as internal.
import { GraphQLError } from "graphql";
import { maskError as maskUnexpected } from "graphql-yoga";
import { LifelineError } from "../model/errors.js";

export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof LifelineError) {
    const located = error instanceof GraphQLError ? error : undefined;
    return new GraphQLError(original.message, {
      ...(located?.nodes ? { nodes: located.nodes } : {}),
      ...(located?.path ? { path: located.path } : {}),
      extensions: { code: original.code, ...original.details },
    });
  }
  return maskUnexpected(error, message, isDev);
}
