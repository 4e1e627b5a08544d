// A connection string with several hosts and target_session_attrs=read-write, as
// Lifeline opens it (postgres.js with src/db/server.ts's options), over a primary and a
// streaming standby of the test's own: connections go to the primary, whatever the
// order of the hosts; with no primary to be had, a query fails at once as an outage
// (UNAVAILABLE to clients) instead of waiting; a host that does not answer gives its
// turn to the next. These are postgres.js's, as patched (patches/postgres+3.4.9.patch).
import { createServer, type Server, type Socket } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOutage } from "../src/db/outage.js";
import { resilient } from "../src/db/server.js";
import { type OwnPostgres, ownPostgres, skipNote, startOwnPostgres, startStandby } from "./support/own-postgres.js";
import { scaled } from "./support/time-scale.js";

const own = ownPostgres();

describe.skipIf(!own.run)(`a multi-host connection string with target_session_attrs=read-write${skipNote(own)}`, () => {
  let primary: OwnPostgres;
  let standby: OwnPostgres;
  const clients: postgres.Sql[] = [];

  beforeAll(async () => {
    primary = await startOwnPostgres({ replication: true });
    standby = await startStandby(primary);
  });
  afterAll(async () => {
    await Promise.all(clients.map((sql) => sql.end({ timeout: 1 })));
    await Promise.all([primary?.close(), standby?.close()]);
  });

  /** A client as Lifeline's pool is made, over `hosts` in that order. */
  function client(ports: number[], options: Partial<postgres.Options<Record<string, postgres.PostgresType>>> = {}) {
    const hosts = ports.map((port) => `127.0.0.1:${port}`).join(",");
    const sql = postgres(`postgres://postgres@${hosts}/postgres?target_session_attrs=read-write`, { ...resilient, max: 2, ...options });
    clients.push(sql);
    return sql;
  }
  const where = async (sql: postgres.Sql) =>
    (await sql<{ port: number; recovering: boolean }[]>`select inet_server_port() as port, pg_is_in_recovery() as recovering`)[0];

  /** How a query ends, and how long it took. */
  async function outcome(query: Promise<unknown>) {
    const started = performance.now();
    try {
      await query;
      return { ms: performance.now() - started, error: null };
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
  }

  it("connects to the primary, whichever host comes first: a hot standby is not read-write", async () => {
    expect(await where(client([standby.port, primary.port]))).toEqual({ port: primary.port, recovering: false });
    expect(await where(client([primary.port, standby.port]))).toEqual({ port: primary.port, recovering: false });
  });

  it("a host that accepts and never answers gives its turn to the next after connect_timeout", async () => {
    const silent: Socket[] = [];
    const server: Server = createServer((socket) => silent.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const sql = client([(server.address() as { port: number }).port, primary.port], { connect_timeout: 1 });
      const started = performance.now();
      expect(await where(sql)).toEqual({ port: primary.port, recovering: false });
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of silent) socket.destroy();
      server.close();
    }
  });

  describe("with the primary gone", () => {
    let sql: postgres.Sql;
    beforeAll(async () => {
      sql = client([primary.port, standby.port]);
      await where(sql);
      await primary.stop("immediate");
    });

    it("and the standby not yet promoted, a query fails at once, as an outage, rather than run on the standby", async () => {
      const { ms, error } = await outcome(where(sql));
      expect(isOutage(error), String(error)).toBe(true);
      expect(ms).toBeLessThan(2_000);
    });

    it("a transaction's BEGIN fails alike", async () => {
      const { ms, error } = await outcome(sql.begin((tx) => tx`select 1`));
      expect(isOutage(error), String(error)).toBe(true);
      expect(ms).toBeLessThan(2_000);
    });

    it("and every host down, a query fails at once, after one try of each, without spinning through them", async () => {
      await standby.stop("immediate");
      const cpu = process.cpuUsage();
      const { ms, error } = await outcome(where(sql));
      const { user, system } = process.cpuUsage(cpu);
      expect(isOutage(error), String(error)).toBe(true);
      expect(ms).toBeLessThan(2_000);
      expect((user + system) / 1000).toBeLessThan(200);
      await standby.start();
    });

    it("once the standby is promoted, the same client's next queries go to it", async () => {
      await standby.promote();
      await expect
        .poll(() => where(sql).catch(() => null), { timeout: scaled(10_000), interval: 50 })
        .toEqual({ port: standby.port, recovering: false });
    });
  });
});
