// The lifeline command as its users meet it: the real binary (bin/lifeline.mjs) against a real `npm start`, its output
// and exit codes. Each spawn gets its own XDG_CONFIG_HOME, so no test reads the developer's login.
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colours } from "../src/cli/colour.js";
import { lifelineProgram } from "../src/cli/program.js";
import { type CliServer, cliConfigHome, runCli, startCliServer } from "./support/lifeline-cli.js";
import { scaled } from "./support/time-scale.js";

const config = cliConfigHome();
const lifeline = (args: string[], env: Record<string, string> = {}) => runCli(config, args, env);

const TIMEOUT = { timeout: scaled(60_000) };

describe("lifeline without a server", () => {
  // Every command the program has (the list is the floor: a command dropped by mistake fails here).
  const commands = lifelineProgram().commands.map((c) => c.name());
  const more = ["integrate", "remove-application", "remove-unit", "remove-machine", "remove-relation", "resolved", "wait-for", "debug-log"];

  it("--help lists every command and the exit codes", TIMEOUT, async () => {
    const { code, stdout } = await lifeline(["--help"]);
    expect(code).toBe(0);
    for (const command of [...commands, ...more, "agent"]) expect(stdout).toContain(`\n  ${command} `);
    expect(stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*refused.*\n {2}2 .*usage.*\n {2}3 .*cannot reach/);
  });

  it("--help works for every command, with an example", { timeout: scaled(180_000) }, async () => {
    expect(commands).toEqual(expect.arrayContaining([...more, "login", "logout", "status", "show-unit", "config", "completion"]));
    for (const command of commands.filter((c) => c !== "agent")) {
      const { code, stdout } = await lifeline([command, "--help"]);
      expect(code, command).toBe(0);
      expect(stdout, command).toContain(`Usage: lifeline ${command}`);
      expect(stdout, command).toContain("Example:");
    }
  });

  it("lifeline agent machine --help says how to run an agent", TIMEOUT, async () => {
    const { code, stdout } = await lifeline(["agent", "machine", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("lifeline agent machine <id>");
    expect(stdout).toContain("--credentials-file");
    // Its options are the runner's own, --url included, however the command line orders them.
    const run = await lifeline(["agent", "machine", "1", "--url", "http://127.0.0.1:1/graphql", "--credentials-file", "/nonexistent"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot read the credentials file");
  });

  it("a usage error exits 2", TIMEOUT, async () => {
    expect((await lifeline(["no-such-command"])).code).toBe(2);
    expect((await lifeline(["status", "--format", "xml"])).code).toBe(2);
    const nothingStored = await lifeline(["status"]);
    expect(nothingStored.code).toBe(2);
    expect(nothingStored.stderr).toContain("lifeline login");
  });

  it("colours states only on a terminal, and never with NO_COLOR", () => {
    expect(colours({ isTTY: true }, {}).state("error")).toContain("\u001b[31m");
    expect(colours({ isTTY: true }, { NO_COLOR: "1" }).state("error")).toBe("error");
    expect(colours({ isTTY: false }, {}).state("error")).toBe("error");
  });

  it("a server that cannot be reached exits 3", TIMEOUT, async () => {
    const { code, stderr } = await lifeline(["status", "--url", "http://127.0.0.1:1", "--token", "x"]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1\/graphql/);
    expect((await lifeline(["--url", "http://127.0.0.1:1", "models"])).code).toBe(3);
  });
});

describe("lifeline against npm start", () => {
  let server: CliServer;
  let url = "";
  const env = () => server.env;

  // A store of its own, as a user's first `npm start` has (the model `default` with machine 0).
  beforeAll(async () => {
    server = await startCliServer({ LIFELINE_AGENTS: "0" });
    url = server.url;
  }, scaled(60_000));
  afterAll(() => server?.stop(), scaled(60_000));

  it("logs in with the line npm start prints, keeping a token of its own in a 0600 file", TIMEOUT, async () => {
    const [, line] = (await server.process.until(/log the lifeline command in: lifeline (login [^\s"]+ --code [^\s"]+)/))!;
    const login = await lifeline(line!.split(" "));
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    const file = join(config, "lifeline", "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, "lifeline")).mode & 0o777).toBe(0o700);
    const models = await lifeline(["models"]);
    expect(models.code).toBe(0);
    expect(models.stdout).toMatch(/^default\s+alive/m);
    // The code was spent: a second use is refused, with the hint to log in another way.
    const again = await lifeline(line!.split(" "));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("UNAUTHENTICATED");
    expect((await lifeline(["logout"])).stdout).toContain("logged out");
    expect((await lifeline(["models"])).code).toBe(2);
  });

  it("logs in with a token", TIMEOUT, async () => {
    const login = await lifeline(["login", url, "--token", server.env.LIFELINE_TOKEN!]);
    expect(login.code).toBe(0);
    expect(statSync(join(config, "lifeline", "credentials.json")).mode & 0o777).toBe(0o600);
    expect((await lifeline(["models"])).code).toBe(0);
    const wrong = await lifeline(["login", url, "--token", "llt_wrong"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/UNAUTHENTICATED[\s\S]*hint: run `lifeline login/);
    await lifeline(["logout"]);
  });

  it("shows a fresh model's status in each format", TIMEOUT, async () => {
    await lifeline(["add-model", "fresh"], env());
    const tabular = await lifeline(["status", "fresh"], env());
    expect(tabular.code).toBe(0);
    expect(tabular.stdout).toMatch(/^Model\s+Life\s+Series\s+Revision/m);
    expect(tabular.stdout).toMatch(/^fresh\s+alive/m);
    expect(tabular.stdout).toMatch(/^Machine\s+Life\s+Status/m);
    expect(tabular.stdout).not.toContain("\u001b["); // not a terminal: no colour
    const json = JSON.parse((await lifeline(["status", "fresh", "--format", "json"], env())).stdout);
    expect(json.model).toMatchObject({ name: "fresh", life: "alive" });
    expect(Object.keys(json.machines)).toEqual(["0"]);
    const yaml = await lifeline(["status", "fresh", "--format", "yaml"], env());
    expect(yaml.stdout).toMatch(/^model:\n {2}name: fresh\n/);

    const destroyed = await lifeline(["destroy-model", "fresh", "--no-wait"], env());
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toMatch(/^model fresh: (dying|removed)$/m);
    expect((await lifeline(["models"], env())).stdout).toMatch(/^fresh\s+(dying|dead)/m);
  });

  it("deploys, integrates and shows them in status; a refusal prints its code and hint and exits 1", {
    timeout: scaled(90_000),
  }, async () => {
    expect((await lifeline(["deploy", "wordpress"], env())).stdout).toContain("deployed wordpress: wordpress/0");
    expect((await lifeline(["deploy", "mysql"], env())).code).toBe(0);
    expect((await lifeline(["integrate", "wordpress", "mysql"], env())).stdout).toMatch(/added integration \d+: wordpress:db mysql:db/);
    expect((await lifeline(["add-unit", "wordpress"], env())).stdout).toContain("added unit wordpress/1");
    const status = await lifeline(["status"], env());
    for (const section of ["Model", "App", "Unit", "Machine", "Integration"])
      expect(status.stdout).toMatch(new RegExp(`^${section}\\s`, "m"));
    expect(status.stdout).toMatch(/^wordpress\s+alive\s+waiting\s+2\s/m);
    expect(status.stdout).toMatch(/^wordpress\/0\s+alive\s+waiting\s+allocating\s+1\s/m);
    expect(status.stdout).toMatch(/^wordpress:db mysql:db\s+mysql\s+global\s+alive/m);
    const narrowed = JSON.parse((await lifeline(["status", "default", "mysql", "--format", "json"], env())).stdout);
    expect(Object.keys(narrowed.applications)).toEqual(["mysql"]);

    const refused = await lifeline(["remove-machine", "1"], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ERROR HAS_UNITS: .*wordpress\/0/m);
    expect(refused.stderr).toContain("--force");
    expect((await lifeline(["remove-unit", "wordpress/1", "--no-wait"], env())).code).toBe(2);
    const removed = await lifeline(["remove-unit", "wordpress/1"], env());
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/wordpress\/1: (dying|removed|dead)/);
    expect((await lifeline(["resolved", "wordpress/0"], env())).stderr).toContain("NOT_IN_ERROR");
  });

  it("remove-application --dry-run says what would happen and what would block, and changes nothing", {
    timeout: scaled(90_000),
  }, async () => {
    await lifeline(["add-model", "rehearsed"], env());
    expect((await lifeline(["deploy", "memcached", "-m", "rehearsed"], env())).code).toBe(0);
    const before = (await lifeline(["status", "rehearsed", "--format", "json"], env())).stdout;
    const rehearsed = await lifeline(["remove-application", "memcached", "-m", "rehearsed", "--dry-run"], env());
    expect(rehearsed.code).toBe(0);
    expect(rehearsed.stdout).toMatch(/^memcached: would be dying$/m);
    expect(rehearsed.stdout).toMatch(/^ {2}application memcached: dying$/m);
    expect(rehearsed.stdout).toMatch(/^ {2}cleanup dying-units memcached: queued$/m);
    expect(rehearsed.stdout).toMatch(/^ {2}blocked by /m);
    expect((await lifeline(["status", "rehearsed", "--format", "json"], env())).stdout).toBe(before);
  });
});
