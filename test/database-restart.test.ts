// Issue 31, the database's bad day, second part: the PostgreSQL server itself goes away
// mid-write, restarted cleanly (`pg_ctl restart -m fast`) and crashed (SIGKILL, then
// started again), on a server of the test's own (test/support/own-postgres.ts), under an
// `npm start` process with its agents. What must hold: the process lives; every request
// meanwhile is refused UNAVAILABLE with retryable: true, never INTERNAL_SERVER_ERROR; once
// the server answers again the model takes writes within seconds by itself; nothing
// acknowledged is lost; a stream resumed with `since` sees each change once; the agents
// are elected again and settle a new unit.
//
// It needs no DATABASE_URL: it runs wherever the server binaries are (CI makes sure).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { LifelineProcess } from "./support/lifeline-process.js";
import {
  endProcess,
  expectEachChangeOnce,
  expectOutageRefusals,
  expectWritesKept,
  ResumingStream,
  startWithApplications,
  Writer,
} from "./support/outage.js";
import { type OwnPostgres, ownPostgres, skipNote, startOwnPostgres } from "./support/own-postgres.js";
import { adminHeaders } from "./support/store.js";
import { post } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const own = ownPostgres();
/** How long the model may take to take writes again once the server answers. */
const RESUME_MS = scaled(10_000);
const APPLICATIONS = ["mysql", "wordpress"];
const RUNS = /agents: this process \(pid \d+\) runs the agents/g;

describe.skipIf(!own.run)(`PostgreSQL restarted and crashed under writes${skipNote(own)}`, () => {
  const dir = mkdtempSync(join(tmpdir(), "lifeline-restart-"));
  let database: OwnPostgres;
  let server: LifelineProcess;
  let api: string;
  let stream: ResumingStream | undefined;

  beforeAll(async () => {
    database = await startOwnPostgres();
    const url = await database.createDatabase("lifeline");
    ({ server, api } = await startWithApplications(url, dir, APPLICATIONS));
  }, scaled(90_000));

  afterAll(async () => {
    await endProcess(server);
    await stream?.close().catch(() => {});
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `outage` under the writers; resolves once every writer got a write through after it, with how long that took. */
  async function underWrites(writers: Writer[], outage: () => Promise<void>): Promise<number> {
    await expect.poll(() => Math.min(...writers.map((w) => w.acknowledged)), { timeout: RESUME_MS, interval: 20 }).toBeGreaterThan(2);
    const down = Date.now();
    await outage();
    const answering = Date.now();
    const before = writers.map((w) => w.acknowledged);
    await expect
      .poll(() => writers.every((w, i) => w.acknowledged > before[i]!), { timeout: RESUME_MS, interval: 20 })
      .toBe(true)
      .catch((error: Error) => {
        const { exitCode, signalCode } = server.child;
        const last = writers.map((w) => w.attempts.at(-1));
        throw new Error(
          `${error.message}; the process: ${exitCode ?? signalCode ?? "running"}; last answers ${JSON.stringify(last)}\n${server.output().slice(-6000)}`,
        );
      });
    // The writers were writing through the outage (a request in flight while the database was down: refused, or held
    // until it was back; a fast restart may leave none refused), and the process lived through it.
    expect(writers.some((w) => w.attempts.some((a) => a.sentAt <= answering && a.answeredAt >= down))).toBe(true);
    expect(server.child.exitCode).toBeNull();
    return Date.now() - answering;
  }

  it("a clean restart (pg_ctl restart -m fast), then a crash (SIGKILL, started again): the process lives, refusals are UNAVAILABLE, writes resume within seconds, nothing acknowledged is lost, the stream sees each change once", {
    timeout: scaled(180_000),
  }, async () => {
    stream = new ResumingStream(api, "default", { kinds: ["APPLICATION"] });
    await stream.synced();
    const writers = APPLICATIONS.map((app) => new Writer(api, app));
    await underWrites(writers, () => database.restart("fast"));
    await underWrites(writers, async () => {
      await database.kill();
      await database.start();
    });
    await Promise.all(writers.map((w) => w.stop()));
    expectOutageRefusals(server, writers);
    await expectWritesKept(server, writers);
    await expectEachChangeOnce(server, stream, writers);
  });

  it("the agents are elected again, and settle a new unit: provisioned, deployed, its hooks run", { timeout: scaled(90_000) }, async () => {
    expect(server.output()).toContain("this process lost the agents' lock");
    await expect.poll(() => server.output().match(RUNS)?.length ?? 0, { timeout: RESUME_MS }).toBeGreaterThan(1);
    await server.ok(`mutation { deploy(input: { charm: "wordpress", application: "blog", numUnits: 1 }) { name } }`);
    const UNIT = `{ model(name: "default") { unit(name: "blog/0") { agentStatus { current } } } }`;
    await expect
      .poll(async () => (await server.ok(UNIT)).model.unit?.agentStatus.current, { timeout: scaled(60_000), interval: 200 })
      .toBe("idle");
  });

  it("a subscription opened while the database is down is refused UNAVAILABLE alone: the other streams on its socket go on", {
    timeout: scaled(60_000),
  }, async () => {
    const client = createClient({
      url: api.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: adminHeaders,
      retryAttempts: 0,
    });
    const open = { events: 0, ended: false };
    client.subscribe<unknown>(
      { query: `subscription { changes(model: "default", kinds: [APPLICATION]) { type revision } }` },
      {
        next: () => {
          open.events++;
        },
        error: () => {
          open.ended = true;
        },
        complete: () => {
          open.ended = true;
        },
      },
    );
    await expect.poll(() => open.events, { timeout: RESUME_MS }).toBeGreaterThan(0); // its snapshot
    await database.stop("fast");
    const refused = await new Promise<unknown>((resolve) =>
      client.subscribe<unknown>(
        { query: `subscription { changes(model: "default") { type revision } }` },
        { next: (result) => resolve(result), error: (error) => resolve(error), complete: () => resolve("complete") },
      ),
    );
    // Refused at its start (reading the token) or by its first read (a token known to the process a second longer).
    const errors = Array.isArray(refused) ? refused : (refused as { errors?: unknown[] }).errors;
    expect(errors).toMatchObject([{ extensions: { code: "UNAVAILABLE", retryable: true } }]);
    await database.start();
    const seen = open.events;
    await expect
      .poll(
        async () =>
          (
            await post(
              api,
              `mutation { setApplicationConfig(input: { application: "mysql", values: [{ key: "fail-hook", value: "after" }] }) { name } }`,
            )
          ).errors ?? null,
        { timeout: RESUME_MS },
      )
      .toBeNull();
    await expect.poll(() => open.events, { timeout: RESUME_MS }).toBeGreaterThan(seen);
    expect(open.ended).toBe(false);
    await client.dispose();
  });
});
