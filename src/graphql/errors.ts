// How refusals reach clients: a LifelineError already carries its stable code
// in `extensions` (graphql-js copies it onto the located error), so it passes
// unmasked; anything else is a bug or an outage and is masked as internal.
import { GraphQLError } from "graphql";
import { maskError as maskUnexpected } from "graphql-yoga";
import { LifelineError } from "../core/errors.js";
import { loggerFor } from "../core/log.js";
import { outageReporter, unavailable } from "../model/index.js";

/** Yoga's masked errors' message (its default): what every fault is answered with, whichever path answers it. */
export const MASKED_MESSAGE = "Unexpected error.";

export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const located = error instanceof GraphQLError ? error : undefined;
  const original = located ? located.originalError : error;
  if (original instanceof LifelineError) return located ?? new GraphQLError(original.message, { extensions: original.extensions });
  const outage = unavailable(original);
  if (outage) {
    reportOutage(original);
    // The cause stays reachable (originalError), so what looks at the masked error still tells an outage.
    return new GraphQLError(outage.message, {
      ...(located ? { nodes: located.nodes, path: located.path } : {}),
      originalError: original instanceof Error ? original : undefined,
      extensions: outage.extensions,
    });
  }
  // The client sees a masked error; yoga logs the cause for the operator.
  return maskUnexpected(error, message, isDev);
}

/** The operator hears of an outage once a few seconds, not once a request: during one, every request fails alike. */
const reportOutage = outageReporter((cause) =>
  loggerFor("api").warn({ cause, code: "UNAVAILABLE" }, `the database is unavailable, requests are refused with UNAVAILABLE (${cause})`),
);
