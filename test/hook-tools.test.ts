// Juju's hook tools, called by real shell hooks through the real tool wrappers
// and socket, against an in-memory HookContext: each tool's arguments,
// defaults and formats (worker/uniter/runner/jujuc in juju/juju). The error
// catalogue is in hook-tool-args.test.ts, the runner itself in
// hook-runner.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type HookOutcome, type HookRun, HookRunner } from "../src/agents/hooks/run-hook.js";
import { MemoryHookContext, RelationSettingsStore } from "./support/hook-context.js";

const runner = new HookRunner();
/** Every charm and file a test writes, removed with the runner at the end. */
const root = mkdtempSync(join(tmpdir(), "lifeline-hook-tools-"));
afterAll(async () => {
  await runner.close();
  rmSync(root, { recursive: true, force: true });
});

/** wordpress/0 in two db relations and a cache relation, with mysql/0's settings in db:2 and its own private-address. */
function wordpress0(): MemoryHookContext {
  const settings = new RelationSettingsStore();
  settings.put(2, "mysql/0", { host: "10.0.0.5", database: "wordpress", motd: "line one\nline two\n" });
  settings.put(2, "mysql/1", { host: "10.0.0.6" });
  settings.put(2, "wordpress/0", { "private-address": "10.0.0.1" });
  settings.put(10, "mysql-replica/0", { host: "10.0.0.9" });
  return new MemoryHookContext({
    unit: "wordpress/0",
    settings,
    relations: [
      { id: 2, endpoint: "db", remoteApp: "mysql", members: ["mysql/1", "mysql/0"] },
      { id: 10, endpoint: "db", remoteApp: "mysql-replica", members: ["mysql-replica/0"] },
      { id: 3, endpoint: "cache", remoteApp: "memcached", members: [] },
    ],
    config: { "fail-hook": "", "blog-title": "Notes", port: 8080, debug: false },
    addresses: { private: "10.0.0.1", public: "203.0.113.1" },
  });
}

