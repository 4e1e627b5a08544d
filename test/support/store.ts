// One store per test file: in-memory PGlite by default, the PostgreSQL server
// named by DATABASE_URL when set. Tests isolate themselves by model.
import { threadId } from "node:worker_threads";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store } from "../../src/db/connect.js";
import { ensureAdminToken } from "../../src/model/index.js";
import { memoryStore } from "./pglite-template.js";

let counter = 0;
/** This test worker: its process and thread (workers are threads of one process). */
const runner = `${process.pid}-${threadId}`;

export const onPostgres = !!process.env.DATABASE_URL;

/** The admin token every test store accepts, as LIFELINE_ADMIN_TOKEN makes one for `npm start`. */
export const ADMIN_TOKEN = "llt_tests-admin-token-not-secret";
export const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

export async function openTestStore(): Promise<Store> {
  const store = await openStore(onPostgres ? { databaseUrl: process.env.DATABASE_URL!, maxConnections: 8 } : await memoryStore());
  await ensureAdminToken(store.db, ADMIN_TOKEN);
  return store;
}

/**
 * Stores on the test database, one for each name, open for a suite's tests (beforeAll to afterAll): on PostgreSQL, as
 * many processes of one deployment (each keeps its own state: its last commits, its feed).
 */
export function useStores<const N extends string>(...names: N[]): Readonly<Record<N, Store>> {
  const stores = {} as Record<N, Store>;
  beforeAll(async () => {
    for (const name of names) stores[name] = await openTestStore();
  });
  afterAll(async () => {
    for (const name of names) await stores[name]?.close();
  });
  return stores;
}

/**
 * A store no other test file shares: on PostgreSQL a database of its own, dropped when the store closes. For specs of
 * what is one per store (the one live login link: every `npm start` and every file on the shared database makes one).
 */
export async function openPrivateTestStore(): Promise<Store> {
  if (!onPostgres) return openTestStore();
  const database = await createPrivateDatabase();
  const store = await openStore({ databaseUrl: database.url, maxConnections: 8 });
  await ensureAdminToken(store.db, ADMIN_TOKEN);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await database.drop();
  };
  return store;
}

/** On PostgreSQL, a database no other test file uses (for stores of its own, or locks no one else should meet); `drop` ends it. */
export async function createPrivateDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lifeline_private_${runner.replace("-", "_")}_${Date.now().toString(36)}_${(counter++).toString(36)}`;
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}

/** A model name no other test (or earlier run on the same database) uses. */
/**
 * Names no other test file makes, on a database the files share: test files run in worker threads of one process, so the
 * thread's id joins the process's (two threads' counters both start at 0 and met in the same millisecond).
 */
export const uniqueName = (prefix = "m") => `${prefix}-${runner}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
