// The page's one graphql-ws socket to /graphql, authenticated by the browser's session cookie (sent with the upgrade:
// same origin). Queries ride it too. Reconnection is stream.ts's: it resubscribes with the revision it reached.
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { type Client, createClient } from "graphql-ws";
import { type GraphQLErrors, refusalOf as refusalOfErrors } from "../core/resumable-subscription.js";

/** A refusal the server answered with, by its code (UNAUTHENTICATED, RESYNC_REQUIRED, …). */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const refusalOf = (errors: GraphQLErrors) => {
  const { code, message } = refusalOfErrors(errors);
  return new Refusal(code, message);
};

export function connect(): Client {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return createClient({ url: `${scheme}//${location.host}/graphql`, retryAttempts: 0, lazy: true, keepAlive: 10_000 });
}

/** Runs a query over the socket; resolves with its data, rejects with its refusal. */
export function query<Data, Variables extends Record<string, unknown>>(
  client: Client,
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
): Promise<Data> {
  return new Promise((resolve, reject) => {
    let data: Data | undefined;
    client.subscribe<Data>(
      { query: print(document), variables },
      {
        next: (result) => {
          if (result.errors?.length) reject(refusalOf(result.errors as GraphQLErrors));
          else data = result.data as Data;
        },
        error: (error) => reject(Array.isArray(error) ? refusalOf(error as GraphQLErrors) : new Error("the connection closed")),
        complete: () => (data === undefined ? reject(new Error("no answer")) : resolve(data)),
      },
    );
  });
}
