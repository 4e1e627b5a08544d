// The hook tools' command lines and refusals, called in-process (no hook, no
// socket): the messages and exit codes are Juju's (jujuc, gnuflag, cmd.Main:
// usage errors exit 2, other failures 1), so a charm sees what it would see
// under Juju. hook-tools.test.ts runs the tools from real hooks.
import { describe, expect, it } from "vitest";
import { PendingRelationSettings } from "../src/agents/hooks/pending-settings.js";
import { runTool, type ToolHook } from "../src/agents/hooks/tools.js";
import { MemoryHookContext, RelationSettingsStore } from "./support/hook-context.js";

function wordpress0(): MemoryHookContext {
  const settings = new RelationSettingsStore();
  settings.put(2, "mysql/0", { host: "10.0.0.5" });
  return new MemoryHookContext({
    unit: "wordpress/0",
    settings,
    relations: [{ id: 2, endpoint: "db", remoteApp: "mysql", members: ["mysql/0"] }],
  });
}

const relationHook: ToolHook = { unit: "wordpress/0", relation: { id: 2, endpoint: "db" }, remoteUnit: "mysql/0", remoteApp: "mysql" };

function tool(name: string, args: string[], options: { hook?: ToolHook; context?: MemoryHookContext; stdin?: string } = {}) {
  return runTool(name, {
    args,
    cwd: "/nonexistent",
    hook: options.hook ?? relationHook,
    context: options.context ?? wordpress0(),
    readStdin: async () => options.stdin ?? "",
  });
}

const usageError = (message: string) => ({ code: 2, stdout: "", stderr: `ERROR ${message}\n` });
const failure = (message: string) => ({ code: 1, stdout: "", stderr: `ERROR ${message}\n` });

describe("options, as gnuflag parses them", () => {
  it("a single-letter option takes its value joined or as the next argument", async () => {
    expect(await tool("relation-get", ["-r2", "host"])).toEqual({ code: 0, stdout: "10.0.0.5\n", stderr: "" });
    expect(await tool("relation-get", ["-r", "2", "host"])).toEqual({ code: 0, stdout: "10.0.0.5\n", stderr: "" });
  });

  it('"--" ends the options: what follows is an argument even if it starts with a dash', async () => {
    const context = wordpress0();
    expect((await tool("juju-log", ["--", "-l", "is", "not", "an", "option"], { context })).code).toBe(0);
    expect(context.logs).toEqual([{ level: "INFO", message: "db:2: -l is not an option" }]);
  });

  it("an unknown option is refused, spelled as given", async () => {
    expect(await tool("relation-list", ["-x"])).toEqual(usageError("option provided but not defined: -x"));
    expect(await tool("relation-list", ["--verbose"])).toEqual(usageError("option provided but not defined: --verbose"));
  });

  it("an option without its value is refused", async () => {
    expect(await tool("relation-get", ["-r"])).toEqual(usageError("option needs an argument: -r"));
  });

  it("an unknown format is refused", async () => {
    expect(await tool("relation-list", ["--format", "xml"])).toEqual(
      usageError('invalid value "xml" for option --format: unknown format "xml"'),
    );
  });
});

describe("relation ids (-r)", () => {
  it("must end in a number", async () => {
    expect(await tool("relation-list", ["-r", "db:two"])).toEqual(usageError('invalid value "db:two" for option -r: invalid relation id'));
  });

  it("must be a relation of the unit", async () => {
    expect(await tool("relation-list", ["--relation", "db:9"])).toEqual(
      usageError('invalid value "db:9" for option --relation: relation not found'),
    );
  });
});

describe("relation-get's arguments", () => {
  it("an application name is not a unit", async () => {
    expect(await tool("relation-get", ["host", "mysql"])).toEqual(usageError('expected unit name, got application name "mysql"'));
  });

  it("a unit name must be one", async () => {
    expect(await tool("relation-get", ["host", "Mysql/x"])).toEqual(usageError('invalid unit name "Mysql/x"'));
  });

  it("takes at most a key and a unit", async () => {
    expect(await tool("relation-get", ["host", "mysql/0", "extra"])).toEqual(usageError('unrecognized args: ["extra"]'));
  });

  it("a unit the context does not know fails with the context's message", async () => {
    expect(await tool("relation-get", ["host", "mysql/7"])).toEqual(failure("unknown unit mysql/7"));
  });

  it("in a hook without a remote unit (-broken) it needs a unit: the remote application's data is not in Lifeline yet", async () => {
    const broken: ToolHook = { unit: "wordpress/0", relation: { id: 2, endpoint: "db" }, remoteApp: "mysql" };
    expect(await tool("relation-get", [], { hook: broken })).toEqual(
      failure("no unit specified, and the remote application's data: application relation data (--app) is not supported by Lifeline yet"),
    );
    expect((await tool("relation-get", ["host", "mysql/0"], { hook: broken })).stdout).toBe("10.0.0.5\n");
  });

  it("with -r outside a relation hook, and no unit, it names what is missing", async () => {
    expect(await tool("relation-get", ["-r", "2"], { hook: { unit: "wordpress/0" } })).toEqual(
      usageError("no unit or application specified"),
    );
  });
});

