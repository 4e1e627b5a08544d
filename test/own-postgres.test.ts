// A PostgreSQL server of the test's own (test/support/own-postgres.ts), which tests may
// stop, crash, restart and fail over as the shared one must never be. Needs the server
// binaries and, as root, the `postgres` user: without them these skip, saying so, unless
// LIFELINE_REQUIRE_OWN_PG=1 (as in CI). They never use DATABASE_URL.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ownPostgres, skipNote, startOwnPostgres, startStandby } from "./support/own-postgres.js";
import { scaled } from "./support/time-scale.js";

const own = ownPostgres();
const DEADLINE = { timeout: scaled(30_000), interval: 50 };

describe.skipIf(!own.run)(`a PostgreSQL of the test's own${skipNote(own)}`, () => {
  it("starts on a free loopback port, as its own directory, and answers queries", async () => {
    const server = await startOwnPostgres();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url("db")).toBe(`postgres://postgres@127.0.0.1:${server.port}/db`);
    expect(await server.query(`select 1 as one`)).toEqual([{ one: 1 }]);
    expect(await server.query(`show listen_addresses`)).toEqual([{ listen_addresses: "127.0.0.1" }]);
    await server.close();
  });

  it("close() stops it and removes its directory", async () => {
    const server = await startOwnPostgres();
    await server.close();
    expect(existsSync(server.dir)).toBe(false);
    await expect(server.query(`select 1`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("createDatabase() makes a database and returns its url", async () => {
    const server = await startOwnPostgres();
    const url = await server.createDatabase("made_here");
    expect(url).toBe(server.url("made_here"));
    expect(await server.query(`select current_database() as name`, "made_here")).toEqual([{ name: "made_here" }]);
    await server.close();
  });

  it("committed data survives a restart, a fast one or an immediate one, on the same port", async () => {
    const server = await startOwnPostgres();
    await server.query(`create table kept (n int)`);
    await server.query(`insert into kept values (1)`);
    await server.restart("fast");
    await server.query(`insert into kept values (2)`);
    await server.restart("immediate");
    expect(await server.query(`select n from kept order by n`)).toEqual([{ n: 1 }, { n: 2 }]);
    await server.close();
  });

  it("kill() ends it as a crash does (connections refused), and start() brings it back with its data", async () => {
    const server = await startOwnPostgres();
    await server.query(`create table kept (n int)`);
    await server.query(`insert into kept values (1)`);
    await server.kill();
    await expect(server.query(`select 1`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await server.start();
    expect(await server.query(`select n from kept`)).toEqual([{ n: 1 }]);
    expect(server.log()).toMatch(/database system was interrupted|was not properly shut down/);
    await server.close();
  });

  it("a standby streams the primary's writes, read-only, and once promoted takes writes of its own", async () => {
    const primary = await startOwnPostgres({ replication: true });
    await primary.query(`create table kept (n int)`);
    const standby = await startStandby(primary);
    expect(existsSync(join(standby.dir, "data", "standby.signal"))).toBe(true);
    await primary.query(`insert into kept values (1)`);
    await expect.poll(async () => standby.query(`select n from kept`), DEADLINE).toEqual([{ n: 1 }]);
    await expect(standby.query(`insert into kept values (2)`)).rejects.toMatchObject({ code: "25006" });

    await primary.stop("immediate");
    await standby.promote();
    expect(await standby.query(`select pg_is_in_recovery() as recovering`)).toEqual([{ recovering: false }]);
    await standby.query(`insert into kept values (2)`);
    expect(await standby.query(`select n from kept order by n`)).toEqual([{ n: 1 }, { n: 2 }]);
    await Promise.all([primary.close(), standby.close()]);
  });

  it("a synchronous standby: the primary acknowledges a commit only once the standby has it", async () => {
    const primary = await startOwnPostgres({ replication: true });
    await primary.query(`create table kept (n int)`);
    const standby = await startStandby(primary, { synchronous: true });
    expect(await primary.query(`select sync_state from pg_stat_replication`)).toEqual([{ sync_state: "sync" }]);
    // With the standby gone, a commit waits (for ever) rather than be acknowledged without it.
    await standby.stop("immediate");
    let acknowledged = false;
    const waiting = primary.query(`insert into kept values (1)`).then(() => {
      acknowledged = true;
      return "acknowledged";
    });
    await expect.poll(async () => primary.query(`select 1 from pg_stat_activity where wait_event = 'SyncRep'`), DEADLINE).toHaveLength(1);
    expect(acknowledged).toBe(false);
    await standby.start();
    expect(await waiting).toBe("acknowledged");
    // The standby did not inherit the setting: promoted, it takes writes alone.
    expect(await standby.query(`show synchronous_standby_names`)).toEqual([{ synchronous_standby_names: "" }]);
    await Promise.all([primary.close(), standby.close()]);
  });
});
