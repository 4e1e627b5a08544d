// DATABASE_URL may name a Unix socket as libpq's connection strings do, by the `host` parameter
// (`postgres:///lifeline?host=/var/run/postgresql`): every connection Lifeline opens goes there, and the parameter is
// never sent to the server as a setting (which refuses it: "unrecognized configuration parameter").

import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, rowsOf } from "../src/db/connect.js";
import { driverConnection } from "../src/db/server.js";
import { createPrivateDatabase, onPostgres } from "./support/store.js";

describe("DATABASE_URL's host parameter", () => {
  it("becomes the driver's host, the rest of the string as it was", () => {
    const { url, options } = driverConnection("postgres://app@localhost:5433/lifeline?host=/var/run/postgresql&sslmode=disable");
    expect(url).toBe("postgres://app@localhost:5433/lifeline?sslmode=disable");
    expect(options.host).toBe("/var/run/postgresql");
  });

  it("leaves a string without one as it is", () => {
    const { url, options } = driverConnection("postgres://app@db1:5432,db2:5432/lifeline?target_session_attrs=read-write");
    expect(url).toBe("postgres://app@db1:5432,db2:5432/lifeline?target_session_attrs=read-write");
    expect(options.host).toBeUndefined();
  });
});

describe.runIf(onPostgres)("a store on a Unix socket", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("connects through the socket the host parameter names, and its stream wake-ups too", async (context) => {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const [settings] = await admin`select current_setting('unix_socket_directories') as dirs, current_setting('port') as port`;
    await admin.end({ timeout: 5 });
    const directory = String(settings!.dirs).split(",")[0]!.trim();
    if (!directory) return context.skip(); // this server listens on no socket
    const database = await createPrivateDatabase();
    cleanups.push(() => database.drop());
    const url = new URL(database.url);
    const socketUrl = `postgres://${url.username}@localhost:${settings!.port}${url.pathname}?host=${encodeURIComponent(directory)}`;
    const store = await openStore({ databaseUrl: socketUrl });
    cleanups.push(() => store.close());
    // A connection over a Unix socket has no server address.
    const [row] = rowsOf<{ address: string | null; database: string }>(
      await store.db.execute(sql`select inet_server_addr() as address, current_database() as database`),
    );
    expect(row).toEqual({ address: null, database: url.pathname.slice(1) });
    const heard: string[] = [];
    const listening = new Promise<void>((resolve) => {
      void store.listen("lifeline_socket_test", (payload) => heard.push(payload), resolve);
    });
    await listening;
    await store.db.execute(sql`select pg_notify('lifeline_socket_test', 'over the socket')`);
    await expect.poll(() => heard, { timeout: 10_000, interval: 50 }).toEqual(["over the socket"]);
  });
});
