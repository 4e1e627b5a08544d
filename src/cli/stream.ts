// A subscription the command follows for as long as it runs (`status --watch`, `debug-log`, `wait-for`): over
// graphql-ws, resumed with `since` after a dropped connection so that no change is missed and none repeats, and started
// over from a fresh snapshot when the server's log no longer reaches back that far (RESYNC_REQUIRED).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { Refusal, type Server } from "./api.js";

/** What a followed stream's events carry, at least: the revision to resume after. */
export interface Revisioned {
  revision: string;
}

export interface StreamHandlers<Event> {
  /** Each event, in order. */
  event(event: Event): void;
  /** The stream starts over from a snapshot (its first subscribe, or the log no longer reached `since`): drop what was held. */
  reset?(): void;
  /** The connection dropped (`lost`, with why) or came back (`resumed`). */
  connection?(state: "lost" | "resumed", detail?: string): void;
}

export interface Following {
  /** Ends the stream and closes its socket. */
  stop(): Promise<void>;
  /** Settles when the stream ends for good: resolved by `stop`, rejected with the refusal that ended it. */
  ended: Promise<void>;
}

/** Waits after a dropped connection: 250 ms doubling to 5 s, as the agents do. */
const backoff = (attempt: number) => Math.min(250 * 2 ** attempt, 5000);

/** Refusals that end the stream: trying again would be refused again. */
const FINAL = new Set(["UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "BAD_USER_INPUT", "GRAPHQL_VALIDATION_FAILED"]);

type GraphQLErrors = readonly { message: string; extensions?: Record<string, unknown> }[];

function refusalOf(errors: GraphQLErrors): Refusal {
  const { code, ...details } = errors[0]?.extensions ?? {};
  return new Refusal(typeof code === "string" ? code : "ERROR", errors[0]?.message ?? "the stream failed", details);
}

/**
 * Follows `document` (a subscription whose root field is `field`) from a snapshot, then every change after it. Its
 * variables' `since` is the command's to give only on the first subscribe; after that the stream sets it itself.
 */
export function follow<Data, Variables extends { since?: string | null }, Event extends Revisioned>(
  server: Server,
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  eventOf: (data: Data) => Event,
  handlers: StreamHandlers<Event>,
): Following {
  const client: Client = createClient({
    url: server.endpoint.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    connectionParams: server.token ? { authorization: `Bearer ${server.token}` } : {},
    // Reconnection is this module's: each attempt subscribes again with the revision reached, which graphql-ws's own
    // retry (the same payload again) cannot.
    retryAttempts: 0,
    keepAlive: 10_000,
  });
  const query = print(document);
  let since = variables.since ?? null;
  let stopped = false;
  let attempt = 0;
  let lost = false;
  let unsubscribe = () => {};
  let retryTimer: NodeJS.Timeout | undefined;
  let end!: { resolve: () => void; reject: (error: Error) => void };
  const ended = new Promise<void>((resolve, reject) => (end = { resolve, reject }));

  const open = () => {
    if (since === null) handlers.reset?.();
    unsubscribe = client.subscribe<Data>(
      { query, variables: { ...variables, since } as Record<string, unknown> },
      {
        next: (result) => {
          if (result.errors?.length) return failed(refusalOf(result.errors as GraphQLErrors));
          attempt = 0;
          if (lost) {
            lost = false;
            handlers.connection?.("resumed");
          }
          const event = eventOf(result.data as Data);
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
      void client.dispose();
      end.reject(error);
      return;
    }
    // The log no longer holds the changes after `since`: start over from a snapshot.
    if (error instanceof Refusal && error.code === "RESYNC_REQUIRED") since = null;
    if (!lost) handlers.connection?.("lost", describe(error));
    lost = true;
    retryTimer = setTimeout(open, backoff(attempt++));
  };

  open();
  return {
    ended,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(retryTimer);
      unsubscribe();
      await client.dispose();
      end.resolve();
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof Refusal) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  // A CloseEvent: the socket closed, or never opened.
  const close = error as { code?: number; reason?: string; message?: string };
  if (typeof close.code === "number") return `connection closed (${close.code}${close.reason ? ` ${close.reason}` : ""})`;
  return close.message ?? String(error);
}
