// One statement in a transaction of its own (src/db/transaction-runner.ts, runStatementAlone), as an operation that
// only rewrites its model's row runs (src/model/write/row-rewrite.ts): PostgreSQL commits it as it answers, so a
// connection lost once it was sent leaves it in doubt, as a lost COMMIT does; one refused, or never sent, is not.
// The connection runs through a proxy here that can cut it as the statement goes by.
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, rowsOf, type Store } from "../src/db/connect.js";
import { CommitInDoubt, isOutage, unavailable } from "../src/db/outage.js";
import { runStatementAlone } from "../src/db/transaction-runner.js";
import { createPrivateDatabase, onPostgres } from "./support/store.js";

/** A TCP proxy to `target`: cuts both sides of a connection once the client sends bytes holding `cutOn`, after passing them on. */
class CuttingProxy {
  cutOn: string | undefined;
  private readonly server = net.createServer((client) => this.connect(client));
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly target: URL) {}

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Stops taking connections and cuts those open: the next statement finds nobody listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private connect(client: net.Socket): void {
    const server = net.connect(Number(this.target.port || 5432), this.target.hostname);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => {});
    }
    server.on("data", (data) => client.write(data));
    client.on("data", (data) => {
      server.write(data);
      if (this.cutOn !== undefined && data.includes(this.cutOn)) {
        this.cutOn = undefined;
        server.destroy();
        client.destroy();
      }
    });
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  }
}

describe.skipIf(!onPostgres)("one statement alone (PostgreSQL only: a store in this process has no round trips to save)", () => {
  let database: { url: string; drop(): Promise<void> };
  let direct: Store;
  let proxy: CuttingProxy;
  let proxied: Store;

  beforeAll(async () => {
    database = await createPrivateDatabase();
    direct = await openStore({ databaseUrl: database.url, maxConnections: 1 });
    await direct.db.execute(sql`create table numbers (n int)`);
    proxy = new CuttingProxy(new URL(database.url));
    const url = new URL(database.url);
    url.host = `127.0.0.1:${await proxy.listen()}`;
    proxied = await openStore({ databaseUrl: url.toString(), maxConnections: 1 });
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.close();
    await direct?.close();
    await database?.drop();
  });

  const numbers = async () => rowsOf<{ n: number }>(await direct.db.execute(sql`select n from numbers order by n`)).map((r) => r.n);
  const insert = (n: number, answered?: (rows: readonly Record<string, unknown>[]) => void) => ({
    text: "insert into numbers values ($1) returning n",
    params: [n],
    ...(answered ? { answered } : {}),
  });

  it("commits as PostgreSQL answers, and hands the statement its rows", async () => {
    let rows: readonly Record<string, unknown>[] = [];
    await runStatementAlone(
      proxied.db,
      insert(1, (r) => (rows = r)),
    );
    expect(rows).toEqual([{ n: 1 }]);
    expect(await numbers()).toContain(1);
  });

  it("a statement PostgreSQL refused fails with its own error, not in doubt, and wrote nothing", async () => {
    const error = await runStatementAlone(proxied.db, { text: "insert into numbers values ($1::int / 0)", params: [2] }).catch((e) => e);
    expect(error).toMatchObject({ code: "22012" });
    expect(isOutage(error)).toBe(false);
    expect(await numbers()).not.toContain(2);
  });

  it("a connection lost once the statement was sent: in doubt (UNAVAILABLE, committed unknown), as a lost COMMIT is", async () => {
    // A text not sent before: its Parse carries it (a prepared statement's later runs name it instead).
    proxy.cutOn = "insert into numbers (n)";
    const error = await runStatementAlone(proxied.db, { text: "insert into numbers (n) values ($1)", params: [3] }).catch((e) => e);
    expect(error).toBeInstanceOf(CommitInDoubt);
    expect(unavailable(error)).toMatchObject({ code: "UNAVAILABLE", extensions: { retryable: true, committed: "unknown" } });
  });

  it("a connection never made: UNAVAILABLE and nothing written, not in doubt", async () => {
    await proxy.close();
    const error = await runStatementAlone(proxied.db, insert(4)).catch((e) => e);
    expect(isOutage(error)).toBe(true);
    expect(error).not.toBeInstanceOf(CommitInDoubt);
    expect(unavailable(error)?.extensions).not.toHaveProperty("committed");
    expect(await numbers()).not.toContain(4);
  });
});
