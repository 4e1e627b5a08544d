// Opens the store: embedded PGlite when no DATABASE_URL is given, a real
// PostgreSQL server through postgres.js when it is. Either way the caller gets
// the same Drizzle database, with migrations applied.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { loggerFor } from "../core/log.js";
import { runAutovacuum, runPgliteVacuum } from "./autovacuum.js";
import { type Listening, listenOnServer } from "./listener.js";
import { lockDataDir } from "./lock.js";
import { initializeDataDir } from "./pglite-initdb.js";
import { prepareStatements } from "./pglite-statements.js";
import { takeTurnsInTransactions } from "./pglite-turns.js";
import { gateWrites } from "./pglite-write-gate.js";
import { preparingStatements } from "./prepared.js";
import { Queues } from "./queues.js";
import * as schema from "./schema.js";
import { describeServer, driverConnection, driverPatched } from "./server.js";
import { Slots } from "./slots.js";

export type Schema = typeof schema;

/** Drizzle's database on our schema: a store's, or a transaction on it (what a statement runs on: statement.ts). */
export type DrizzleDatabase = PgDatabase<PgQueryResultHKT, Schema>;

/** A store's database. */
export type Database = DrizzleDatabase & { readonly writers: Writers };

/** What this process keeps for a store's writers (src/model/write/): made with the store, so two stores never share it. */
export interface Writers {
  /** Each model's writers waiting for their turn, by model name (src/model/write/turns.ts). */
  readonly waiting: Queues;
  /** Each model's id by name, as this process last locked it (src/model/write/model-lock.ts). */
  readonly modelIds: Map<string, string>;
  /** Each model's row as this process's last commit to it left it (to_jsonb's text), by id (src/model/write/model-lock.ts). */
  readonly lastCommitted: Map<string, string>;
}

/** The store's Drizzle database, given what this process keeps for its writers. */
const withWriters = (db: object): Database =>
  Object.assign(db, {
    writers: { waiting: new Queues(), modelIds: new Map<string, string>(), lastCommitted: new Map<string, string>() },
  }) as unknown as Database;

export type StoreOptions = (
  | /** A PostgreSQL connection string. */ {
      databaseUrl: string;
      maxConnections?: number;
      /** Prepare statements on their connections (default); off behind a pooler that cannot keep them (PgBouncer's transaction mode). */
      preparedStatements?: boolean;
    }
  | /** A PGlite data directory, or "memory://" for a throw-away store. */ {
      dataDir: string;
      /**
       * A throw-away store starts as a copy of this dump of a data directory (PGlite's dumpDataDir) instead of an empty
       * one: the tests dump a migrated store once and start each of theirs from it, skipping initdb. Migrations run as
       * ever (none is left to apply when the dump was migrated by this source).
       */
      loadDataDir?: Blob;
    }
) & {
  /** Called with every SQL statement Drizzle sends (diagnostics, and tests that count queries). */
  onQuery?: (query: string) => void;
};

export interface Store {
  db: Database;
  driver: "pglite" | "postgres";
  /** Where the data lives, for log lines: the directory or the server (password elided). */
  location: string;
  /**
   * LISTENs on `channel` until the returned handle is closed: `onNotify` with each payload, `onListening` once
   * listening and again after every reconnect (notifications sent while nobody listened are gone).
   */
  listen(channel: string, onNotify: (payload: string) => void, onListening: () => void): Promise<Listening>;
  /** The connection pool's use, for /metrics: its size, and (on a server) how many are open and how many busy. */
  connections(): Promise<PoolUse>;
  close(): Promise<void>;
}

export interface PoolUse {
  max: number;
  /** Connections open now (PGlite: its one session). */
  open: number;
  /** Connections running a statement or holding a transaction, the asker's own not counted; null where not known. */
  busy: number | null;
}

/** Databases that run in this process (PGlite): one session, so a transaction holds every other statement until it ends. */
const inProcess = new WeakSet<object>();

/** Whether `db` runs in this process, one statement at a time for everyone (PGlite). */
export const runsInProcess = (db: Database): boolean => inProcess.has(db);

/** How a query takes its turn to read one moment (one-moment.ts). */
export type QueryTurn = <T>(read: () => Promise<T>) => Promise<T>;

const queryTurns = new WeakMap<object, QueryTurn>();

/** The store's query turns: on PGlite writes wait while queries read; on PostgreSQL a query's snapshot holds a slot of the pool. */
export const queryTurnOf = (db: Database): QueryTurn | undefined => queryTurns.get(db);

/**
 * Queries' snapshots hold at most half the pool at once: each holds its connection from its first read to its last,
 * and writers, streams' snapshots and sign-ins must still find one free.
 */
const querySlots = (maxConnections: number) => new Slots(Math.max(1, Math.floor(maxConnections / 2)));

/** Rows of a raw `db.execute()`: postgres.js returns them as the result, PGlite wraps them in `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

export async function openStore(options: StoreOptions): Promise<Store> {
  const logger = options.onQuery ? { logQuery: options.onQuery } : false;
  return "databaseUrl" in options
    ? openPostgres(options.databaseUrl, options.maxConnections, options.preparedStatements ?? true, logger)
    : openPglite(options.dataDir, options.loadDataDir, logger);
}

type Logger = false | { logQuery: (query: string) => void };

/**
 * PGlite's shared buffers live in its WebAssembly memory, which never shrinks, inside the server's process; pages past
 * them come from the file system's cache (on disk), as a server's do. PostgreSQL's default of 128 MB made that memory
 * about 200 MiB at 10,000 units; 16 MB, about 50 (docs/decisions.md, "Memory").
 */
