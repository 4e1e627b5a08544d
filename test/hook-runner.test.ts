// The hook runner: which hooks run, with what environment, how their end is
// reported, and how the tools of concurrent hooks keep to their own hook
// (Juju's worker/uniter/runner: what a hook sees).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, open, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { HOOK_OUTPUT_LIMIT, type HookOutcome, type HookRun, HookRunner } from "../src/agents/hooks/run-hook.js";
import { MemoryHookContext } from "./support/hook-context.js";
import { scaled } from "./support/time-scale.js";

const runner = new HookRunner();
/** Every charm and file a test writes, removed with the runner at the end. */
const root = mkdtempSync(join(tmpdir(), "lifeline-hook-runner-"));
afterAll(async () => {
  await runner.close();
  rmSync(root, { recursive: true, force: true });
});

async function charmWith(hooks: Record<string, string>, mode = 0o755): Promise<string> {
  const charmDir = await mkdtemp(join(root, "charm-"));
  await mkdir(join(charmDir, "hooks"));
  for (const [hook, script] of Object.entries(hooks)) await writeFile(join(charmDir, "hooks", hook), `#!/bin/sh\n${script}\n`, { mode });
  return charmDir;
}

const base = (charmDir: string, context: MemoryHookContext): HookRun => ({
  charmDir,
  hook: "install",
  unit: "wordpress/0",
  model: "default",
  machineId: "1",
  principalUnit: "",
  context,
});

type Ran = Extract<HookOutcome, { ran: true }>;
async function ran(outcome: Promise<HookOutcome>): Promise<Ran> {
  const result = await outcome;
  if (!result.ran) throw new Error("the hook did not run");
  return result;
}

/** Polls until `check` holds, failing after the deadline. */
async function eventually(check: () => boolean, what: string, deadlineMs = 5_000): Promise<void> {
  const deadline = Date.now() + scaled(deadlineMs);
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Whether the process still runs: a killed process waits as a zombie until its new parent (init) reaps it, which may take a while. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("running a hook", () => {
  it("a charm without the hook runs nothing: { ran: false }", async () => {
    const charmDir = await charmWith({});
    expect(await runner.run({ ...base(charmDir, new MemoryHookContext({ unit: "wordpress/0" })), hook: "db-relation-joined" })).toEqual({
      ran: false,
    });
  });

  it("a hook that exits 0 is ok, with its output", async () => {
    const charmDir = await charmWith({ install: "echo installing" });
    expect(await runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" })))).toEqual({
      ran: true,
      ok: true,
      exitCode: 0,
      signal: null,
      timedOut: false,
      output: "installing\n",
    });
  });

  it("a failing hook reports its exit code and its stdout and stderr together, in order", async () => {
    const charmDir = await charmWith({ install: "echo step one; echo 'no disk' >&2; exit 3" });
    expect(await runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" })))).toMatchObject({
      ran: true,
      ok: false,
      exitCode: 3,
      output: "step one\nno disk\n",
    });
  });

  it("runs in the charm directory", async () => {
    const charmDir = await charmWith({ install: "pwd" });
    const { output } = await ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    expect(output).toBe(`${charmDir}\n`);
  });

  it("a hook without its executable bit (charm files arrive as text) is made executable and runs", async () => {
    const charmDir = await charmWith({ install: "echo ran" }, 0o644);
    const { ok, output } = await ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    expect({ ok, output }).toEqual({ ok: true, output: "ran\n" });
    expect((await stat(join(charmDir, "hooks", "install"))).mode & 0o777).toBe(0o755);
  });

  it("a hook file some process still holds open for writing (Linux's ETXTBSY) runs once it is let go, not failed", async () => {
    const charmDir = await charmWith({ install: "echo ran" });
    // As a child forked while the file was being written holds the writer's descriptor until its own exec.
    const writer = await open(join(charmDir, "hooks", "install"), "r+");
    const outcome = ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    setTimeout(() => void writer.close(), 30);
    const { ok, output } = await outcome;
    expect({ ok, output }).toEqual({ ok: true, output: "ran\n" });
  });

  it("keeps only the last 64 KiB of output", async () => {
    const charmDir = await charmWith({ install: "yes 0123456789 | head -n 20000; echo the end" });
    const { output } = await ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    expect(Buffer.byteLength(output)).toBe(HOOK_OUTPUT_LIMIT);
    expect(output.endsWith("0123456789\n0123456789\nthe end\n")).toBe(true);
  });

  it("a hook past its timeout is killed with everything it started, and reported as timed out", async () => {
    const charmDir = await charmWith({ install: "sleep 60 & echo $! > background.pid; echo started; wait" });
    const outcome = await ran(runner.run({ ...base(charmDir, new MemoryHookContext({ unit: "wordpress/0" })), timeoutMs: 500 }));
    expect(outcome).toMatchObject({ ok: false, exitCode: null, signal: "SIGKILL", timedOut: true, output: "started\n" });
    const background = Number(await readFile(join(charmDir, "background.pid"), "utf8"));
    await eventually(() => !running(background), "the hook's background process is gone");
  });

  it("refuses a hook name that could leave the hooks directory", async () => {
    const charmDir = await charmWith({});
    await expect(runner.run({ ...base(charmDir, new MemoryHookContext({ unit: "wordpress/0" })), hook: "../escape" })).rejects.toThrow(
      /invalid hook name/,
    );
  });
});