describe("relation-set's arguments", () => {
  it('each argument is "key=value"', async () => {
    expect(await tool("relation-set", ["host"])).toEqual(usageError('expected "key=value", got "host"'));
  });

  it("a key is not empty", async () => {
    expect(await tool("relation-set", ["=10.0.0.1"])).toEqual(usageError('expected "key=value", got "=10.0.0.1"'));
  });

  it("a key is given once", async () => {
    expect(await tool("relation-set", ["a=1", "a=2"])).toEqual(usageError('key "a" specified more than once'));
  });

  it("keys and values are trimmed, and a value may hold '='", async () => {
    const context = wordpress0();
    expect((await tool("relation-set", [" url = mysql://h/db?x=1 "], { context })).code).toBe(0);
    expect(context.pending.changes()).toEqual(new Map([[2, { url: "mysql://h/db?x=1" }]]));
  });

  it("a --file that cannot be read fails", async () => {
    expect(await tool("relation-set", ["--file", "missing.yaml"])).toEqual(
      failure("open /nonexistent/missing.yaml: no such file or directory"),
    );
  });

  it("--file must hold a map of strings", async () => {
    expect(await tool("relation-set", ["--file", "-"], { stdin: "- a\n- b\n" })).toEqual(
      failure("<stdin>: expected a YAML map of settings"),
    );
    expect(await tool("relation-set", ["--file", "-"], { stdin: "a:\n  b: c\n" })).toEqual(
      failure('<stdin>: the value of "a" is not a string'),
    );
  });

  it("--file takes values as written, and an empty one deletes", async () => {
    const context = wordpress0();
    await tool("relation-set", ["--file", "-"], { context, stdin: "port: 3306\nssl: true\ngone:\n" });
    expect(context.pending.changes()).toEqual(new Map([[2, { port: "3306", ssl: "true", gone: "" }]]));
  });

  it("--app is refused: Lifeline has no application data yet", async () => {
    expect(await tool("relation-set", ["--app", "a=1"])).toEqual(
      failure("application relation data (--app) is not supported by Lifeline yet"),
    );
  });

  it("--format is accepted and ignored, with Juju's deprecation notice", async () => {
    expect(await tool("relation-set", ["--format", "json", "a=1"])).toEqual({
      code: 0,
      stdout: "",
      stderr: '--format flag deprecated for command "relation-set"',
    });
  });
});

describe("the other tools' arguments", () => {
  it("relation-list takes no arguments", async () => {
    expect(await tool("relation-list", ["db"])).toEqual(usageError('unrecognized args: ["db"]'));
  });

  it("relation-ids takes at most an endpoint", async () => {
    expect(await tool("relation-ids", ["db", "cache"])).toEqual(usageError('unrecognized args: ["cache"]'));
  });

  it("status-set needs a status", async () => {
    expect(await tool("status-set", [])).toEqual(usageError("invalid args, require <status> [message]"));
  });

  it("status-set takes one message argument", async () => {
    expect(await tool("status-set", ["active", "all", "good"])).toEqual(usageError('unrecognized args: ["good"]'));
  });

  it("unit-get needs a setting", async () => {
    expect(await tool("unit-get", [])).toEqual(usageError("no setting specified"));
  });

  it("juju-log needs a message", async () => {
    expect(await tool("juju-log", ["-l", "INFO"])).toEqual(usageError("no message specified"));
  });

  it("juju-log logs an unknown level at INFO, after a warning", async () => {
    const context = wordpress0();
    await tool("juju-log", ["-l", "LOUD", "hello"], { context, hook: { unit: "wordpress/0" } });
    expect(context.logs).toEqual([
      { level: "WARNING", message: 'Specified log level of "LOUD" is not valid' },
      { level: "INFO", message: "hello" },
    ]);
  });

  it("config-get refuses a key with --all", async () => {
    expect(await tool("config-get", ["--all", "port"])).toEqual(usageError('cannot use argument --all together with key "port"'));
  });

  it("an unknown tool is a bad request", async () => {
    expect(await tool("leader-get", [])).toEqual(failure("bad request: unknown command: leader-get"));
  });
});

describe("PendingRelationSettings (a hook's relation-set writes until it is over)", () => {
  it("a later write of a key replaces an earlier one", () => {
    const pending = new PendingRelationSettings();
    pending.set(2, { user: "a", host: "h" });
    pending.set(2, { user: "b" });
    expect(pending.changes()).toEqual(new Map([[2, { user: "b", host: "h" }]]));
  });

  it("a deletion is kept as an empty value, for the commit to delete", () => {
    const pending = new PendingRelationSettings();
    pending.set(2, { user: "a" });
    pending.set(2, { user: "" });
    expect(pending.changes()).toEqual(new Map([[2, { user: "" }]]));
  });

  it("overlay applies the writes to the committed settings: what the hook's own relation-get sees", () => {
    const pending = new PendingRelationSettings();
    pending.set(2, { user: "b", "private-address": "" });
    expect(pending.overlay(2, { "private-address": "10.0.0.1", host: "h" })).toEqual({ host: "h", user: "b" });
    expect(pending.overlay(3, { host: "h" })).toEqual({ host: "h" });
  });

  it("is empty until something is written", () => {
    const pending = new PendingRelationSettings();
    expect(pending.empty).toBe(true);
    pending.set(2, { a: "1" });
    expect(pending.empty).toBe(false);
  });
});
