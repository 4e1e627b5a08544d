import type { ChangeFeed } from "../changes/feed.js";
import type { Database } from "../model/index.js";

/** What every resolver sees: the store. Dataloaders hang off this object per request. */
export interface Context {
  db: Database;
  /** This process's change feed; absent where no server runs one (subscriptions then refuse). */
  feed?: ChangeFeed;
}
