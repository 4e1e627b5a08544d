// A fresh PGlite data directory is made on a thread of its own (src/db/pglite-initdb.ts), so
// that initdb's WebAssembly memory goes with the thread instead of waiting in the server's
// heap for a full collection.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { initializeDataDir } from "../src/db/pglite-initdb.js";

const MiB = 2 ** 20;

describe("a fresh PGlite data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "lifeline-initdb-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("is made by initdb on a thread of its own: this thread's memory does not hold initdb's", async () => {
    const dataDir = join(root, "fresh");
    const before = process.memoryUsage().external;
    await initializeDataDir(dataDir);
    // initdb's WebAssembly memory, made on this thread, was about 430 MiB of it (630 MiB with the fresh instance's).
    expect((process.memoryUsage().external - before) / MiB).toBeLessThan(64);
    const client = await PGlite.create(dataDir);
    try {
      expect((await client.query<{ one: number }>("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.close();
    }
  });

  it("that holds a database already is left as it is", async () => {
    const dataDir = join(root, "made");
    await initializeDataDir(dataDir);
    const client = await PGlite.create(dataDir);
    await client.exec("create table kept (id int); insert into kept values (7)");
    await client.close();
    const made = statSync(join(dataDir, "PG_VERSION")).mtimeMs;
    await initializeDataDir(dataDir);
    expect(statSync(join(dataDir, "PG_VERSION")).mtimeMs).toBe(made);
    const again = await PGlite.create(dataDir);
    try {
      expect((await again.query<{ id: number }>("select id from kept")).rows).toEqual([{ id: 7 }]);
    } finally {
      await again.close();
    }
  });
});
