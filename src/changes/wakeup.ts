// LISTEN on the change log's channel, for either driver. A notification is only a
// hint that a model has new rows; `onConnected` runs on the first LISTEN and again
// after every reconnect, because notifications sent while disconnected are lost and
// the feed must then catch up by reading the table.

import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import type { Store } from "../db/connect.js";
import { CHANGES_CHANNEL } from "./append.js";

export interface Wakeups {
  close(): Promise<void>;
}

export async function listenForChanges(store: Store, onNotify: (modelId: string) => void, onConnected: () => void): Promise<Wakeups> {
  // Drizzle keeps the driver's client on `$client`; the Store deliberately hides it from
  // the model, and only the feed needs it, for LISTEN.
  const client = (store.db as unknown as { $client: unknown }).$client;
  if (store.driver === "postgres") {
    // postgres.js LISTENs on a dedicated connection, reconnects it by itself and calls
    // `onlisten` each time it (re)subscribes.
    const listening = await (client as postgres.Sql).listen(CHANGES_CHANNEL, onNotify, onConnected);
    return { close: () => listening.unlisten() };
  }
  // PGlite is in-process: its notifications cannot be lost to a dropped connection.
  const unlisten = await (client as PGlite).listen(CHANGES_CHANNEL, onNotify);
  onConnected();
  return { close: () => unlisten() };
}
