// Issue 36: "Structured logs: JSON lines with time, level, component and request id (a well-kept logger), readable in
// a terminal; LIFELINE_LOG sets the level; every agent action and refusal logged once with its code." `npm start` as
// a user runs it, its standard output read line by line.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { freePort } from "./support/ports.js";
import { adminHeaders, createPrivateDatabase, onPostgres } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

interface Record_ {
  time: string;
  level: string;
  component: string;
  msg: string;
  [field: string]: unknown;
}

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
}, scaled(60_000));

/** `npm start` on a store of its own, its stdout kept apart from stderr. */
async function start(env: Record<string, string>): Promise<{ server: LifelineProcess; stdout: () => string }> {
  const database = onPostgres ? await createPrivateDatabase() : undefined;
  const dir = mkdtempSync(join(tmpdir(), "lifeline-log-"));
  const server = startLifeline({
    ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: "", LIFELINE_DATA_DIR: join(dir, "pgdata") }),
    LIFELINE_CLOUD_FILE: join(dir, "cloud.json"),
    ...env,
  });
  let stdout = "";
  server.child.stdout.on("data", (data) => (stdout += data));
  stops.push(async () => {
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
    await server.exited;
    await database?.drop();
  });
  return { server, stdout: () => stdout };
}

const records = (text: string): Record_[] =>
  text
    .split("\n")
    .filter((line) => line.length)
    .map((line) => JSON.parse(line) as Record_);

describe("the server's log", () => {
  it("is JSON lines, each with time, level, component and message", { timeout: scaled(90_000) }, async () => {
    const { server, stdout } = await start({ LIFELINE_AGENTS: "0" });
    const url = await server.ready();
    const lines = records(stdout());
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(Number.isNaN(Date.parse(line.time)), JSON.stringify(line)).toBe(false);
      expect(["trace", "debug", "info", "warn", "error", "fatal"]).toContain(line.level);
      expect(typeof line.component).toBe("string");
      expect(typeof line.msg).toBe("string");
    }
    // The lines a person opens carry what they say as fields too.
    expect(lines.find((l) => l.msg.startsWith("GraphQL API and GraphiQL at"))).toMatchObject({ component: "server", url });
  });

  it("logs a refusal once, with its code, who asked and the request's id", { timeout: scaled(90_000) }, async () => {
    const { server, stdout } = await start({ LIFELINE_AGENTS: "0" });
    const url = await server.ready();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req-refused-1", ...adminHeaders },
      body: JSON.stringify({ query: `mutation { removeMachine(input: { machines: ["42"] }) { outcome } }` }),
    });
    expect((await response.json()).errors[0].extensions.code).toBe("NOT_FOUND");
    await expect
      .poll(() => records(stdout()).filter((l) => l.requestId === "req-refused-1"), { timeout: scaled(10_000), interval: 50 })
      .toEqual([
        expect.objectContaining({
          level: "info",
          component: "api",
          code: "NOT_FOUND",
          operation: "mutation",
          fields: ["removeMachine"],
          actor: expect.stringMatching(/^person-\d+ \(admin\)$/),
        }),
      ]);
  });

  it("logs a refusal before execution too: a document that does not validate, and one without credentials", {
    timeout: scaled(90_000),
  }, async () => {
    const { server, stdout } = await start({ LIFELINE_AGENTS: "0" });
    const url = await server.ready();
    const send = (query: string, headers: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query }) });
    await send("{ noSuchField }", { "x-request-id": "req-invalid-1", ...adminHeaders });
    await send(`mutation { removeMachine(input: { machines: ["1"] }) { outcome } }`, { "x-request-id": "req-anonymous-1" });
    const logged = (id: string) => records(stdout()).filter((l) => l.requestId === id);
    await expect
      .poll(() => logged("req-invalid-1"), { timeout: scaled(10_000), interval: 50 })
      .toEqual([expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED", message: expect.stringContaining("noSuchField") })]);
    await expect
      .poll(() => logged("req-anonymous-1"), { timeout: scaled(10_000), interval: 50 })
      .toEqual([expect.objectContaining({ code: "UNAUTHENTICATED", actor: "anonymous", fields: ["removeMachine"] })]);
  });

  it("keeps answering while nobody reads its log, and loses none of the lines meanwhile", { timeout: scaled(120_000) }, async () => {
    // At debug every operation is a line: 1,500 of them are several times what a pipe holds (64 KiB on Linux).
    const { server, stdout } = await start({ LIFELINE_AGENTS: "0", LIFELINE_LOG: "debug" });
    const url = await server.ready();
    server.child.stdout.pause();
    const sent = 1500;
    try {
      for (let i = 0; i < sent; i++) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-request-id": `req-unread-${i}`, ...adminHeaders },
          body: JSON.stringify({ query: "{ models(first: 1) { edges { node { name } } } }" }),
          signal: AbortSignal.timeout(scaled(10_000)),
        });
        expect(response.status).toBe(200);
      }
    } finally {
      server.child.stdout.resume(); // a server stuck writing its log would not stop either
    }
    await expect
      .poll(() => records(stdout()).filter((l) => String(l.requestId).startsWith("req-unread-")).length, {
        timeout: scaled(20_000),
        interval: 100,
      })
      .toBe(sent);
  });

  it("names the agent each of the agents' lines is about", { timeout: scaled(90_000) }, async () => {
    const { server, stdout } = await start({});
    await server.until(/machine-0: started/);
    expect(records(stdout()).find((l) => l.msg === "machine-0: started")).toMatchObject({ component: "controller", agent: "machine-0" });
  });

  it("LIFELINE_LOG sets the level: debug adds every operation, warn leaves the info lines out", { timeout: scaled(120_000) }, async () => {
    const debug = await start({ LIFELINE_AGENTS: "0", LIFELINE_LOG: "debug" });
    const url = await debug.server.ready();
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req-ok-1", ...adminHeaders },
      body: JSON.stringify({ query: "{ models(first: 1) { edges { node { name } } } }" }),
    });
    await expect
      .poll(() => records(debug.stdout()).find((l) => l.requestId === "req-ok-1"), { timeout: scaled(10_000), interval: 50 })
      .toMatchObject({ level: "debug", operation: "query", fields: ["models"] });

    // At warn nothing says where it listens: it is given a port, and asked whether it is alive.
    const port = await freePort();
    const quiet = await start({ LIFELINE_AGENTS: "0", LIFELINE_LOG: "warn", PORT: String(port) });
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, {
        timeout: scaled(60_000),
        interval: 100,
      })
      .toBe(200);
    expect(quiet.server.child.exitCode).toBeNull();
    expect(records(quiet.stdout()).filter((l) => l.level === "info" || l.level === "debug")).toEqual([]);
  });
});