/** Writes a charm with one hook, the script after `#!/bin/sh`. */
async function charmWith(hook: string, script: string): Promise<string> {
  const charmDir = await mkdtemp(join(root, "charm-"));
  await mkdir(join(charmDir, "hooks"));
  await writeFile(join(charmDir, "hooks", hook), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return charmDir;
}

type Ran = Extract<HookOutcome, { ran: true }>;

/** Runs the script as wordpress/0's db-relation-changed for mysql/0 in relation db:2. */
async function relationHook(script: string, context = wordpress0(), run: Partial<HookRun> = {}): Promise<Ran> {
  const hook = run.hook ?? "db-relation-changed";
  const outcome = await runner.run({
    charmDir: await charmWith(hook, script),
    hook,
    unit: "wordpress/0",
    model: "default",
    machineId: "1",
    principalUnit: "",
    relation: { id: 2, endpoint: "db" },
    remoteUnit: "mysql/0",
    remoteApp: "mysql",
    context,
    ...run,
  });
  if (!outcome.ran) throw new Error("the hook did not run");
  return outcome;
}

/** Runs the script as wordpress/0's config-changed: no relation. */
const unitHook = (script: string, context = wordpress0()) =>
  relationHook(script, context, { hook: "config-changed", relation: undefined, remoteUnit: undefined, remoteApp: undefined });

/** The hook's output, once it succeeded. */
async function printed(outcome: Promise<Ran>): Promise<string> {
  const { ok, output } = await outcome;
  expect(ok, output).toBe(true);
  return output;
}

describe("relation-get", () => {
  it("with no arguments prints the remote unit's settings in the hook's relation, as YAML with sorted keys", async () => {
    expect(await printed(relationHook("relation-get"))).toBe("database: wordpress\nhost: 10.0.0.5\nmotd: |\n  line one\n  line two\n");
  });

  it('"-" is every key, like no key', async () => {
    expect(await printed(relationHook("relation-get -"))).toBe("database: wordpress\nhost: 10.0.0.5\nmotd: |\n  line one\n  line two\n");
  });

  it("a key prints its bare value", async () => {
    expect(await printed(relationHook("relation-get host"))).toBe("10.0.0.5\n");
  });

  it("a missing key prints nothing and succeeds (the remote unit may not have set it yet)", async () => {
    expect(await printed(relationHook("relation-get password"))).toBe("");
  });

  it("a unit after the key reads that unit instead of the remote unit", async () => {
    expect(await printed(relationHook("relation-get host mysql/1"))).toBe("10.0.0.6\n");
  });

  it("-r names another relation, as db:10 or 10", async () => {
    expect(await printed(relationHook("relation-get -r db:10 host mysql-replica/0; relation-get -r 10 host mysql-replica/0"))).toBe(
      "10.0.0.9\n10.0.0.9\n",
    );
  });

  it("options may follow the arguments, and long options take =value", async () => {
    expect(await printed(relationHook("relation-get host mysql-replica/0 --relation=10"))).toBe("10.0.0.9\n");
  });

  it("--format json prints the map, a value, or null for a missing key", async () => {
    expect(
      await printed(relationHook("relation-get --format json; relation-get --format json host; relation-get --format json nope")),
    ).toBe('{"database":"wordpress","host":"10.0.0.5","motd":"line one\\nline two\\n"}\n"10.0.0.5"\nnull\n');
  });

  it("--format yaml prints a value as YAML and nothing for a missing key", async () => {
    expect(await printed(relationHook("relation-get --format yaml host mysql/1; relation-get --format yaml nope"))).toBe("10.0.0.6\n");
  });

  it("the unit's own settings include this hook's relation-set writes", async () => {
    expect(await printed(relationHook("relation-set user=wp; relation-get - wordpress/0"))).toBe("private-address: 10.0.0.1\nuser: wp\n");
  });

  it("-o writes the output to a file, relative to the charm directory", async () => {
    expect(await printed(relationHook("relation-get -o out.txt host && cat out.txt"))).toBe("10.0.0.5\n");
  });

  it("outside a relation hook it needs -r, exiting 2 as Juju does for usage errors", async () => {
    const { exitCode, output } = await unitHook("relation-get host mysql/0");
    expect(exitCode).toBe(2);
    expect(output).toBe("ERROR no relation id specified\n");
  });

  it("outside a relation hook, with -r and a unit, it reads", async () => {
    expect(await printed(unitHook("relation-get -r db:2 database mysql/0"))).toBe("wordpress\n");
  });

  it("--app is refused: Lifeline has no application data yet", async () => {
    const { exitCode, output } = await relationHook("relation-get --app");
    expect(exitCode).toBe(1);
    expect(output).toBe("ERROR application relation data (--app) is not supported by Lifeline yet\n");
  });
});

describe("relation-set", () => {
  it("key=value pairs are held by the context for the caller to commit, not written through", async () => {
    const context = wordpress0();
    await printed(relationHook("relation-set user=wp password=s3cret", context));
    expect(context.pending.changes()).toEqual(new Map([[2, { user: "wp", password: "s3cret" }]]));
    expect(context.settings.get(2, "wordpress/0")).toEqual({ "private-address": "10.0.0.1" });
  });

  it("an empty value deletes the key", async () => {
    expect(await printed(relationHook("relation-set private-address=; relation-get - wordpress/0"))).toBe("{}\n");
  });

  it("-r writes another relation's settings", async () => {
    const context = wordpress0();
    await printed(relationHook("relation-set -r cache:3 want=sessions", context));
    expect(context.pending.changes()).toEqual(new Map([[3, { want: "sessions" }]]));
  });

  it("--file reads a YAML map, and key=value arguments override it", async () => {
    const context = wordpress0();
    await printed(relationHook("printf 'user: wp\\nport: 3306\\n' > settings.yaml; relation-set --file settings.yaml user=admin", context));
    expect(context.pending.changes()).toEqual(new Map([[2, { user: "admin", port: "3306" }]]));
  });

  it("--file - reads the map from standard input", async () => {
    const context = wordpress0();
    await printed(relationHook("printf 'user: wp\\nnote: \"a: b\"\\n' | relation-set --file -", context));
    expect(context.pending.changes()).toEqual(new Map([[2, { user: "wp", note: "a: b" }]]));
  });

  it("outside a relation hook it needs -r", async () => {
    const { exitCode, output } = await unitHook("relation-set user=wp");
    expect({ exitCode, output }).toEqual({ exitCode: 2, output: "ERROR no relation id specified\n" });
  });
});

describe("relation-list", () => {
  it("prints the hook relation's joined remote units, sorted, one a line", async () => {
    expect(await printed(relationHook("relation-list"))).toBe("mysql/0\nmysql/1\n");
  });

  it("-r lists another relation; an empty one prints nothing", async () => {
    expect(await printed(relationHook("relation-list -r db:10; relation-list -r 3"))).toBe("mysql-replica/0\n");
  });

  it("--format json prints a list, empty or not", async () => {
    expect(await printed(relationHook("relation-list --format json; relation-list -r 3 --format json"))).toBe(
      '["mysql/0","mysql/1"]\n[]\n',
    );
  });

  it("--format yaml prints a YAML list", async () => {
    expect(await printed(relationHook("relation-list --format yaml"))).toBe("- mysql/0\n- mysql/1\n");
  });

  it("--app prints the remote application", async () => {
    expect(await printed(relationHook("relation-list --app; relation-list --app -r 10"))).toBe("mysql\nmysql-replica\n");
  });
});

describe("relation-ids", () => {
  it("with no argument lists the hook endpoint's relations as <endpoint>:<id>, sorted as Juju sorts them", async () => {
    expect(await printed(relationHook("relation-ids"))).toBe("db:10\ndb:2\n");
  });

  it("an endpoint argument lists that endpoint's relations", async () => {
    expect(await printed(unitHook("relation-ids cache; relation-ids website"))).toBe("cache:3\n");
  });

  it("--format json prints a list", async () => {
    expect(await printed(unitHook("relation-ids --format json db"))).toBe('["db:10","db:2"]\n');
  });

  it("outside a relation hook the endpoint is required", async () => {
    const { exitCode, output } = await unitHook("relation-ids");
    expect({ exitCode, output }).toEqual({ exitCode: 2, output: "ERROR no endpoint name specified\n" });
  });
});

describe("status-set", () => {
  it("sets the unit's workload status and message at once", async () => {
    const context = wordpress0();
    await printed(unitHook('status-set maintenance "installing packages"; status-set active', context));
    expect(context.statuses).toEqual([
      { status: "maintenance", message: "installing packages" },
      { status: "active", message: "" },
    ]);
  });

  it("refuses a status a charm may not set", async () => {
    const { exitCode, output } = await unitHook("status-set error oops");
    expect({ exitCode, output }).toEqual({
      exitCode: 2,
      output: 'ERROR invalid status "error", expected one of [maintenance blocked waiting active]\n',
    });
  });

  it("--application is refused: Lifeline has no application status yet", async () => {
    const { exitCode, output } = await unitHook("status-set --application active");
    expect({ exitCode, output }).toEqual({
      exitCode: 1,
      output: "ERROR application status (--application) is not supported by Lifeline yet\n",
    });
  });
});

describe("unit-get", () => {
  it("prints the unit's private and public addresses", async () => {
    expect(await printed(unitHook("unit-get private-address; unit-get public-address"))).toBe("10.0.0.1\n203.0.113.1\n");
  });

  it("--format json quotes the address", async () => {
    expect(await printed(unitHook("unit-get --format json private-address"))).toBe('"10.0.0.1"\n');
  });

  it("refuses any other setting", async () => {
    const { exitCode, output } = await unitHook("unit-get hostname");
    expect({ exitCode, output }).toEqual({ exitCode: 2, output: 'ERROR unknown setting "hostname"\n' });
  });
});

describe("juju-log", () => {
  it("logs its arguments joined by spaces, at INFO by default", async () => {
    const context = wordpress0();
    await printed(unitHook("juju-log installing the blog engine", context));
    expect(context.logs).toEqual([{ level: "INFO", message: "installing the blog engine" }]);
  });

  it("-l sets the level and --debug means DEBUG", async () => {
    const context = wordpress0();
    await printed(unitHook("juju-log -l WARNING disk is slow; juju-log --debug details; juju-log -l error broken", context));
    expect(context.logs).toEqual([
      { level: "WARNING", message: "disk is slow" },
      { level: "DEBUG", message: "details" },
      { level: "ERROR", message: "broken" },
    ]);
  });

  it("in a relation hook prefixes the relation id", async () => {
    const context = wordpress0();
    await printed(relationHook("juju-log got a database", context));
    expect(context.logs).toEqual([{ level: "INFO", message: "db:2: got a database" }]);
  });
});

describe("config-get", () => {
  it("with no key prints the whole config as YAML", async () => {
    expect(await printed(unitHook("config-get"))).toBe('blog-title: Notes\ndebug: false\nfail-hook: ""\nport: 8080\n');
  });

  it("a key prints its value: strings bare, numbers as numbers, booleans as Juju's smart format spells them", async () => {
    expect(await printed(unitHook("config-get blog-title; config-get port; config-get debug"))).toBe("Notes\n8080\nFalse\n");
  });

  it("an unset or empty value prints nothing", async () => {
    expect(await printed(unitHook("config-get fail-hook; config-get nope"))).toBe("");
  });

  it("--format json keeps the types", async () => {
    expect(await printed(unitHook("config-get --format json; config-get --format json debug"))).toBe(
      '{"blog-title":"Notes","debug":false,"fail-hook":"","port":8080}\nfalse\n',
    );
  });

  it("--all prints every key", async () => {
    expect(await printed(unitHook("config-get --all --format json"))).toBe(
      '{"blog-title":"Notes","debug":false,"fail-hook":"","port":8080}\n',
    );
  });
});

describe("every tool", () => {
  it("--help prints its usage and succeeds", async () => {
    const output = await printed(unitHook("relation-get --help"));
    expect(output).toMatch(/^Usage: relation-get \[options\] \[<key>\|-\] \[<unit id>\]\n\nSummary:\nget relation settings\n/);
  });

  it("an unknown option is a usage error", async () => {
    const { exitCode, output } = await unitHook("unit-get --verbose private-address");
    expect({ exitCode, output }).toEqual({ exitCode: 2, output: "ERROR option provided but not defined: --verbose\n" });
  });
});
