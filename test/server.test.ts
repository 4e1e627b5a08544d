// The server as users meet it: `npm start`'s entry point in a real process,
// HTTP and WebSocket (graphql-ws) on /graphql, the typed client's documents.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { print } from "graphql";
import { createClient } from "graphql-ws";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DeployDocument, IntegrateDocument, StatusDocument } from "../src/client/graphql.js";
import { scaled } from "./support/time-scale.js";

const root = new URL("..", import.meta.url).pathname;
const dataRoot = mkdtempSync(join(tmpdir(), "lifeline-server-"));
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(dataRoot, { recursive: true, force: true });
});

/** Starts `src/server/main.ts` as `npm start` does; resolves with its output so far once `until` matches or it exits. */
function startLifeline(env: Record<string, string>, until: RegExp) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", DATABASE_URL: "", LIFELINE_ADMIN_TOKEN: "", LIFELINE_LOG: "info", ...env },
  });
  children.push(child);
  let output = "";
  const ready = new Promise<{ output: string; code: number | null }>((resolve, reject) => {
    // Under the tests' own timeout (below), so a start that hangs fails with what it printed.
    const timer = setTimeout(() => reject(new Error(`lifeline did not print ${until} in time:\n${output}`)), scaled(75_000));
    const check = () => {
      if (until.test(output)) {
        clearTimeout(timer);
        resolve({ output, code: null });
      }
    };
    child.stdout.on("data", (d) => {
      output += d;
      check();
    });
    child.stderr.on("data", (d) => {
      output += d;
      check();
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
  return { child, ready };
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on("exit", resolve)));

async function post(url: string, document: unknown, variables: Record<string, unknown>, token = adminToken) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: print(document as never), variables }),
  });
  return (await response.json()) as { data?: any; errors?: any[] };
}