describe("the hook's environment", () => {
  const env = async (run: Partial<HookRun>) => {
    const hook = run.hook ?? "install";
    const charmDir = await charmWith({ [hook]: "env | sort" });
    const { output } = await ran(
      runner.run({ ...base(charmDir, new MemoryHookContext({ unit: "logging/0" })), unit: "logging/0", ...run, hook }),
    );
    return {
      charmDir,
      vars: Object.fromEntries(
        output
          .trim()
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      ),
    };
  };

  it("is Juju's: unit, model, hook, charm directory, machine and principal", async () => {
    const { charmDir, vars } = await env({ hook: "start", machineId: "2/lxd/0", principalUnit: "wordpress/0" });
    expect(vars).toMatchObject({
      JUJU_UNIT_NAME: "logging/0",
      JUJU_MODEL_NAME: "default",
      JUJU_HOOK_NAME: "start",
      JUJU_CHARM_DIR: charmDir,
      CHARM_DIR: charmDir,
      JUJU_MACHINE_ID: "2/lxd/0",
      JUJU_PRINCIPAL_UNIT: "wordpress/0",
    });
    expect(vars).not.toHaveProperty("JUJU_RELATION");
  });

  it("has the tools first on PATH, and the tools' socket and context id", async () => {
    const { vars } = await env({});
    expect(vars.PATH!.startsWith(`${await runner.toolsDir()}:`)).toBe(true);
    expect(vars.JUJU_AGENT_SOCKET_ADDRESS).toMatch(/agent\.socket$/);
    expect(vars.JUJU_CONTEXT_ID).toMatch(/^logging\/0-install-[0-9a-f]{24}$/);
  });

  it("adds the relation, its id, and the remote unit and application in a relation hook", async () => {
    const { vars } = await env({
      hook: "info-relation-joined",
      relation: { id: 4, endpoint: "info" },
      remoteUnit: "wordpress/0",
      remoteApp: "wordpress",
    });
    expect(vars).toMatchObject({
      JUJU_RELATION: "info",
      JUJU_RELATION_ID: "info:4",
      JUJU_REMOTE_UNIT: "wordpress/0",
      JUJU_REMOTE_APP: "wordpress",
    });
    expect(vars).not.toHaveProperty("JUJU_DEPARTING_UNIT");
  });

  it("adds the departing unit in -departed", async () => {
    const { vars } = await env({
      hook: "info-relation-departed",
      relation: { id: 4, endpoint: "info" },
      remoteUnit: "wordpress/0",
      remoteApp: "wordpress",
      departingUnit: "wordpress/0",
    });
    expect(vars.JUJU_DEPARTING_UNIT).toBe("wordpress/0");
  });

  it("holds nothing else of the agent's environment (an agent's credentials must not reach charm code)", async () => {
    const { vars } = await env({});
    // PWD, SHLVL and _ are the shell's own.
    const expected = new Set(["CHARM_DIR", "LANG", "PATH", "HOME", "TMPDIR", "PWD", "SHLVL", "_"]);
    expect(Object.keys(vars).filter((name) => !name.startsWith("JUJU_") && !expected.has(name))).toEqual([]);
  });
});

