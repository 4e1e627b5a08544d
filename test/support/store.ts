// One store per test file: in-memory PGlite by default, the PostgreSQL server
// named by DATABASE_URL when set. Tests isolate themselves by model.
import { openStore, type Store } from "../../src/db/connect.js";

export const onPostgres = !!process.env.DATABASE_URL;

export function openTestStore(): Promise<Store> {
  return openStore(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 8 } : { dataDir: "memory://" });
}

let counter = 0;
/** A model name no other test (or earlier run on the same database) uses. */
export const uniqueName = (prefix = "m") => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
