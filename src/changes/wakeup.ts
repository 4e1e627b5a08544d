// LISTEN on the change log's channel. A notification is only a hint that a model has new
// rows; `onConnected` runs on the first LISTEN and again after every reconnect, because
// notifications sent while disconnected are lost and the feed must then catch up by
// reading the table. The store keeps the LISTEN alive across dropped connections
// (src/db/listener.ts).
import type { Store } from "../db/connect.js";
import { CHANGES_CHANNEL } from "./append.js";

export interface Wakeups {
  close(): Promise<void>;
}

export function listenForChanges(store: Store, onNotify: (modelId: string) => void, onConnected: () => void): Promise<Wakeups> {
  return store.listen(CHANGES_CHANNEL, onNotify, onConnected);
}
