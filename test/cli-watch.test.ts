// `lifeline status --watch` and `lifeline debug-log` as their users meet them: the real binary following a real
// `npm start`'s change stream (with its agents running hooks), across a restart of the server too.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliConfigHome, type RunningCli, runCli, startCli, startCliServer } from "./support/lifeline-cli.js";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { ADMIN_TOKEN, createPrivateDatabase, onPostgres } from "./support/store.js";
import { openTerminal, tmuxAvailable } from "./support/terminal.js";
import { scaled } from "./support/time-scale.js";

const config = cliConfigHome();
const tmux = await tmuxAvailable();
const TIMEOUT = { timeout: scaled(120_000) };

/** A redraw's header, as a pipe reads it: `--- 00:12:34  model default at revision 42  watching, Ctrl-C to stop`. */
const HEADER = /^--- \d\d:\d\d:\d\d {2}model \S+ at revision (\d+) {2}watching, Ctrl-C to stop$/gm;

/** Polls `check` until it passes, up to a (scaled) deadline. */
async function eventually(check: () => Promise<void>, baseMs = 60_000): Promise<void> {
  const deadline = Date.now() + scaled(baseMs);
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Ctrl-C: the command ends cleanly, with 0. */
async function interrupt(running: RunningCli): Promise<void> {
  running.child.kill("SIGINT");
  const { code, stderr } = await running.exited;
  expect(stderr).toBe("");
  expect(code).toBe(0);
}

describe("lifeline status --watch and debug-log: usage", () => {
  it("--help lists debug-log, and each says how to use it with an example", TIMEOUT, async () => {
    expect((await runCli(config, ["--help"])).stdout).toContain("\n  debug-log ");
    const status = await runCli(config, ["status", "--help"]);
    expect(status.stdout).toContain("--watch");
    expect(status.stdout).toContain("lifeline status --watch");
    const debugLog = await runCli(config, ["debug-log", "--help"]);
    expect(debugLog.code).toBe(0);
    expect(debugLog.stdout).toContain("Usage: lifeline debug-log");
    expect(debugLog.stdout).toContain("Example:");
    for (const option of ["--include", "--exclude", "--replay", "--lines", "--level", "--no-tail", "--model"])
      expect(debugLog.stdout).toContain(option);
  });

  it("a level or count it does not know is a usage error", TIMEOUT, async () => {
    const env = { LIFELINE_URL: "http://127.0.0.1:1", LIFELINE_TOKEN: "x" };
    const level = await runCli(config, ["debug-log", "--level", "loud"], env);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain("DEBUG, INFO, WARNING, ERROR, CRITICAL");
    expect((await runCli(config, ["debug-log", "--lines", "-1"], env)).code).toBe(2);
  });
});

describe("lifeline status --watch and debug-log against npm start with its agents", () => {
  let server: CliServer;
  const lifeline = (args: string[]) => runCli(config, args, server.env);

  beforeAll(async () => {
    server = await startCliServer();
  }, scaled(60_000));
  afterAll(() => server?.stop(), scaled(60_000));

  it("status --watch draws a deploy as it appears and each of its unit's next states, one block per change", TIMEOUT, async () => {
    const watch = startCli(config, ["status", "--watch"], server.env);
    await watch.until(HEADER);
    const from = watch.stdout().length;
    expect((await lifeline(["deploy", "wordpress"])).code).toBe(0);
    const allocating = await watch.until(/^wordpress\/0\s+alive\s+waiting\s+allocating\s+\d+/m, { from });
    const after = from + allocating.index + allocating[0].length;
    await watch.until(/^wordpress\/0\s+alive\s+blocked\s+idle\s+\d+\s+needs a database relation$/m, { from: after });
    expect(watch.stdout().slice(from)).toMatch(/^wordpress\s+alive\s+blocked\s+1\s+bundled:wordpress-\d+/m);
    // Drawn on changes, not on a timer: every block stands at a later revision than the one before it.
    const revisions = [...watch.stdout().matchAll(HEADER)].map((m) => Number(m[1]));
    expect(revisions.length).toBeGreaterThan(2);
    for (let i = 1; i < revisions.length; i++) expect(revisions[i]).toBeGreaterThan(revisions[i - 1]!);
    await interrupt(watch);
  });

  it.skipIf(!tmux)("status --watch on a terminal redraws in place under a header, and Ctrl-C ends it with 0", TIMEOUT, async () => {
    const terminal = await openTerminal({ ...server.env, NO_COLOR: "1" });
    try {
      const window = await terminal.openWindow();
      await terminal.type("lifeline status --watch", window);
      await terminal.until(/^\d\d:\d\d:\d\d {2}model default at revision \d+ {2}watching, Ctrl-C to stop$/m, { window });
      expect((await lifeline(["deploy", "rsyslog"])).code).toBe(0);
      await terminal.until(/^rsyslog\s+alive\s/m, { window });
      // A terminal gets no pipe's separators: each redraw clears the screen and draws again.
      expect(await terminal.screen(window)).not.toMatch(/^--- /m);
      await terminal.keys("C-c", window);
      await terminal.type('echo "watch exited $?"', window);
      await terminal.until(/^watch exited 0$/m, { window });
    } finally {
      await terminal.close();
    }
  });

  it("debug-log --replay --no-tail shows the hooks a unit ran after the unit is removed", TIMEOUT, async () => {
    expect((await lifeline(["deploy", "memcached"])).code).toBe(0);
    const unitOf = async () => JSON.parse((await lifeline(["status", "--format", "json"])).stdout).units["memcached/0"];
    await eventually(async () => expect((await unitOf())?.agent.current).toBe("idle"));
    expect((await lifeline(["remove-unit", "memcached/0"])).code).toBe(0);
    await eventually(async () => expect(await unitOf()).toBeUndefined());

    const replay = await lifeline(["debug-log", "--replay", "--no-tail", "--include", "memcached/0"]);
    expect(replay.stderr).toBe("");
    expect(replay.code).toBe(0);
    const lines = replay.stdout.trimEnd().split("\n");
    for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d unit-memcached-0 (DEBUG|INFO|WARNING|ERROR|CRITICAL) /);
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    expect(at(/INFO running "install" hook$/)).toBe(0);
    expect(at(/INFO ran "install" hook$/)).toBeGreaterThan(0);
    expect(at(/INFO ran "remove" hook$/)).toBeGreaterThan(at(/INFO ran "install" hook$/));
  });

  it("live debug-log shows the juju-log line of a hook that fails, and the failure", TIMEOUT, async () => {
    expect((await lifeline(["deploy", "mysql"])).code).toBe(0);
    const log = startCli(config, ["debug-log", "--include", "mysql"], server.env);
    // Its start hook's end, from the history or the stream: the command is following by then.
    await log.until(/^\d\d:\d\d:\d\d unit-mysql-0 INFO ran "start" hook$/m);
    const from = log.stdout().length;
    await server.process.ok(`mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { configVersion } }`, {
      input: { application: "mysql", values: [{ key: "fail-hook", value: "config-changed" }] },
    });
    await log.until(/^\d\d:\d\d:\d\d unit-mysql-0 ERROR juju-log: config-changed fails on purpose \(config fail-hook\)$/m, { from });
    await log.until(/^\d\d:\d\d:\d\d unit-mysql-0 ERROR "config-changed" hook failed/m, { from });
    await log.until(/^\d\d:\d\d:\d\d unit-mysql-0 ERROR agent error: hook failed: "config-changed"$/m, { from });
    expect(log.stdout()).not.toMatch(/unit-(wordpress|memcached)/);
    await interrupt(log);
  });
});

