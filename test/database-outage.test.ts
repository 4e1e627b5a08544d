// Issue 31, the database's bad day: every connection of a running `npm start` process
// terminated by the server (pg_terminate_backend), under writes, eight times in a row.
// What must hold: the process lives; every request refused meanwhile says UNAVAILABLE with
// retryable: true (never INTERNAL_SERVER_ERROR); the model takes writes again within
// seconds each time; no acknowledged write is lost, and a write refused as "nothing
// changed" changed nothing; a change stream resumed with `since` sees every change once;
// the LISTEN connection comes back; the agents are elected again. Status queries among the
// writes, each on the connection of its snapshot, are answered or refused UNAVAILABLE alike.
//
// On PostgreSQL only: PGlite runs in the process, with no connection to lose. The process
// runs on a database of its own, since its agents take on every model in it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LifelineProcess } from "./support/lifeline-process.js";
import {
  endProcess,
  expectEachChangeOnce,
  expectOutageRefusals,
  expectWritesKept,
  ResumingStream,
  StatusReader,
  startWithApplications,
  Writer,
} from "./support/outage.js";
import { onPostgres, uniqueName } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const ROUNDS = 8;
/** How long the model may take to take writes again after its connections are terminated. */
const RESUME_MS = scaled(10_000);
const APPLICATIONS = ["mysql", "wordpress", "memcached", "haproxy"];
const RUNS = /agents: this process \(pid \d+\) runs the agents/g;

describe.skipIf(!onPostgres)("connections terminated under writes (PostgreSQL only: PGlite has no connection to lose)", () => {
  const dir = mkdtempSync(join(tmpdir(), "lifeline-outage-"));
  const admin = onPostgres ? postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }) : null;
  const database = uniqueName("lifeline_outage").replaceAll("-", "_");
  const url = new URL(process.env.DATABASE_URL ?? "postgres://unused");
  url.pathname = `/${database}`;
  let server: LifelineProcess;
  let api: string;
  let stream: ResumingStream | undefined;

  const terminateAll = () =>
    admin!.unsafe(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and pid <> pg_backend_pid()`);
  /** Sessions on the database whose last statement was the change feed's LISTEN. */
  const listening = async () =>
    (await admin!.unsafe(`select count(*)::int as n from pg_stat_activity where datname = '${database}' and query like 'listen %'`))[0]!
      .n as number;

  beforeAll(async () => {
    await admin!.unsafe(`create database "${database}"`);
    ({ server, api } = await startWithApplications(url.toString(), dir, APPLICATIONS));
  }, scaled(60_000));

  afterAll(async () => {
    await endProcess(server);
    await stream?.close().catch(() => {});
    await admin?.unsafe(`drop database if exists "${database}" with (force)`);
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it("eight rounds: the process lives, refusals are UNAVAILABLE and retryable, writes resume within seconds, nothing acknowledged is lost, the stream sees each change once, LISTEN and the agents come back", {
    timeout: scaled(180_000),
  }, async () => {
    stream = new ResumingStream(api, "default", { kinds: ["APPLICATION"] });
    await stream.synced();
    const writers = APPLICATIONS.map((app) => new Writer(api, app));
    const reader = new StatusReader(api);
    const acknowledged = () => writers.reduce((n, w) => n + w.acknowledged, 0);
    await expect.poll(acknowledged, { timeout: RESUME_MS, interval: 20 }).toBeGreaterThan(10);

    for (let round = 0; round < ROUNDS; round++) {
      const killed = await terminateAll();
      expect(killed.length, `round ${round}: connections terminated`).toBeGreaterThan(0);
      // Every writer's model takes writes again: each writer gets a write through after the terminations.
      const before = writers.map((w) => w.acknowledged);
      const read = reader.acknowledged;
      await expect.poll(() => writers.every((w, i) => w.acknowledged > before[i]!), { timeout: RESUME_MS, interval: 20 }).toBe(true);
      await expect.poll(() => reader.acknowledged, { timeout: RESUME_MS, interval: 20 }).toBeGreaterThan(read);
      expect(server.child.exitCode, `round ${round}: the process is alive`).toBeNull();
    }
    await Promise.all([...writers, reader].map((w) => w.stop()));

    // Status queries among the writes: each answered, or refused as the outage, never masked as internal.
    expectOutageRefusals(server, [...writers, reader]);
    await expectWritesKept(server, writers);
    await expectEachChangeOnce(server, stream!, writers);

    // The change feed listens again, and the agents were elected again after losing their lock.
    await expect.poll(listening, { timeout: RESUME_MS }).toBeGreaterThan(0);
    expect(server.output()).toContain("this process lost the agents' lock");
    await expect.poll(() => server.output().match(RUNS)?.length ?? 0, { timeout: RESUME_MS }).toBeGreaterThan(1);
  });

  // Each kind of connection alone, the others left as they are.
  const kinds = [
    {
      kind: "the pool's idle connections",
      where: `state = 'idle' and query not like 'listen %' and application_name not like '% agents %'`,
    },
    {
      kind: "the connections in a transaction",
      where: `state like 'idle in transaction%' or (state = 'active' and query not like 'listen %')`,
    },
    { kind: "the LISTEN connection", where: `query like 'listen %'` },
    { kind: "the agents' election lock", where: `application_name like '% agents %'` },
  ];
  for (const { kind, where } of kinds)
    it(`${kind}, terminated under writes: writes resume, the feed listens, the agents run`, { timeout: scaled(60_000) }, async () => {
      const writers = APPLICATIONS.map((app) => new Writer(api, app));
      const reader = new StatusReader(api);
      const acknowledged = () => writers.map((w) => w.acknowledged);
      await expect.poll(() => Math.min(...acknowledged()), { timeout: RESUME_MS, interval: 20 }).toBeGreaterThan(2);
      const elected = server.output().match(RUNS)?.length ?? 0;
      const killed = await admin!.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and pid <> pg_backend_pid() and (${where})`,
      );
      const before = acknowledged();
      await expect.poll(() => acknowledged().every((n, i) => n > before[i]! + 2), { timeout: RESUME_MS, interval: 20 }).toBe(true);
      await Promise.all([...writers, reader].map((w) => w.stop()));
      expect(server.child.exitCode).toBeNull();
      for (const writer of [...writers, reader])
        for (const attempt of writer.attempts)
          if (attempt.outcome !== "ok") expect(attempt.outcome).toMatchObject({ code: "UNAVAILABLE", retryable: true });
      await expect.poll(listening, { timeout: RESUME_MS }).toBe(1);
      if (kind === "the agents' election lock" && killed.length > 0)
        await expect.poll(() => server.output().match(RUNS)?.length ?? 0, { timeout: RESUME_MS }).toBeGreaterThan(elected);
    });

  it("after all that, the agents still settle a new unit: provisioned, deployed, its hooks run", { timeout: scaled(90_000) }, async () => {
    await server.ok(`mutation { deploy(input: { charm: "wordpress", application: "blog", numUnits: 1 }) { name } }`);
    const UNIT = `{ model(name: "default") { unit(name: "blog/0") { agentStatus { current } } } }`;
    await expect
      .poll(async () => (await server.ok(UNIT)).model.unit?.agentStatus.current, { timeout: scaled(60_000), interval: 200 })
      .toBe("idle");
    expect(server.child.exitCode).toBeNull();
  });
});
