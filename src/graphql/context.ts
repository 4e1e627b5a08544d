import type { Database } from "../db/connect.js";

/** What every resolver sees: the store. Dataloaders hang off this object per request. */
export interface Context {
  db: Database;
}
