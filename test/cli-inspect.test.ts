// Looking at one entity and changing its settings from the lifeline command: show-unit, show-machine,
// show-application (hook runs included, a removed unit's too), constraints, config, resolved <machine>, and shell
// completion. The real binary against a real `npm start` with its agents, as a user runs them.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type CliServer, cliConfigHome, runCli, startCliServer } from "./support/lifeline-cli.js";
import { scaled } from "./support/time-scale.js";

const config = cliConfigHome();
const lifeline = (args: string[], env: Record<string, string> = {}) => runCli(config, args, env);

const TIMEOUT = { timeout: scaled(60_000) };
/** Waiting on the agents: a hook to fail, a unit to go, a machine to be provisioned. */
const SETTLE = { timeout: scaled(45_000), interval: 250 };

const NEW_COMMANDS = [
  "show-unit",
  "show-machine",
  "show-application",
  "constraints",
  "set-constraints",
  "set-model-constraints",
  "config",
  "completion",
];

describe("lifeline's inspection commands without a server", () => {
  it("--help lists them, and each has its own --help with an example", { timeout: scaled(90_000) }, async () => {
    const { stdout } = await lifeline(["--help"]);
    for (const command of NEW_COMMANDS) expect(stdout).toContain(`\n  ${command} `);
    for (const command of NEW_COMMANDS) {
      const help = await lifeline([command, "--help"]);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain(`Usage: lifeline ${command}`);
      expect(help.stdout, command).toContain("Example:");
    }
  });

  it("resolved takes --no-retry for a unit only and --constraints for a machine only: a usage error otherwise", TIMEOUT, async () => {
    const machine = await lifeline(["resolved", "3", "--no-retry"]);
    expect(machine.code).toBe(2);
    expect(machine.stderr).toContain("--no-retry applies to units only");
    const unit = await lifeline(["resolved", "wordpress/0", "--constraints", "mem=2G"]);
    expect(unit.code).toBe(2);
    expect(unit.stderr).toContain("--constraints applies to machines only");
    const neither = await lifeline(["resolved", "wordpress"]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain("neither a unit");
  });

  it("show-unit --runs takes a count from 1 to 100", TIMEOUT, async () => {
    expect((await lifeline(["show-unit", "wordpress/0", "--runs", "0"])).code).toBe(2);
    expect((await lifeline(["show-unit", "wordpress/0", "--format", "tabular"])).code).toBe(2);
  });
});

describe("lifeline completion", () => {
  let script = "";
  beforeAll(async () => {
    const { code, stdout } = await lifeline(["completion", "bash"]);
    expect(code).toBe(0);
    script = join(mkdtempSync(join(tmpdir(), "lifeline-completion-")), "lifeline.bash");
    writeFileSync(script, stdout);
  }, scaled(30_000));

  /** What bash offers for the command line `words`, the last one being completed. */
  function complete(...words: string[]): string[] {
    const line = words.map((w) => `'${w}'`).join(" ");
    const run = spawnSync(
      "bash",
      [
        "-c",
        `source "$1"; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _lifeline; printf '%s\\n' "\${COMPREPLY[@]}"`,
        "-",
        script,
      ],
      { encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    return run.stdout.split("\n").filter(Boolean).sort();
  }

  it("the bash script parses and registers itself for lifeline", () => {
    expect(spawnSync("bash", ["-n", script]).status).toBe(0);
    const registered = spawnSync("bash", ["-c", `source "$1"; complete -p lifeline`, "-", script], { encoding: "utf8" });
    expect(registered.stdout.trim()).toBe("complete -F _lifeline lifeline");
  });

  it("completes command names", () => {
    expect(complete("lifeline", "rem")).toEqual(["remove-application", "remove-machine", "remove-relation", "remove-unit"]);
    expect(complete("lifeline", "show-")).toEqual(["show-application", "show-machine", "show-unit"]);
    // After a global option's value the command is still to come.
    expect(complete("lifeline", "--url", "http://x", "set-")).toEqual(["set-constraints", "set-model-constraints"]);
    expect(complete("lifeline", "help", "resol")).toEqual(["resolved"]);
  });

  it("completes a command's options, and an option's choices", () => {
    expect(complete("lifeline", "status", "--f")).toEqual(["--format"]);
    expect(complete("lifeline", "status", "--format", "")).toEqual(["json", "tabular", "yaml"]);
    expect(complete("lifeline", "show-unit", "wordpress/0", "--format", "")).toEqual(["json", "yaml"]);
    expect(complete("lifeline", "resolved", "3", "--")).toEqual(["--constraints", "--help", "--model", "--no-retry", "--token", "--url"]);
    // The value of an option without choices is the user's to type.
    expect(complete("lifeline", "deploy", "--constraints", "")).toEqual([]);
  });

  const hasZsh = !spawnSync("zsh", ["-fc", "true"]).error;

  it.skipIf(!hasZsh)("the zsh script offers the candidates bash does (zsh's own matching then picks among them)", TIMEOUT, async () => {
    const file = join(mkdtempSync(join(tmpdir(), "lifeline-completion-")), "_lifeline");
    writeFileSync(file, (await lifeline(["completion", "zsh"])).stdout);
    // _describe stands in for compsys: it prints the candidates' names; zsh filters them by the word typed.
    const offered = (...words: string[]) => {
      const line = words.map((w) => `'${w}'`).join(" ");
      const script = `compdef() { print "compdef $*" }; source "$1"; _describe() { local -a a; a=("\${(@P)2}"); print -l -- "\${a[@]%%:*}" }
words=(${line}); CURRENT=${words.length}; _lifeline`;
      const run = spawnSync("zsh", ["-fc", script, "zsh", file], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      const [registered, ...candidates] = run.stdout.split("\n").filter(Boolean);
      expect(registered).toBe("compdef _lifeline lifeline");
      return candidates.filter((c) => c.startsWith(words.at(-1)!)).sort();
    };
    expect(offered("lifeline", "rem")).toEqual(["remove-application", "remove-machine", "remove-relation", "remove-unit"]);
    expect(offered("lifeline", "--url", "http://x", "show-")).toEqual(["show-application", "show-machine", "show-unit"]);
    expect(offered("lifeline", "status", "--f")).toEqual(["--format"]);
    expect(offered("lifeline", "status", "--format", "")).toEqual(["json", "tabular", "yaml"]);
  });

  it("prints a zsh script that registers _lifeline for lifeline", TIMEOUT, async () => {
    const { code, stdout } = await lifeline(["completion", "zsh"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#compdef lifeline\n/);
    expect(stdout).toContain("compdef _lifeline lifeline");
    for (const command of NEW_COMMANDS) expect(stdout).toContain(`    ${command})`);
    if (hasZsh) expect(spawnSync("zsh", ["-n"], { input: stdout, encoding: "utf8" }).status).toBe(0);
    expect((await lifeline(["completion", "fish"])).code).toBe(2);
  });
});

describe("lifeline show-*, constraints, config and resolved against npm start", () => {
  let server: CliServer;
  const run = (args: string[]) => lifeline(args, server.env);
  const shown = async (args: string[]) => {
    const { code, stdout, stderr } = await run(args);
    expect(code, stderr).toBe(0);
    return parse(stdout);
  };
  /** The first document `args` print that `met` accepts, polled until SETTLE's deadline: the agents move on. */
  const eventually = async (args: string[], met: (document: any) => boolean) => {
    const deadline = Date.now() + SETTLE.timeout;
    let last: unknown;
    while (Date.now() < deadline) {
      last = await shown(args);
      if (met(last)) return last as any;
      await new Promise((resolve) => setTimeout(resolve, SETTLE.interval));
    }
    throw new Error(`lifeline ${args.join(" ")} never printed what was waited for; last:\n${JSON.stringify(last, null, 2)}`);
  };

  beforeAll(async () => {
    server = await startCliServer();
    // wordpress's install fails on purpose (the charm's fail-hook option), logging why with juju-log.
    for (const args of [
      ["deploy", "wordpress", "--config", "fail-hook=install"],
      ["deploy", "mysql"],
      ["integrate", "wordpress", "mysql"],
    ]) {
      const result = await run(args);
      expect(result.code, result.stderr).toBe(0);
    }
  }, scaled(90_000));
  afterAll(() => server?.stop(), scaled(60_000));

  it("show-unit prints a unit's statuses and its latest hook runs with their juju-log lines", { timeout: scaled(60_000) }, async () => {
    const unit = (await eventually(["show-unit", "wordpress/0"], (d) => d["wordpress/0"]["agent-status"].current === "error"))[
      "wordpress/0"
    ];
    expect(unit).toMatchObject({ life: "alive", application: "wordpress", machine: "1", series: "jammy" });
    expect(unit["agent-status"]).toMatchObject({ message: 'hook failed: "install"', hook: "install" });
    expect(unit["agent-status"].since).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(unit["workload-status"].current).toEqual(expect.any(String));
    expect(unit["hook-runs"][0]).toMatchObject({ hook: "install", result: "failed", message: "exit status 1" });
    expect(unit["hook-runs"][0].ended).toEqual(expect.any(String));
    expect(unit["hook-runs"][0].log).toEqual([expect.stringMatching(/ ERROR install fails on purpose \(config fail-hook\)$/)]);
    expect(unit.blockers).toBeUndefined(); // Alive: nothing holds it
  });

  it("show-unit --format json prints the same document; --runs bounds the hook runs", TIMEOUT, async () => {
    await expect.poll(async () => (await shown(["show-unit", "mysql/0"]))["mysql/0"]["hook-runs"]?.length ?? 0, SETTLE).toBeGreaterThan(1);
    const { stdout } = await run(["show-unit", "mysql/0", "--format", "json", "--runs", "1"]);
    const unit = JSON.parse(stdout)["mysql/0"];
    expect(unit).toMatchObject({ life: "alive", application: "mysql" });
    expect(unit["hook-runs"]).toHaveLength(1);
  });

  it("show-unit of a Dying unit says what holds it", TIMEOUT, async () => {
    expect((await run(["deploy", "haproxy", "--config", "fail-hook=install"])).code).toBe(0);
    await eventually(["show-unit", "haproxy/0"], (d) => d["haproxy/0"]["agent-status"].current === "error");
    expect((await run(["remove-unit", "haproxy/0"])).code).toBe(0);
    const hookFailed = (d: any) => d["haproxy/0"].blockers?.some((b: { kind: string }) => b.kind === "hook-failed");
    const unit = (await eventually(["show-unit", "haproxy/0"], hookFailed))["haproxy/0"];
    expect(unit.life).toBe("dying");
    expect(unit.blockers.find((b: { kind: string }) => b.kind === "hook-failed")).toMatchObject({ entities: ["haproxy/0"] });
  });

  it("show-unit of a removed unit prints its hook history and says it is gone", { timeout: scaled(60_000) }, async () => {
    expect((await run(["deploy", "memcached"])).code).toBe(0);
    await expect.poll(async () => (await shown(["show-unit", "memcached/0"]))["memcached/0"]["agent-status"].current, SETTLE).toBe("idle");
    expect((await run(["remove-unit", "memcached/0"])).code).toBe(0);
    await expect.poll(async () => (await run(["show-unit", "memcached/0"])).stderr, SETTLE).toContain("memcached/0 is gone");
    const gone = await run(["show-unit", "memcached/0"]);
    expect(gone.code).toBe(0);
    const unit = parse(gone.stdout)["memcached/0"];
    expect(unit.removed).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(unit.life).toBeUndefined();
    expect(unit["hook-runs"].map((r: { hook: string }) => r.hook)).toEqual(expect.arrayContaining(["install", "stop", "remove"]));
  });

  it("show-unit of a unit that never was is refused with NOT_FOUND", TIMEOUT, async () => {
    const missing = await run(["show-unit", "nothing/7"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ERROR NOT_FOUND: no unit nothing\/7 in model default, nor any hook history of one$/m);
    expect(missing.stderr).toMatch(/^hint: lifeline status lists the model's units/m);
    const noModel = await run(["show-unit", "wordpress/0", "-m", "no-such-model"]);
    expect(noModel.code).toBe(1);
    expect(noModel.stderr).toMatch(/^ERROR NOT_FOUND: .*no-such-model/m);
    expect(noModel.stderr).toMatch(/^hint: lifeline models lists the models/m);
  });

  it("show-application prints its charm, config, units, relations and its units' hook runs", TIMEOUT, async () => {
    const application = (await shown(["show-application", "wordpress"])).wordpress;
    expect(application).toMatchObject({ life: "alive", charm: expect.stringContaining("wordpress"), series: "jammy" });
    expect(application.config).toMatchObject({ "fail-hook": "install", port: 80 });
    expect(Object.keys(application.units)).toEqual(["wordpress/0"]);
    expect(application.units["wordpress/0"]).toMatchObject({ life: "alive", machine: "1" });
    expect(application.relations).toEqual([expect.objectContaining({ key: "wordpress:db mysql:db", interface: "mysql", life: "alive" })]);
    expect(application["hook-runs"][0]).toMatchObject({ unit: "wordpress/0", hook: expect.any(String) });
    expect((await run(["show-application", "nothing"])).code).toBe(1);
  });

  it("show-machine prints its provisioning (instance, status, constraints), its units and their hook runs", TIMEOUT, async () => {
    await expect.poll(async () => (await shown(["show-machine", "1"]))["1"]["instance-id"], SETTLE).toMatch(/^dummy-/);
    const machine = (await shown(["show-machine", "1"]))["1"];
    expect(machine).toMatchObject({ life: "alive", series: "jammy", jobs: ["host-units"], units: { "wordpress/0": "alive" } });
    expect(machine["machine-status"].current).toBe("started");
    // Its units' latest hook runs, newest first.
    expect(machine["hook-runs"][0]).toMatchObject({ unit: "wordpress/0", hook: expect.any(String) });
    const starts = machine["hook-runs"].map((r: { started: string }) => r.started);
    expect(starts).toEqual([...starts].sort().reverse());
    const missing = await run(["show-machine", "99"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ERROR NOT_FOUND: /m);
  });

  it("resolved <machine> --constraints provisions a machine in error again, with the new constraints", {
    timeout: scaled(90_000),
  }, async () => {
    const added = await run(["add-machine", "--constraints", "mem=1024G"]);
    const [, id] = /added machine (\d+)/.exec(added.stdout)!;
    const failed = (await eventually(["show-machine", id!], (d) => d[id!]["machine-status"].current === "error"))[id!];
    expect(failed["instance-id"]).toBe("pending");
    expect(failed["machine-status"].message).toMatch(/no instance type satisfies mem=1T/);
    expect(failed.constraints).toBe("mem=1T");
    // Not a transient failure: one attempt, and no further ones (the machine is in error).
    expect(failed["start-attempts-failed"]).toBe(1);
    expect(failed["last-start-error"]).toMatch(/no instance type satisfies mem=1T/);

    const resolved = await run(["resolved", id!, "--constraints", "mem=2G cores=2"]);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toBe(`machine ${id}: pending, to be provisioned again (constraints cores=2 mem=2G)\n`);
    await expect.poll(async () => (await shown(["show-machine", id!]))[id!]["instance-id"], SETTLE).toMatch(/^dummy-/);
    expect((await shown(["show-machine", id!]))[id!]).toMatchObject({
      constraints: "cores=2 mem=2G",
      "machine-status": { current: "started" },
    });
  });

  it("resolved <machine> for a machine not in error is refused with NOT_IN_ERROR and a machine's hint", TIMEOUT, async () => {
    const refused = await run(["resolved", "0"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ERROR NOT_IN_ERROR: machine 0 is started/m);
    expect(refused.stderr).toMatch(/^hint: only a machine whose provisioning failed/m);
  });

  it("constraints and set-model-constraints read and replace the model's", TIMEOUT, async () => {
    expect((await run(["add-model", "sized"])).code).toBe(0);
    expect((await run(["constraints", "-m", "sized"])).stdout).toBe("\n");
    const set = await run(["set-model-constraints", "-m", "sized", "cores=2", "mem=4G"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe("model sized: constraints cores=2 mem=4G\n");
    expect((await run(["constraints", "-m", "sized"])).stdout).toBe("cores=2 mem=4G\n");
    expect((await run(["set-model-constraints", "-m", "sized", ""])).stdout).toBe("model sized: constraints cleared\n");
  });

  it("set-constraints replaces an application's, taking one quoted argument or several words", TIMEOUT, async () => {
    expect((await run(["set-constraints", "mysql", "mem=2G cores=4"])).stdout).toBe("mysql: constraints cores=4 mem=2G\n");
    expect((await run(["constraints", "mysql"])).stdout).toBe("cores=4 mem=2G\n");
    expect((await run(["set-constraints", "mysql", "arch=arm64", "mem=8G"])).stdout).toBe("mysql: constraints arch=arm64 mem=8G\n");
    expect((await run(["constraints", "mysql"])).stdout).toBe("arch=arm64 mem=8G\n");
  });

  it("bad constraints are refused with INVALID_CONSTRAINTS and the syntax as a hint", TIMEOUT, async () => {
    const bad = await run(["set-constraints", "mysql", "mem=lots"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ERROR INVALID_CONSTRAINTS: bad "mem" constraint/m);
    expect(bad.stderr).toMatch(/^hint: constraints are key=value words/m);
    expect((await run(["constraints", "nothing"])).stderr).toMatch(/^ERROR NOT_FOUND: /m);
  });

  it("config prints every option with its type, default, value and source", TIMEOUT, async () => {
    const all = await run(["config", "mysql"]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^Key\s+Type\s+Default\s+Value\s+Source$/m);
    const yaml = await shown(["config", "wordpress", "--format", "yaml"]);
    expect(yaml).toMatchObject({ application: "wordpress", charm: expect.stringContaining("wordpress") });
    expect(yaml.settings.port).toMatchObject({ type: "int", default: "80", value: 80, source: "default" });
    expect(yaml.settings["fail-hook"]).toMatchObject({ type: "string", value: "install", source: "user" });
  });

  it("config <application> <key> prints that option's value", TIMEOUT, async () => {
    expect((await run(["config", "wordpress", "port"])).stdout).toBe("80\n");
    expect((await run(["config", "wordpress", "fail-hook"])).stdout).toBe("install\n");
  });

  it("config key=value sets and --reset returns an option to its default", TIMEOUT, async () => {
    const set = await run(["config", "wordpress", "port=8080", "--reset", "fail-hook"]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^wordpress: set port=8080, reset fail-hook \(config version \d+\)$/m);
    expect((await run(["config", "wordpress", "port"])).stdout).toBe("8080\n");
    expect((await run(["config", "wordpress", "fail-hook"])).stdout).toBe("\n");
    expect((await shown(["config", "wordpress", "--format", "json"])).settings.port).toMatchObject({ value: 8080, source: "user" });
  });

  it("config refuses an unknown key or a value not of its type with the API's INVALID_ARGUMENT", TIMEOUT, async () => {
    const unknown = await run(["config", "wordpress", "colour=blue"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ERROR INVALID_ARGUMENT: application "wordpress" has no config option "colour"/m);
    expect(unknown.stderr).toMatch(/^hint: lifeline config <application> lists its options/m);
    const mistyped = await run(["config", "wordpress", "port=eighty"]);
    expect(mistyped.code).toBe(1);
    expect(mistyped.stderr).toMatch(/^ERROR INVALID_ARGUMENT: config option "port" is a int/m);
    expect((await run(["config", "wordpress", "colour"])).stderr).toMatch(/^ERROR INVALID_ARGUMENT: .*no config option "colour"/m);
  });

  it("config takes pairs to set or one key to read, not both: a usage error", TIMEOUT, async () => {
    const both = await run(["config", "wordpress", "port", "port=81"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("not both");
    expect((await run(["config", "wordpress", "port", "fail-hook"])).code).toBe(2);
  });
});
