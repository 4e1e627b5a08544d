// Follows the model's `changes` subscription for as long as the page shows it: a snapshot (STATE events, then a
// BOOKMARK), then CHANGE events; after a dropped connection it subscribes again with `since` (the last revision it
// processed), so nothing is missed or repeated; on RESYNC_REQUIRED it starts over from a fresh snapshot. The loop is
// src/core/resumable-subscription.ts's, which the command line shares; this is its browser side.

import { print } from "graphql";
import type { Client } from "graphql-ws";
import { type ChangeEventFragment, ChangesDocument, type ChangesSubscription } from "../client/graphql.js";
import { resumeSubscription } from "../core/resumable-subscription.js";
import { connect } from "./connection.js";

export type Link = "connecting" | "live" | "reconnecting" | "refused";

export interface FollowHandlers {
  /** A snapshot begins: drop what was held. */
  reset(): void;
  event(event: ChangeEventFragment): void;
  link(state: Link, detail?: string): void;
}

export interface Following {
  client: Client;
  stop(): void;
}

/** The model's changes, resumed across dropped connections (src/core/resumable-subscription.ts, as the command line does). */
export function followModel(model: string, handlers: FollowHandlers): Following {
  const client = connect();
  handlers.link("connecting");
  const resuming = resumeSubscription(client, print(ChangesDocument), { model }, (data) => (data as ChangesSubscription).changes, {
    event: handlers.event,
    reset: handlers.reset,
    live: () => {
      handlers.link("live");
    },
    lost: (why) => {
      handlers.link("reconnecting", why);
    },
    refused: ({ code, message }) => {
      handlers.link("refused", `${code}: ${message}`);
      void client.dispose();
    },
  });
  return {
    client,
    stop() {
      resuming.stop();
      void client.dispose();
    },
  };
}