describe("lifeline status --watch against npm start without agents, restarted", () => {
  let first: LifelineProcess | undefined;
  let second: LifelineProcess | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;

  afterAll(async () => {
    for (const server of [first, second]) if (server && server.child.exitCode === null) server.child.kill("SIGTERM");
    await Promise.all([first?.exited, second?.exited]);
    await database?.drop();
  }, scaled(60_000));

  it("says the connection is lost and resumed, then shows a change made after the restart", TIMEOUT, async () => {
    database = onPostgres ? await createPrivateDatabase() : undefined;
    const store: Record<string, string> = database
      ? { DATABASE_URL: database.url }
      : { DATABASE_URL: "", LIFELINE_DATA_DIR: mkdtempSync(join(tmpdir(), "lifeline-cli-data-")) };
    first = startLifeline({ ...store, LIFELINE_AGENTS: "0" });
    const url = await first.ready();
    const env = { LIFELINE_URL: url, LIFELINE_TOKEN: ADMIN_TOKEN };
    const watch = startCli(config, ["status", "--watch"], env);
    await watch.until(HEADER);

    first.child.kill("SIGTERM");
    await first.exited;
    await watch.until(/^connection lost at \d\d:\d\d:\d\d: .*; retrying$/m);
    second = startLifeline({ ...store, LIFELINE_AGENTS: "0", PORT: new URL(url).port });
    expect(await second.ready()).toBe(url);
    await watch.until(/^connection resumed at \d\d:\d\d:\d\d$/m);

    const from = watch.stdout().length;
    expect((await runCli(config, ["deploy", "haproxy"], env)).code).toBe(0);
    await watch.until(/^haproxy\/0\s+alive\s+waiting\s+allocating\s/m, { from });
    await interrupt(watch);
  });

  it("draws what status prints, endpoints' roles and what blocks a Dying application included", TIMEOUT, async () => {
    const url = await second!.ready();
    const env = { LIFELINE_URL: url, LIFELINE_TOKEN: ADMIN_TOKEN };
    const lifeline = (args: string[]) => runCli(config, args, env);
    const watch = startCli(config, ["status", "--watch", "--format", "json"], env);
    await watch.until(HEADER);
    for (const args of [
      ["deploy", "wordpress"],
      ["deploy", "mysql"],
      ["integrate", "wordpress", "mysql"],
    ])
      expect((await lifeline(args)).code).toBe(0);
    // No agents: wordpress/0 stays, and holds its Dying application back.
    expect((await lifeline(["remove-application", "wordpress"])).code).toBe(0);
    // The model's revision aside: the watch's moves with the kinds it draws, the model's with the cleaner's changes too.
    const view = (json: string) => {
      const parsed = JSON.parse(json);
      delete parsed.model.revision;
      return parsed;
    };
    const lastBlock = () => view(watch.stdout().slice(watch.stdout().lastIndexOf("\n--- ")).split("\n").slice(2).join("\n"));
    await eventually(async () => expect(lastBlock()).toEqual(view((await lifeline(["status", "--format", "json"])).stdout)));
    const drawn = lastBlock();
    expect(drawn.applications.wordpress.life).toBe("dying");
    expect(drawn.applications.wordpress.blockers[0].message).toContain("wordpress/0");
    expect(drawn.integrations.flatMap((r: { endpoints: string[] }) => r.endpoints)).toContain("mysql:cluster (peer)");
    await interrupt(watch);
  });
});