/** The first start's admin token, printed once. */
let adminToken = "";
const READY = /logged in as an admin .*: (http[^\s"]+)/;

// A first start on a fresh PGlite directory runs every migration: 10 s alone on a slow machine, and three times that
// beside the other test files (CI's PostgreSQL run failed at the default 30 s).
describe("lifeline server process", { timeout: scaled(90_000) }, () => {
  const dataDir = join(dataRoot, "pgdata");
  let url = "";
  let login = "";
  let first: ChildProcessWithoutNullStreams;

  it("starts on embedded PGlite and prints where GraphiQL is, an admin token (the first time only) and a login link", async () => {
    const started = startLifeline({ LIFELINE_DATA_DIR: dataDir }, READY);
    first = started.child;
    const { output, code } = await started.ready;
    expect(code, output).toBeNull();
    expect(output).toMatch(/store pglite at /);
    url = /GraphiQL at (http[^\s"]+)/.exec(output)![1]!;
    adminToken = /admin token, shown only now .*: (llt_[^\s"]+)/.exec(output)![1]!;
    login = READY.exec(output)![1]!;
  });

  it("refuses requests without credentials, with UNAUTHENTICATED", async () => {
    const refused = await post(url, StatusDocument, {}, "");
    expect(refused.errors?.map((e: any) => e.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
  });

  it("the printed login link logs a browser in (a session cookie), once", async () => {
    const response = await fetch(login, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^lifeline_token=\S+; HttpOnly; SameSite=Strict; Path=\//);
    const status = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: cookie.split(";")[0]! },
      body: JSON.stringify({ query: print(StatusDocument), variables: {} }),
    }).then((r) => r.json());
    expect(status.errors).toBeUndefined();
    expect((await fetch(login, { redirect: "manual" })).status).toBe(401);
  });

  it("serves mutations and queries over HTTP, with the default model bootstrapped", async () => {
    expect((await post(url, DeployDocument, { input: { charm: "wordpress" } })).errors).toBeUndefined();
    expect((await post(url, DeployDocument, { input: { charm: "mysql" } })).errors).toBeUndefined();
    const related = await post(url, IntegrateDocument, { input: { endpoints: ["wordpress", "mysql"] } });
    expect(related.data.integrate.key).toBe("wordpress:db mysql:db");
    const status = await post(url, StatusDocument, {});
    expect(status.data.model.machines.edges.map((e: any) => e.node.id)).toEqual(["0", "1", "2"]);
  });

  it("serves the same API over WebSocket (graphql-ws)", async () => {
    const client = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${adminToken}` },
    });
    try {
      const result = await new Promise<any>((resolve, reject) => {
        let value: unknown;
        client.subscribe(
          { query: print(StatusDocument), variables: {} },
          { next: (v) => (value = v), error: reject, complete: () => resolve(value) },
        );
      });
      expect(result.errors).toBeUndefined();
      expect(result.data.model.applications.edges.map((e: any) => e.node.name)).toEqual(["wordpress", "mysql"]);
    } finally {
      await client.dispose();
    }
  });

  it("a first start that fails after making the admin token has still shown it (only its hash is kept)", async () => {
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    try {
      const port = String((busy.address() as AddressInfo).port);
      const failed = startLifeline({ LIFELINE_DATA_DIR: join(dataRoot, "busy-port"), PORT: port }, /failed to start/);
      const { output } = await failed.ready;
      expect(await exited(failed.child)).toBe(1);
      expect(output).toMatch(/admin token, shown only now .*: llt_\S+/);
      expect(output).toMatch(/EADDRINUSE/);
    } finally {
      busy.close();
    }
  });

  it("a second process on the same data directory refuses to start, saying why", async () => {
    const second = startLifeline({ LIFELINE_DATA_DIR: dataDir }, /GraphiQL at/);
    const { output, code } = await second.ready;
    expect(code).toBe(1);
    expect(output).toMatch(/data directory .* is in use by another Lifeline process/);
  });

  it("stops cleanly on SIGTERM and keeps its state for the next start", async () => {
    first.kill("SIGTERM");
    expect(await exited(first)).toBe(0);
    const again = startLifeline({ LIFELINE_DATA_DIR: dataDir }, READY);
    const { output } = await again.ready;
    expect(output).not.toMatch(/admin token/);
    const status = await post(/GraphiQL at (http[^\s"]+)/.exec(output)![1]!, StatusDocument, {});
    expect(status.data.model.applications.edges.map((e: any) => e.node.name)).toEqual(["wordpress", "mysql"]);
    again.child.kill("SIGTERM");
    expect(await exited(again.child)).toBe(0);
  });
});

// Issue 32, point 3: "Changing LIFELINE_ADMIN_TOKEN leaves the old one working; every start adds a login link valid
// 24 h and the previous start's still works."
describe("credentials across restarts", { timeout: scaled(90_000) }, () => {
  const dataDir = join(dataRoot, "restarts");
  const A = "llt_restarts-token-a-not-secret";
  const B = "llt_restarts-token-b-not-secret";
  let running: ChildProcessWithoutNullStreams;
  let url = "";
  let firstLink = "";

  /** Stops the running process, then starts it again with `token` as LIFELINE_ADMIN_TOKEN; resolves with its output. */
  async function restart(token: string) {
    if (running) {
      running.kill("SIGTERM");
      expect(await exited(running)).toBe(0);
    }
    const started = startLifeline({ LIFELINE_DATA_DIR: dataDir, LIFELINE_AGENTS: "0", LIFELINE_ADMIN_TOKEN: token }, READY);
    running = started.child;
    const { output, code } = await started.ready;
    expect(code, output).toBeNull();
    url = /GraphiQL at (http[^\s"]+)/.exec(output)![1]!;
    return output;
  }

  const refusal = async (token: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "{ viewer { kind } }" }),
    });
    return ((await response.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code ?? null;
  };

  it("a start with LIFELINE_ADMIN_TOKEN A accepts A as an admin", async () => {
    firstLink = READY.exec(await restart(A))![1]!;
    expect(await refusal(A)).toBeNull();
  });

  it("a restart with B revokes A: A is UNAUTHENTICATED, B works", async () => {
    await restart(B);
    expect(await refusal(A)).toBe("UNAUTHENTICATED");
    expect(await refusal(B)).toBeNull();
  });

  it("the previous start's login link no longer logs in: each start revokes the last one's", async () => {
    // The same link on this start's port (PORT=0 picks a new one each time).
    const link = new URL(firstLink);
    const here = new URL(`${link.pathname}${link.search}`, url);
    expect((await fetch(here, { redirect: "manual" })).status).toBe(401);
  });

  it("a restart without LIFELINE_ADMIN_TOKEN revokes B, and, no lasting admin token left, prints a new one", async () => {
    const output = await restart("");
    expect(await refusal(B)).toBe("UNAUTHENTICATED");
    const printed = /admin token, shown only now .*: (llt_[^\s"]+)/.exec(output)?.[1];
    expect(printed, output).toMatch(/^llt_/);
    expect(await refusal(printed!)).toBeNull();
    running.kill("SIGTERM");
    expect(await exited(running)).toBe(0);
  });
});