describe("hook contexts", () => {
  it("relation-set writes stay in the context: the caller commits them after an ok hook", async () => {
    const context = new MemoryHookContext({
      unit: "mysql/0",
      relations: [{ id: 2, endpoint: "db", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    const charmDir = await charmWith({ "db-relation-joined": "relation-set database=wordpress" });
    const outcome = await ran(
      runner.run({
        ...base(charmDir, context),
        unit: "mysql/0",
        hook: "db-relation-joined",
        relation: { id: 2, endpoint: "db" },
        remoteUnit: "wordpress/0",
        remoteApp: "wordpress",
      }),
    );
    expect(outcome.ok).toBe(true);
    expect(context.settings.get(2, "mysql/0")).toBeUndefined();
    context.commit();
    expect(context.settings.get(2, "mysql/0")).toEqual({ database: "wordpress" });
  });

  it("a failed hook's relation-set writes are there to be dropped: ok is false", async () => {
    const context = new MemoryHookContext({
      unit: "mysql/0",
      relations: [{ id: 2, endpoint: "db", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    const charmDir = await charmWith({ "db-relation-joined": "relation-set database=wordpress; exit 1" });
    const outcome = await ran(
      runner.run({
        ...base(charmDir, context),
        unit: "mysql/0",
        hook: "db-relation-joined",
        relation: { id: 2, endpoint: "db" },
        remoteUnit: "wordpress/0",
        remoteApp: "wordpress",
      }),
    );
    expect(outcome.ok).toBe(false);
    context.discard();
    expect(context.settings.get(2, "mysql/0")).toBeUndefined();
  });

  it("two hooks running at once are each served against their own context", async () => {
    const rendezvous = await mkdtemp(join(root, "rendezvous-"));
    // Each hook announces itself, waits for the other (so both are running), then uses the tools.
    const script = (me: string, other: string) =>
      `touch ${rendezvous}/${me}; while [ ! -e ${rendezvous}/${other} ]; do sleep 0.01; done\n` +
      'relation-set who="$JUJU_UNIT_NAME"; status-set active "$(unit-get private-address)"; relation-get who "$JUJU_UNIT_NAME"';
    const contexts = ["wordpress/0", "wordpress/1"].map(
      (unit, n) =>
        new MemoryHookContext({
          unit,
          relations: [{ id: 2, endpoint: "db", remoteApp: "mysql", members: ["mysql/0"] }],
          addresses: { private: `10.0.0.${n + 1}`, public: "203.0.113.1" },
        }),
    );
    const [a, b] = contexts as [MemoryHookContext, MemoryHookContext];
    const run = (context: MemoryHookContext, me: string, other: string) =>
      charmWith({ "db-relation-changed": script(me, other) }).then((charmDir) =>
        ran(
          runner.run({
            ...base(charmDir, context),
            unit: context.unit,
            hook: "db-relation-changed",
            relation: { id: 2, endpoint: "db" },
            remoteUnit: "mysql/0",
            remoteApp: "mysql",
          }),
        ),
      );
    const [first, second] = await Promise.all([run(a, "a", "b"), run(b, "b", "a")]);
    expect(first.output).toBe("wordpress/0\n");
    expect(second.output).toBe("wordpress/1\n");
    expect(a.pending.changes()).toEqual(new Map([[2, { who: "wordpress/0" }]]));
    expect(b.pending.changes()).toEqual(new Map([[2, { who: "wordpress/1" }]]));
    expect(a.statuses).toEqual([{ status: "active", message: "10.0.0.1" }]);
    expect(b.statuses).toEqual([{ status: "active", message: "10.0.0.2" }]);
  });

  it("a tool called with a finished hook's context id is refused", async () => {
    const charmDir = await charmWith({ install: 'echo "$JUJU_CONTEXT_ID" > context-id; echo "$JUJU_AGENT_SOCKET_ADDRESS" > socket' });
    await ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    const contextId = (await readFile(join(charmDir, "context-id"), "utf8")).trim();
    const socket = (await readFile(join(charmDir, "socket"), "utf8")).trim();
    const call = callTool("unit-get", ["private-address"], { JUJU_CONTEXT_ID: contextId, JUJU_AGENT_SOCKET_ADDRESS: socket });
    await expect(call).resolves.toEqual({
      code: 1,
      stdout: "",
      stderr: `ERROR bad request: no running hook has context id "${contextId}"\n`,
    });
  });

  it("a tool called with an unknown context id is refused", async () => {
    const charmDir = await charmWith({ install: 'echo "$JUJU_AGENT_SOCKET_ADDRESS" > socket' });
    await ran(runner.run(base(charmDir, new MemoryHookContext({ unit: "wordpress/0" }))));
    const socket = (await readFile(join(charmDir, "socket"), "utf8")).trim();
    const call = callTool("unit-get", ["private-address"], {
      JUJU_CONTEXT_ID: "wordpress/0-install-guessed",
      JUJU_AGENT_SOCKET_ADDRESS: socket,
    });
    await expect(call).resolves.toEqual({
      code: 1,
      stdout: "",
      stderr: 'ERROR bad request: no running hook has context id "wordpress/0-install-guessed"\n',
    });
  });

  it("a tool run outside any hook says what is missing", async () => {
    await expect(callTool("unit-get", ["private-address"], {})).resolves.toEqual({
      code: 1,
      stdout: "",
      stderr: "ERROR JUJU_CONTEXT_ID not set\n",
    });
  });
});

/** Runs a tool from the runner's tools directory directly, with only the given environment. */
async function callTool(tool: string, args: string[], env: Record<string, string>) {
  const path = join(await runner.toolsDir(), tool);
  try {
    const { stdout, stderr } = await promisify(execFile)(path, args, { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
