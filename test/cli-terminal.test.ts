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

  it("logs in with the printed line, deploys, integrates, settles, and removes", { timeout: scaled(300_000) }, async () => {
    const [, login] = (await server.process.until(/log the lifeline command in: (lifeline login [^\s"]+ --code [^\s"]+)/))!;
    expect((await terminal.run(login!)).code).toBe(0);

    expect(await terminal.run("lifeline deploy wordpress")).toMatchObject({ code: 0 });
    expect(await terminal.run("lifeline deploy mysql")).toMatchObject({ code: 0 });
    const integrated = await terminal.run("lifeline integrate wordpress mysql");
    expect(integrated.output).toMatch(/added integration \d+: wordpress:db mysql:db/);

    const status = await terminal.run("lifeline status");
    expect(status.output).toMatch(/^wordpress\s+alive/m);
    await terminal.save("status");

    const rehearsed = await terminal.run("lifeline remove-application wordpress --dry-run");
    expect(rehearsed.code).toBe(0);
    expect(rehearsed.output).toMatch(/^wordpress: would be dying$/m);
    expect((await terminal.run("lifeline status --format json")).output).toContain('"wordpress"');

    const removed = await terminal.run("lifeline remove-application wordpress");
    expect(removed.output).toMatch(/^wordpress: (dying|removed)$/m);
  });
});