export const PGLITE_SHARED_BUFFERS = "16MB";

/** PGlite's options for the store (and for the benchmark's yardstick beside it): its own start parameters, with the shared buffers above. */
export const PGLITE_OPTIONS = { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`] };

async function openPglite(dataDir: string, loadDataDir: Blob | undefined, logger: Logger): Promise<Store> {
  const inMemory = dataDir.startsWith("memory://");
  // A directory on disk keeps its own data; copying a dump over it is no way to open it.
  if (loadDataDir && !inMemory) throw new Error("loadDataDir is for a memory:// store only");
  let unlock = async () => {};
  if (!inMemory) {
    dataDir = resolve(dataDir);
    mkdirSync(dataDir, { recursive: true });
    // Two processes on one PGlite directory corrupt it: refuse the second.
    unlock = await lockDataDir(dataDir);
  }
  try {
    if (!inMemory) await initializeDataDir(dataDir);
    const client = await (inMemory ? PGlite.create({ loadDataDir, ...PGLITE_OPTIONS }) : PGlite.create(dataDir, PGLITE_OPTIONS));
    // As for a server (openPostgres): transactions rely on READ COMMITTED being the default.
    await client.exec("set default_transaction_isolation = 'read committed'");
    // Innermost: the turns and the gate below wrap the prepared query.
    prepareStatements(client);
    takeTurnsInTransactions(client);
    const gate = gateWrites(client);
    const db = drizzlePglite({ client, schema, logger });
    inProcess.add(db);
    queryTurns.set(db, (read) => gate.read(read));
    await migratePglite(db, { migrationsFolder });
    // Nothing else reclaims dead rows here (autovacuum.ts).
    const vacuum = runPgliteVacuum(client);
    return {
      db: withWriters(db),
      driver: "pglite",
      location: inMemory ? "memory" : dataDir,
      // In-process: its notifications cannot be lost to a dropped connection.
      async listen(channel, onNotify, onListening) {
        const unlisten = await client.listen(channel, onNotify);
        onListening();
        return { close: () => unlisten() };
      },
      connections: async () => ({ max: 1, open: 1, busy: null }),
      async close() {
        await vacuum.stop();
        await client.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

async function openPostgres(url: string, max = 10, prepare: boolean, logger: Logger): Promise<Store> {
  if (!driverPatched())
    loggerFor("store").warn(
      "postgres.js is not patched (npm install ran without scripts?): a lost connection may end the process; run `npx patch-package`",
    );
  // READ COMMITTED whatever the server's or database's default: transactions (src/model/write/operation.ts) rely on it.
  // Named so that its connections can be told apart in pg_stat_activity (by an operator, and by connections()),
  // unless the connection string names them itself.
  const given = /[?&]application_name=([^&]*)/.exec(url)?.[1];
  const name = given === undefined ? `lifeline ${process.pid} ${randomUUID().slice(0, 8)}` : decodeURIComponent(given);
  const driver = driverConnection(url);
  const connected = postgres(driver.url, {
    ...driver.options,
    max,
    connection: { default_transaction_isolation: "read committed", ...(given === undefined ? { application_name: name } : {}) },
  });
  const client = prepare ? preparingStatements(connected) : connected;
  const db = drizzlePostgres({ client, schema, logger });
  const slots = querySlots(max);
  queryTurns.set(db, (read) => slots.hold(read));
  try {
    await migratePostgres(db, { migrationsFolder });
  } catch (error) {
    await client.end();
    throw error;
  }
  // Prepared statements' cached plans are made from the tables' statistics, and churned tables need their dead rows
  // reclaimed: where the server's autovacuum is off, the store does its work (autovacuum.ts), on a connection of its
  // own, as autovacuum has its workers: a VACUUM never holds one of the operations' connections, nor slips between
  // an operation's statements on a store of one connection. Idle, it closes (and opens again when next needed).
  const upkeep = postgres(driver.url, { ...driver.options, max: 1, idle_timeout: 10 });
  const autovacuum = await runAutovacuum(upkeep).catch(async (error) => {
    await upkeep.end();
    await client.end();
    throw error;
  });
  return {
    db: withWriters(db),
    driver: "postgres",
    location: describeServer(url),
    listen: (channel, onNotify, onListening) => listenOnServer(url, channel, onNotify, onListening),
    async connections() {
      const [row] = await connected<{ open: number; busy: number }[]>`
        select count(*)::int as open, count(*) filter (where state <> 'idle')::int as busy
        from pg_stat_activity where application_name = ${name}`;
      // This statement's own connection is busy running it.
      return { max, open: row?.open ?? 0, busy: Math.max(0, (row?.busy ?? 1) - 1) };
    },
    async close() {
      await autovacuum.stop();
      await upkeep.end({ timeout: 5 });
      await client.end({ timeout: 5 });
    },
  };
}
