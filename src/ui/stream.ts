// Follows the model's `changes` subscription for as long as the page shows it: a snapshot (STATE events, then a
// BOOKMARK), then CHANGE events; after a dropped connection it subscribes again with `since` (the last revision it
// processed), so nothing is missed or repeated; on RESYNC_REQUIRED it starts over from a fresh snapshot. As the
// command line's src/cli/stream.ts does, for a browser.

import { print } from "graphql";
import type { Client } from "graphql-ws";
import { type ChangeEventFragment, ChangesDocument, type ChangesSubscription } from "../client/graphql.js";
import { connect, type GraphQLErrors, Refusal, refusalOf } from "./connection.js";

export type Link = "connecting" | "live" | "reconnecting" | "refused";

export interface FollowHandlers {
  /** A snapshot begins: drop what was held. */
  reset(): void;
  event(event: ChangeEventFragment): void;
  link(state: Link, detail?: string): void;
}

/** Refusals that trying again would only repeat. */
const FINAL = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"]);

/** 250 ms doubling to 5 s, as the agents and the command line wait. */
const backoff = (attempt: number) => Math.min(250 * 2 ** attempt, 5000);

export interface Following {
  client: Client;
  stop(): void;
}

export function followModel(model: string, handlers: FollowHandlers): Following {
  const client = connect();
  const query = print(ChangesDocument);
  let since: string | null = null;
  let stopped = false;
  let attempt = 0;
  let unsubscribe = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    if (since === null) handlers.reset();
    handlers.link(attempt ? "reconnecting" : "connecting");
    unsubscribe = client.subscribe<ChangesSubscription>(
      { query, variables: { model, since } },
      {
        next: (result) => {
          if (result.errors?.length) return failed(refusalOf(result.errors as GraphQLErrors));
          if (attempt || since === null) handlers.link("live");
          attempt = 0;
          const event = (result.data as ChangesSubscription).changes;
          since = event.revision;
          handlers.event(event);
        },
        error: (error) => failed(Array.isArray(error) ? refusalOf(error as GraphQLErrors) : error),
        complete: () => failed(new Error("the server ended the stream")),
      },
    );
  };

  const failed = (error: unknown) => {
    if (stopped) return;
    unsubscribe();
    if (error instanceof Refusal && FINAL.has(error.code)) {
      stopped = true;
      handlers.link("refused", `${error.code}: ${error.message}`);
      void client.dispose();
      return;
    }
    if (error instanceof Refusal && error.code === "RESYNC_REQUIRED") since = null;
    handlers.link("reconnecting", error instanceof Error ? error.message : "connection closed");
    timer = setTimeout(open, backoff(attempt++));
  };

  open();
  return {
    client,
    stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      void client.dispose();
    },
  };
}
