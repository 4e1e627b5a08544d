// The lifeline command in a real terminal (tmux), as issue 35's check runs it: log in with the line npm start prints,
// deploy and integrate, watch it settle, remove, and read what ran. Skipped without tmux unless LIFELINE_REQUIRE_TMUX=1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, startCliServer } from "./support/lifeline-cli.js";
import { openTerminal, type Terminal, tmuxAvailable } from "./support/terminal.js";
import { scaled } from "./support/time-scale.js";

const present = await tmuxAvailable();
const required = process.env.LIFELINE_REQUIRE_TMUX === "1";
if (!present && required) throw new Error("LIFELINE_REQUIRE_TMUX=1 but tmux is not installed");

describe.skipIf(!present)("lifeline in a terminal, against npm start with its agents", () => {
  let server: CliServer;
  let terminal: Terminal;

  beforeAll(async () => {
    server = await startCliServer();
    terminal = await openTerminal({ NO_COLOR: "" });
  }, scaled(90_000));
  afterAll(async () => {
    await terminal?.close();
    await server?.stop();
  }, scaled(60_000));

  it("logs in with the printed line, deploys, integrates, watches it settle, resolves a failed hook, removes, and reads what ran", {
    timeout: scaled(400_000),
  }, async () => {
    const [, login] = (await server.process.until(/log the lifeline command in: (lifeline login [^\s"]+ --code [^\s"]+)/))!;
    expect((await terminal.run(login!)).code).toBe(0);

    expect(await terminal.run("lifeline deploy wordpress")).toMatchObject({ code: 0 });
    expect(await terminal.run("lifeline deploy mysql")).toMatchObject({ code: 0 });
    const integrated = await terminal.run("lifeline integrate wordpress mysql");
    expect(integrated.output).toMatch(/added integration \d+: wordpress:db mysql:db/);

    // Watched in a second window while the agents settle it: redrawn in place from the stream.
    const watch = await terminal.openWindow();
    await terminal.type("lifeline status --watch", watch);
    await terminal.until(/watching, Ctrl-C to stop/, { window: watch });

    // The agents settle it by themselves: wait-for follows the stream until the default condition holds.
    const active = await terminal.run("lifeline wait-for application wordpress --timeout 4m", scaled(300_000));
    expect(active.output).toMatch(/application wordpress: life=="alive" && status=="active" met/);
    expect(active.code).toBe(0);
    const status = await terminal.run("lifeline status");
    expect(status.output).toMatch(/^wordpress\s+alive\s+active/m);
    expect(status.output).toMatch(/^wordpress:db mysql:db\s/m);
    await terminal.save("status-settled");
    await terminal.until(/^wordpress\/0\s+alive\s+active\s+idle\s/m, { window: watch, timeoutMs: 60_000 });
    await terminal.save("status-watch", watch);
    await terminal.keys("C-c", watch);
    await terminal.type('echo "[watch exit $?]"', watch);
    await terminal.until(/\[watch exit 0\]/, { window: watch });

    // A hook that fails (every bundled charm's fail-hook option: docs/hooks.md), marked done with resolved --no-retry.
    // The model stops retrying failed hooks first (`juju model-config automatically-retry-hooks=false`; the command line
    // has no model-config yet, so through the API): with retries on, the agent runs the hook again 5 s after it failed,
    // and a `resolved` sent then is refused NOT_IN_ERROR, as Juju's is.
    const noRetries = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.env.LIFELINE_TOKEN}` },
      body: JSON.stringify({ query: "mutation { setModelConfig(input: { automaticallyRetryHooks: false }) { name } }" }),
    });
    expect(await noRetries.json()).toEqual({ data: { setModelConfig: { name: "default" } } });
    expect((await terminal.run("lifeline config wordpress fail-hook=config-changed")).code).toBe(0);
    const failed = await terminal.run(`lifeline wait-for unit wordpress/0 --query 'agent-status=="error"' --timeout 2m`, scaled(150_000));
    expect(failed.code, failed.output).toBe(0);
    expect((await terminal.run("lifeline show-unit wordpress/0")).output).toMatch(/hook: config-changed[\s\S]*result: failed/);
    const resolved = await terminal.run("lifeline resolved wordpress/0 --no-retry");
    expect(resolved.output).toContain("wordpress/0: its failed hook is marked done");
    const going = await terminal.run(`lifeline wait-for unit wordpress/0 --query 'agent-status=="idle"' --timeout 2m`, scaled(150_000));
    expect(going.code, going.output).toBe(0);
    expect((await terminal.run("lifeline config wordpress --reset fail-hook")).code).toBe(0);

    const rehearsed = await terminal.run("lifeline remove-application wordpress --dry-run");
    expect(rehearsed.code).toBe(0);
    expect(rehearsed.output).toMatch(/^wordpress: would be dying$/m);
    expect((await terminal.run("lifeline status --format json")).output).toContain('"wordpress"');

    const removed = await terminal.run("lifeline remove-application wordpress");
    expect(removed.output).toMatch(/^wordpress: (dying|removed)$/m);
    // Not wait-for wordpress life=="dead": it may be gone before wait-for looks, and (as Juju's) wait-for then waits
    // for it to appear. The model's count says it either way.
    const gone = await terminal.run(`lifeline wait-for model default --query 'application-count==1' --timeout 3m`, scaled(200_000));
    if (gone.code !== 0) {
      // What a stuck removal left, for whoever reads the failure: the model as status shows it, and the server's last lines.
      const left = (await terminal.run("lifeline status")).output;
      expect.fail(`${gone.output}\n${left}\n${server.process.output().split("\n").slice(-80).join("\n")}`);
    }
    expect((await terminal.run("lifeline status --format json")).output).not.toContain('"wordpress"');
    await terminal.save("status-removed");

    // What ran, and why it failed, outlives the unit.
    const history = await terminal.run("lifeline debug-log --replay --no-tail --include wordpress/0");
    expect(history.code).toBe(0);
    expect(history.output).toMatch(/unit-wordpress-0 INFO ran "install" hook/);
    expect(history.output).toMatch(/unit-wordpress-0 \w+ .*config-changed/);
    expect(history.output).toMatch(/unit-wordpress-0 INFO ran "remove" hook/);
  });
});
