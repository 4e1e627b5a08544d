// One store per test file: in-memory PGlite by default, the PostgreSQL server
// named by DATABASE_URL when set. Tests isolate themselves by model.
import { openStore, type Store } from "../../src/db/connect.js";
import { ensureAdminToken } from "../../src/model/index.js";

export const onPostgres = !!process.env.DATABASE_URL;

/** The admin token every test store accepts, as LIFELINE_ADMIN_TOKEN makes one for `npm start`. */
export const ADMIN_TOKEN = "llt_tests-admin-token-not-secret";
export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export async function openTestStore(): Promise<Store> {
  const store = await openStore(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 8 } : { dataDir: "memory://" });
  await ensureAdminToken(store.db, ADMIN_TOKEN);
  return store;
}

let counter = 0;
/** A model name no other test (or earlier run on the same database) uses. */
export const uniqueName = (prefix = "m") => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
