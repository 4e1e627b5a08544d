// How refusals reach clients: a LifelineError already carries its stable code
// in `extensions` (graphql-js copies it onto the located error), so it passes
// unmasked; anything else is a bug or an outage and is masked as internal.
import { GraphQLError } from "graphql";
import { maskError as maskUnexpected } from "graphql-yoga";
import { LifelineError } from "../core/errors.js";

export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const located = error instanceof GraphQLError ? error : undefined;
  const original = located ? located.originalError : error;
  if (original instanceof LifelineError) return located ?? new GraphQLError(original.message, { extensions: original.extensions });
  // The client sees a masked error; yoga logs the cause for the operator.
  return maskUnexpected(error, message, isDev);
}
