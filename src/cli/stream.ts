// A subscription the command follows for as long as it runs (`status --watch`, `debug-log`, `wait-for`): over
// graphql-ws, resumed with `since` after a dropped connection so that no change is missed and none repeats, and started
// over from a fresh snapshot when the server's log no longer reaches back that far (RESYNC_REQUIRED). The loop is
// src/core/resumable-subscription.ts's, which the status page shares; this is its Node side (ws, the token, Refusal).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { resumeSubscription } from "../core/resumable-subscription.js";
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

/**
 * Follows `document` (a subscription taking `$since`) from a snapshot, then every change after it
 * (src/core/resumable-subscription.ts). Its variables' `since` is the command's to give only on the first subscribe;
 * after that the stream sets it itself.
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
    // Reconnection is resumeSubscription's, with the revision reached.
    retryAttempts: 0,
    keepAlive: 10_000,
  });
  let end!: { resolve: () => void; reject: (error: Error) => void };
  const ended = new Promise<void>((resolve, reject) => (end = { resolve, reject }));
  // Said once an outage, however many attempts it takes.
  let down = false;
  const { since, ...rest } = variables;
  const resuming = resumeSubscription(
    client,
    print(document),
    rest,
    (data) => eventOf(data as Data),
    {
      event: handlers.event,
      reset: () => handlers.reset?.(),
      live: () => {
        if (!down) return;
        down = false;
        handlers.connection?.("resumed");
      },
      lost: (why) => {
        if (down) return;
        down = true;
        handlers.connection?.("lost", why);
      },
      refused: ({ code, message, details }) => {
        void client.dispose();
        end.reject(new Refusal(code, message, details));
      },
    },
    since ?? null,
  );
  let stopped = false;
  return {
    ended,
    async stop() {
      if (stopped) return;
      stopped = true;
      resuming.stop();
      await client.dispose();
      end.resolve();
    },
  };
}
