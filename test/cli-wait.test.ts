// `lifeline wait-for` and `destroy-model`'s wait and dry run, as their users meet them: the real binary against a real
// `npm start` (one running its agents, so units go active and models empty themselves; one without, so what is Dying
// stays Dying and a wait times out with its blockers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliServer, cliConfigHome, runCli, startCli, startCliServer } from "./support/lifeline-cli.js";
import { scaled } from "./support/time-scale.js";

const config = cliConfigHome();
const lifeline = (args: string[], env: Record<string, string> = {}) => runCli(config, args, env);

const TIMEOUT = { timeout: scaled(60_000) };
const LONG = { timeout: scaled(180_000) };

describe("wait-for and destroy-model without a server", () => {
  it("--help lists wait-for, and its help has examples, the fields and Juju's defaults", TIMEOUT, async () => {
    expect((await lifeline(["--help"])).stdout).toContain("\n  wait-for ");
    const { code, stdout } = await lifeline(["wait-for", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: lifeline wait-for");
    expect(stdout).toContain("Example:");
    expect(stdout).toMatch(/^ {2}application {2}life=="alive" && status=="active"$/m);
    expect(stdout).toMatch(/^ {2}unit {9}life=="alive" && workload-status=="active"$/m);
    expect((await lifeline(["destroy-model", "--help"])).stdout).toMatch(/--dry-run[\s\S]*Example:/);
  });

  it("the exit codes include 4, timed out waiting", TIMEOUT, async () => {
    expect((await lifeline(["--help"])).stdout).toMatch(/^ {2}4 {2}timed out waiting/m);
  });

  it("a bad query is a usage error (exit 2) that shows where", TIMEOUT, async () => {
    const env = { LIFELINE_URL: "http://127.0.0.1:1", LIFELINE_TOKEN: "x" };
    const syntax = await lifeline(["wait-for", "application", "mysql", "--query", 'life=="alive" && (status=="active"'], env);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain("error: bad --query: expected ), found the end at position 35");
    expect(syntax.stderr).toContain(`  life=="alive" && (status=="active"\n${" ".repeat(36)}^`);
    const field = await lifeline(["wait-for", "unit", "mysql/0", "--query", 'workload-staus=="active"'], env);
    expect(field.code).toBe(2);
    expect(field.stderr).toMatch(/unknown field workload-staus \(known: .*workload-status.*\) at position 1/);
    const kind = await lifeline(["wait-for", "relation", "3"], env);
    expect(kind.code).toBe(2);
    const timeout = await lifeline(["wait-for", "unit", "mysql/0", "--timeout", "soon"], env);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("bad --timeout");
  });
});

describe("wait-for and destroy-model against npm start with its agents", () => {
  let server: CliServer;
  const env = () => server.env;

  beforeAll(async () => {
    server = await startCliServer();
  }, scaled(60_000));
  afterAll(() => server?.stop(), scaled(60_000));

  it("waits for what appears later, and exits 0 once its condition holds", LONG, async () => {
    // mysql/1 comes only with add-unit, after mysql is deployed and active: its wait starts well before it exists.
    const later = startCli(config, ["wait-for", "unit", "mysql/1", "--timeout", "3m"], env());
    expect((await lifeline(["deploy", "mysql"], env())).code).toBe(0);
    const active = await lifeline(["wait-for", "application", "mysql", "--timeout", "2m"], env());
    expect(active.stderr).toBe("");
    expect(active.code).toBe(0);
    expect(active.stdout).toBe('application mysql: life=="alive" && status=="active" met\n');
    expect(later.child.exitCode).toBeNull(); // still waiting: mysql/1 does not exist yet
    expect((await lifeline(["add-unit", "mysql"], env())).stdout).toContain("added unit mysql/1");
    const met = await later.exited;
    expect(met.code).toBe(0);
    expect(met.stdout).toBe('unit mysql/1: life=="alive" && workload-status=="active" met\n');
    const counted = await lifeline(
      ["wait-for", "application", "mysql", "--query", 'unit-count==2 && forEach(units, u => u.agent-status!="error")'],
      env(),
    );
    expect(counted.code).toBe(0);
  });

  it("destroy-model waits, on the changes stream, until the model is removed", LONG, async () => {
    expect((await lifeline(["add-model", "doomed"], env())).code).toBe(0);
    const destroyed = await lifeline(["destroy-model", "doomed", "--timeout", "2m"], env());
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toBe("model doomed: dying\nmodel doomed: removed\n");
    expect(destroyed.stderr).toContain("waiting for model doomed to be removed");
    expect((await lifeline(["models"], env())).stdout).toMatch(/^doomed\s+dead/m);
  });
});

describe("wait-for and destroy-model against npm start without agents", () => {
  let server: CliServer;
  const env = () => server.env;

  beforeAll(async () => {
    server = await startCliServer({ LIFELINE_AGENTS: "0" });
  }, scaled(60_000));
  afterAll(() => server?.stop(), scaled(60_000));

  it("a timeout exits 4 with the condition, the values seen last and what blocks", TIMEOUT, async () => {
    expect((await lifeline(["deploy", "memcached"], env())).code).toBe(0);
    expect((await lifeline(["remove-application", "memcached"], env())).stdout).toMatch(/^memcached: dying$/m);
    const run = await lifeline(["wait-for", "application", "memcached", "--query", 'life=="dead"', "--timeout", "2s"], env());
    expect(run.code).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^ERROR TIMED_OUT: application memcached: life=="dead" not met within 2s$/m);
    expect(run.stderr).toMatch(/^ {2}last seen: life=dying$/m);
    expect(run.stderr).toMatch(/^ {2}blocked by \w+: .*memcached\/0/m);
  });

  it("a timeout waiting for what never appeared says it was never seen", TIMEOUT, async () => {
    const run = await lifeline(["wait-for", "unit", "nothing/0", "--timeout", "1s"], env());
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/^ERROR TIMED_OUT: unit nothing\/0: life=="alive" && workload-status=="active" not met within 1s$/m);
    expect(run.stderr).toMatch(/^ {2}last seen: nothing: there is no unit nothing\/0 in model default$/m);
  });

  it("destroy-model --dry-run says what would become Dying, be removed and block, and changes nothing", TIMEOUT, async () => {
    expect((await lifeline(["add-model", "rehearsed"], env())).code).toBe(0);
    expect((await lifeline(["deploy", "memcached", "-m", "rehearsed"], env())).code).toBe(0);
    const before = (await lifeline(["status", "rehearsed", "--format", "json"], env())).stdout;
    const run = await lifeline(["destroy-model", "rehearsed", "--dry-run"], env());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^rehearsed: would be dying$/m);
    expect(run.stdout).toMatch(/^ {2}model rehearsed: dying$/m);
    expect(run.stdout).toMatch(/^ {2}cleanup destroy-model rehearsed: queued$/m);
    expect(run.stdout).toMatch(/^ {2}application memcached: dying$/m);
    // No agent ever ran memcached/0 (this server runs none): the cleaner's dying-units pass removes it, and its
    // application with it; its machine waits for its (absent) agent.
    expect(run.stdout).toMatch(
      /^ {2}cleanup dying-units memcached: queued\n {2}unit memcached\/0: dead\n {2}unit memcached\/0: removed\n {2}application memcached: removed$/m,
    );
    expect(run.stdout).toMatch(/^ {2}blocked by MACHINES: 1 machine\(s\) remain$/m);
    expect((await lifeline(["status", "rehearsed", "--format", "json"], env())).stdout).toBe(before);
    expect((await lifeline(["models"], env())).stdout).toMatch(/^rehearsed\s+alive/m);
  });

  it("destroy-model --dry-run of an empty model says it would be removed at once", TIMEOUT, async () => {
    expect((await lifeline(["add-model", "bare"], env())).code).toBe(0);
    const run = await lifeline(["destroy-model", "bare", "--dry-run"], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}machine 0: removed\n {2}model bare: dead$/m);
    expect((await lifeline(["models"], env())).stdout).toMatch(/^bare\s+alive/m);
  });

  it("the API's destroyModel with dryRun answers the outcome it would have, and keeps nothing", TIMEOUT, async () => {
    expect((await lifeline(["add-model", "kept"], env())).code).toBe(0);
    const revision = `query { model(name: "kept") { life revision } }`;
    const before = await server.process.ok(revision);
    const rehearsed = await server.process.ok(`mutation { destroyModel(name: "kept", dryRun: true) }`);
    expect(rehearsed.destroyModel).toBe("DYING");
    expect(await server.process.ok(revision)).toEqual(before);
    expect(before.model.life).toBe("ALIVE");
  });

  it("destroy-model --timeout stops waiting with exit 4 and what the model still holds", TIMEOUT, async () => {
    expect((await lifeline(["add-model", "stuck"], env())).code).toBe(0);
    expect((await lifeline(["deploy", "memcached", "-m", "stuck"], env())).code).toBe(0);
    const run = await lifeline(["destroy-model", "stuck", "--timeout", "2s"], env());
    expect(run.code).toBe(4);
    expect(run.stdout).toBe("model stuck: dying\n");
    expect(run.stderr).toMatch(/^ERROR TIMED_OUT: model stuck: life=="dead" not met within 2s$/m);
    expect(run.stderr).toMatch(/^ {2}last seen: life=dying application-count=1 unit-count=1 machine-count=2$/m);
    expect(run.stderr).toMatch(/^ {2}blocked by \w+: /m);
  });
});
